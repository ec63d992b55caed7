"""The shared table of Patchwork Doodle: the deck, the circle of cards, the token, the die, rounds and turns.

The die is a chance node (`chance_outcomes()` lists the faces with their probabilities and `roll(value)` takes
one), so the table dealer, the solo game and the bots all run this one rule engine.

The circle is kept clockwise *starting with the first card after the token*. A roll of n makes card n-1 the
current card. DECISION (doodle-rules.md): when the current card leaves, the token stays in the gap it left, so
the new circle starts with the card after the discarded one.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from doodle.game.deck import Deck, load_deck
from doodle.game.errors import GameError

DIE_FACES = (1, 1, 2, 2, 3, 3)
ROUNDS = 3
TURNS_PER_ROUND = 6
CIRCLE_SIZE = 8
NEW_CARDS_PER_ROUND = 6
FINAL_CHOICES = 3
MIN_PLAYERS = 1
MAX_PLAYERS = 6


class Phase(StrEnum):
    ROLL = "roll"  # a chance node: the die is to be rolled
    TURN = "turn"  # players draw the current card (or a neighbour, or a cut piece), pass, use specials
    FINAL = "final"  # the last turn: no roll, each player picks any one of the 3 cards left
    SCORING = "scoring"  # an intermediate scoring: players may still use a single square, then score
    OVER = "over"


class DealerError(GameError):
    """A dealer step asked for in the wrong phase, or a table that cannot be dealt (players, a die face)."""


@dataclass(frozen=True)
class Offer:
    """What the table offers right now: the current card and its two neighbours on a turn, the three choices on
    the final turn, nothing to draw during a scoring."""

    phase: Phase
    round: int
    turn: int
    current: str | None = None
    neighbours: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()


@dataclass
class Dealer:
    deck: Deck
    players: int
    seed: int
    start_cards: tuple[str, ...]
    circle: list[str]
    draw_pile: list[str]
    token_gap: int
    rng: random.Random
    round: int = 1
    turn: int = 1
    phase: Phase = Phase.ROLL
    last_roll: int | None = None
    current_index: int | None = None
    discarded: list[str] = field(default_factory=list)

    @classmethod
    def new(cls, players: int = 1, seed: int | None = None, deck: Deck | None = None) -> Dealer:
        """Shuffle, deal the start cards (all different) and the circle of 8, and place the token at random."""
        if not (isinstance(players, int) and not isinstance(players, bool) and MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise DealerError(f"Patchwork Doodle is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
        deck = deck or load_deck()
        deck.check_players(players)
        if seed is None:
            seed = secrets.randbelow(10**9)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise DealerError(f"a seed is a whole number, not {seed!r}")
        rng = random.Random(seed)
        starts = [card.id for card in deck.start_cards]
        rng.shuffle(starts)
        pile = [card.id for card in deck.patch_cards]
        rng.shuffle(pile)
        laid = pile[:CIRCLE_SIZE]
        token_gap = rng.randrange(CIRCLE_SIZE)  # the token sits before laid[token_gap]
        return cls(
            deck=deck,
            players=players,
            seed=seed,
            start_cards=tuple(starts[:players]),
            circle=laid[token_gap:] + laid[:token_gap],
            draw_pile=pile[CIRCLE_SIZE:],
            token_gap=token_gap,
            rng=rng,
        )

    def __repr__(self) -> str:
        return (f"<Dealer seed={self.seed} players={self.players} round {self.round} turn {self.turn} "
                f"phase={self.phase.value}>")

    def clone(self) -> Dealer:
        """An independent copy (its own random state), for bots that look ahead."""
        copy = Dealer(**{**self.__dict__})
        copy.circle = list(self.circle)
        copy.draw_pile = list(self.draw_pile)
        copy.discarded = list(self.discarded)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        return copy

    # ----- the chance node -----
    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """The die's outcomes with their probabilities (faces 1, 1, 2, 2, 3, 3)."""
        self._expect(Phase.ROLL)
        return [(face, Fraction(DIE_FACES.count(face), len(DIE_FACES))) for face in sorted(set(DIE_FACES))]

    def roll(self, value: int | None = None) -> int:
        """Roll the die (or take `value`, for replays and bots) and move the token onto the current card."""
        self._expect(Phase.ROLL)
        if value is None:
            value = self.rng.choice(DIE_FACES)
        elif isinstance(value, bool) or not isinstance(value, int) or value not in DIE_FACES:
            raise DealerError(f"the die shows 1, 2 or 3, not {value!r}")
        self.last_roll = value
        self.current_index = (value - 1) % len(self.circle)
        self.phase = Phase.TURN
        return value

    # ----- what is on offer -----
    @property
    def current_card(self) -> str | None:
        return self.circle[self.current_index] if self.phase == Phase.TURN and self.current_index is not None else None

    def neighbours(self) -> tuple[str, str]:
        """The cards just before and just after the current card, clockwise."""
        self._expect(Phase.TURN)
        i = self.current_index
        assert i is not None
        return self.circle[i - 1], self.circle[(i + 1) % len(self.circle)]

    def offer(self) -> Offer:
        if self.phase == Phase.TURN:
            return Offer(self.phase, self.round, self.turn, self.current_card, self.neighbours())
        if self.phase == Phase.FINAL:
            return Offer(self.phase, self.round, self.turn, choices=tuple(self.circle))
        return Offer(self.phase, self.round, self.turn)

    def is_final_turn(self) -> bool:
        return self.round == ROUNDS and self.turn == TURNS_PER_ROUND

    # ----- moving on -----
    def end_turn(self) -> None:
        """Discard the current card (not on the final turn) and go to the next turn or to the scoring."""
        if self.phase == Phase.TURN:
            i = self.current_index
            assert i is not None
            self.discarded.append(self.circle[i])
            self.circle = self.circle[i + 1 :] + self.circle[:i]
            self.current_index = None
        elif self.phase != Phase.FINAL:
            raise DealerError(f"no turn to end: the table is in the {self.phase.value} phase")
        if self.turn == TURNS_PER_ROUND:
            self.phase = Phase.SCORING
            return
        self.turn += 1
        self.phase = Phase.FINAL if self.is_final_turn() else Phase.ROLL
        self.last_roll = None

    def end_scoring(self) -> None:
        """After an intermediate scoring: the 2 cards left go next after the token, 6 new cards follow them."""
        self._expect(Phase.SCORING)
        if self.round == ROUNDS:
            self.phase = Phase.OVER
            return
        self.round += 1
        self.turn = 1
        self.circle = self.circle + self.draw_pile[:NEW_CARDS_PER_ROUND]
        self.draw_pile = self.draw_pile[NEW_CARDS_PER_ROUND:]
        self.phase = Phase.ROLL
        self.last_roll = None

    def _expect(self, phase: Phase) -> None:
        if self.phase != phase:
            raise DealerError(f"the table is in the {self.phase.value} phase, not {phase.value}")
