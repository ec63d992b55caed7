"""A whole game of Patchwork Doodle: the table (`Dealer`) and every player's `Sheet`, with a JSON record that
replays it. Players act simultaneously: the table moves on when every player has ended the turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from doodle.game.dealer import Dealer, Offer, Phase
from doodle.game.deck import Deck, load_deck
from doodle.game.draws import PASS, CardRole, Draw, LegalDraw, offered_draws
from doodle.game.errors import GameError, RecordError
from doodle.game.sheet import Action, IllegalAction, Sheet, action_from_json, action_to_json, checked_action

RECORD_FORMAT = "doodle-game/1"


@dataclass
class DoodleGame:
    dealer: Dealer
    sheets: list[Sheet]
    names: list[str]
    auto_roll: bool = True
    log: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def new(
        cls,
        players: int = 1,
        seed: int | None = None,
        deck: Deck | None = None,
        names: list[str] | None = None,
        auto_roll: bool = True,
    ) -> DoodleGame:
        dealer = Dealer.new(players, seed, deck)
        if names is not None and (not isinstance(names, (list, tuple)) or
                                  not all(isinstance(name, str) for name in names)):
            raise GameError(f"names are a list of strings, not {names!r}")
        names = list(names or [f"Player {i + 1}" for i in range(players)])
        if len(names) != players:
            raise GameError(f"{len(names)} names given for {players} players")
        sheets = [Sheet(card) for card in dealer.start_cards]
        return cls(dealer, sheets, names, auto_roll)

    def __repr__(self) -> str:
        """One line: the seed and where the game stands (the whole state is in `to_record()`)."""
        return (f"<DoodleGame seed={self.dealer.seed} players={len(self.sheets)} round {self.dealer.round} "
                f"turn {self.dealer.turn} phase={self.phase.value}>")

    # ----- reading the state -----
    @property
    def deck(self) -> Deck:
        return self.dealer.deck

    @property
    def phase(self) -> Phase:
        return self.dealer.phase

    def offer(self) -> Offer:
        return self.dealer.offer()

    def waiting_for(self) -> list[int]:
        """The players who still have to act (draw their start card, or end the turn or scoring)."""
        return [i for i, sheet in enumerate(self.sheets) if sheet.needs_start() or not sheet.done]

    def legal_draws(self, player: int) -> list[LegalDraw]:
        """Every draw `player` may make now: the start card; on a turn each card on offer (the current card, a
        neighbour's with Neighbour left, on the final turn the three choices), whole and (with Cut left) as each
        piece of a straight cut, that fits somewhere on the player's quilt; then `PASS` (ending the turn). Empty
        when the player has nothing to decide (a scoring, which `EndTurn` scores; a turn ended; the game over)."""
        sheet = self.sheets[self._player(player)]
        if sheet.needs_start():
            return [Draw(sheet.start_card, CardRole.START, self.deck.card(sheet.start_card).shape)]
        if sheet.done or self.phase not in (Phase.TURN, Phase.FINAL):
            return []
        if sheet.drew_this_turn:
            return [PASS]
        draws = offered_draws(self.offer(), self.deck, sheet.spent)
        return [*(draw for draw in draws if sheet.quilt.can_place(draw.shape)), PASS]

    def is_over(self) -> bool:
        return self.dealer.phase == Phase.OVER

    def totals(self) -> list[int]:
        return [sheet.total() for sheet in self.sheets]

    def winners(self) -> list[int]:
        """The players with the highest total (DECISION: a tie is a shared victory)."""
        totals = self.totals()
        best = max(totals)
        return [i for i, total in enumerate(totals) if total == best]

    # ----- acting -----
    def roll(self, value: int | None = None) -> int:
        value = self.dealer.roll(value)
        self.log.append({"round": self.dealer.round, "turn": self.dealer.turn, "roll": value})
        return value

    def apply(self, player: int, action: Action) -> None:
        """Apply one player's action; when every player has ended, the table moves on (rolling if auto_roll).
        IllegalAction says why an action is refused (also one that is not an action, or a player who is not one)."""
        player = self._player(player)
        action = checked_action(action)
        if self.dealer.phase == Phase.ROLL and not self.sheets[player].needs_start():
            raise IllegalAction("wrong phase: the die has not been rolled yet")
        sheet = self.sheets[player]
        starting = sheet.needs_start()
        offer = self.dealer.offer()
        sheet.apply(action, offer, self.deck)
        self.log.append({"round": offer.round, "turn": offer.turn, "phase": "start" if starting else offer.phase.value,
                         "player": player, "action": action_to_json(action)})
        self._settle()

    def _player(self, player: object) -> int:
        """`player` as a player's index; IllegalAction when there is no such player."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(self.sheets):
            raise IllegalAction(f"there is no player {player!r}: players are numbered 0 to {len(self.sheets) - 1}")
        return player

    def _settle(self) -> None:
        """Move the table on once nobody is left to act: roll after the start cards, end a finished turn."""
        if any(sheet.needs_start() for sheet in self.sheets):
            return
        if self.dealer.phase == Phase.ROLL:
            self._roll_if_auto()
        elif all(sheet.done for sheet in self.sheets):
            self._advance()

    def _advance(self) -> None:
        if self.dealer.phase in (Phase.TURN, Phase.FINAL):
            self.dealer.end_turn()
        elif self.dealer.phase == Phase.SCORING:
            self.dealer.end_scoring()
        for sheet in self.sheets:
            sheet.new_turn()
        self._roll_if_auto()

    def _roll_if_auto(self) -> None:
        if self.auto_roll and self.dealer.phase == Phase.ROLL:
            self.roll()

    # ----- records -----
    def to_record(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "seed": self.dealer.seed,
            "players": len(self.sheets),
            "names": self.names,
            "deck": self.deck.name,
            "start_cards": list(self.dealer.start_cards),
            "log": self.log,
            "over": self.is_over(),
            "round_scores": [sheet.round_scores for sheet in self.sheets],
            "totals": self.totals() if self.is_over() else None,
        }

    @classmethod
    def replay(cls, record: dict[str, Any], deck: Deck | None = None) -> DoodleGame:
        """Replay a record from its seed and log; RecordError if it is malformed or does not reproduce."""
        deck = deck or load_deck()
        try:
            if record.get("format") != RECORD_FORMAT:
                raise RecordError(f"not a {RECORD_FORMAT} record (format is {record.get('format')!r})")
            if record.get("deck", deck.name) != deck.name:
                raise RecordError(
                    f"the game was played with the deck {record['deck']!r}, not {deck.name!r}: pass that deck file"
                )
            game = cls.new(int(record["players"]), int(record["seed"]), deck, list(record["names"]), auto_roll=False)
            for entry in record["log"]:
                if "roll" in entry:
                    if game.phase is not Phase.ROLL:
                        raise RecordError(f"a die roll comes where a move is due (the game is in its "
                                          f"{game.phase.value} phase)")
                    rolled = game.roll()
                    if type(entry["roll"]) is not int:
                        raise RecordError(f"a roll in the record is {entry['roll']!r}, not a die face 1, 2 or 3")
                    if rolled != entry["roll"]:
                        raise RecordError(f"the seed rolls {rolled} where the record says {entry['roll']}")
                else:
                    game.apply(int(entry["player"]), action_from_json(entry["action"]))
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, RecordError):
                raise
            raise RecordError(f"the record does not replay: {error}") from None
        game.auto_roll = True
        if record.get("round_scores") is not None and record["round_scores"] != [s.round_scores for s in game.sheets]:
            raise RecordError("the replayed round scores differ from the record's")
        return game

