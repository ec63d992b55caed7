"""One player's solo game of Patchwork Doodle, as the screens see it: what to draw now, and the moves a player
makes, all played through the rules engine (`DoodleGame`), which refuses illegal ones with `IllegalAction`.

UI-free: the full-screen game and the typed-command mode share it, so they play by exactly the same rules.

DECISION: drawing a patch ends the turn. Nothing is lost by this: a single square (the only special a player
might still want after drawing) can be drawn at the start of the next turn, or during the scoring that follows
the last turn of a round, to the same effect.

`on_change(game)` runs after every accepted move (the CLI saves there); if it raises `SaveWriteError` the move
still stands and `save_problem` says what went wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from doodle.game.dealer import DIE_FACES, ROUNDS, TURNS_PER_ROUND, Phase
from doodle.game.deck import Deck
from doodle.game.game import DoodleGame
from doodle.game.sheet import DrawPatch, EndTurn, IllegalAction, Sheet, SingleSquare, Special
from doodle.geometry import Cell, Cut, Polyomino
from doodle.quilt import Quilt, Rectangle
from doodle.render import cell_name
from doodle.solo.store import SaveWriteError

PLAYER = 0


class Stage(StrEnum):
    START = "start"  # draw the start card, whole, anywhere
    TURN = "turn"  # draw the current card (or a neighbour's, or a cut piece), pass, use specials
    FINAL = "final"  # the last turn: pick one of the three cards left
    SCORING = "scoring"  # an intermediate scoring: a single square may still be drawn, then confirm
    OVER = "over"


class CardRole(StrEnum):
    """Why a card may be drawn now."""

    START = "start card"
    CURRENT = "current card"
    BEFORE = "neighbour before"
    AFTER = "neighbour after"
    CHOICE = "final choice"


@dataclass(frozen=True)
class CardOption:
    card: str
    role: CardRole
    shape: Polyomino

    @property
    def needs_neighbour(self) -> bool:
        return self.role in (CardRole.BEFORE, CardRole.AFTER)


_CELL = re.compile(r"\((\d), (\d)\)")


def explain(error: Exception) -> str:
    """The engine's reason, with its (row, col) cells written as the names on screen (e.g. 'c2')."""
    return _CELL.sub(lambda m: cell_name(int(m.group(1)), int(m.group(2))), str(error))


def specials_summary(session: SoloSession) -> str:
    """e.g. "left: single, twice (twice repeats one used special); used: neighbour, cut"."""
    left = [special.value for special, available in session.specials() if available]
    used = [special.value for special in Special if session.uses(special)]
    text = f"left: {', '.join(left) or 'none'}"
    if "twice" in left and used:
        text += " (twice repeats one used special)"
    if used:
        text += f"; used: {', '.join(used)}"
    return text


def cut_sides(cut: Cut) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """The two pieces of `cut`: first the one above (or left of) the line, then the one below (or right)."""
    axis = 0 if cut.axis == "row" else 1
    first, second = cut.pieces
    return (first, second) if min(cell[axis] for cell in first) < cut.index else (second, first)


def cut_name(cut: Cut) -> str:
    """'h2' for the line below row 2 of the patch, 'v1' for the line right of column 1."""
    return f"{'h' if cut.axis == 'row' else 'v'}{cut.index}"


def find_cut(shape: Polyomino, name: str) -> Cut:
    """The legal cut of `shape` named `name` (see `cut_name`); ValueError lists the legal ones."""
    for cut in shape.cuts():
        if cut_name(cut) == name.strip().lower():
            return cut
    legal = ", ".join(cut_name(cut) for cut in shape.cuts())
    if not legal:
        raise ValueError("this patch has no legal straight cut (every line leaves one piece or more than two)")
    raise ValueError(f"{name!r} is not a legal cut of this patch: the legal lines are {legal}")


@dataclass(frozen=True)
class CutChoice:
    """One piece of a patch after a straight cut: `shape` is the patch as it was cut (any orientation of the
    card), `side` 0 the piece above or left of the line, 1 the piece below or right of it."""

    shape: Polyomino
    cut: Cut
    side: int = 0

    @property
    def cells(self) -> frozenset[Cell]:
        """The piece's cells in the cut patch's frame."""
        return cut_sides(self.cut)[self.side]

    @property
    def piece(self) -> Polyomino:
        return Polyomino(self.cells)

    @property
    def name(self) -> str:
        return f"{cut_name(self.cut)} {self.side + 1}"


class SoloSession:
    """A one-player `DoodleGame` and the moves of its player. `on_change(game)` runs after every move the
    engine accepts (the CLI saves the game there)."""

    def __init__(self, game: DoodleGame, on_change: Callable[[DoodleGame], None] | None = None) -> None:
        if len(game.sheets) != 1:
            raise ValueError(f"a solo game has one player, this one has {len(game.sheets)}")
        self.game = game
        self.on_change = on_change
        self.save_problem: str | None = None  # why the last save failed, if it did
        if game.phase == Phase.ROLL and not self.sheet.needs_start():
            game.roll()  # a replayed record may stop before a roll; the seed rolls the same die again

    @classmethod
    def new(cls, seed: int | None = None, deck: Deck | None = None, name: str = "Player",
            on_change: Callable[[DoodleGame], None] | None = None) -> SoloSession:
        return cls(DoodleGame.new(1, seed, deck, [name]), on_change)

    # ----- reading the state -----
    @property
    def sheet(self) -> Sheet:
        return self.game.sheets[PLAYER]

    @property
    def quilt(self) -> Quilt:
        return self.sheet.quilt

    @property
    def seed(self) -> int:
        return self.game.dealer.seed

    @property
    def stage(self) -> Stage:
        if self.sheet.needs_start():
            return Stage.START
        phase = self.game.phase
        return {Phase.TURN: Stage.TURN, Phase.FINAL: Stage.FINAL, Phase.SCORING: Stage.SCORING}.get(phase, Stage.OVER)

    @property
    def round(self) -> int:
        return self.game.dealer.round

    @property
    def turn(self) -> int:
        return self.game.dealer.turn

    @property
    def roll(self) -> int | None:
        return self.game.dealer.last_roll if self.stage == Stage.TURN else None

    def circle(self) -> list[str]:
        """The cards of the circle, clockwise from the token's gap (before the roll: the token sits before the
        first one; on a turn the token stands on the current card)."""
        return list(self.game.dealer.circle)

    def current_index(self) -> int | None:
        """Where the token stands in `circle()` on a turn."""
        return self.game.dealer.current_index if self.stage == Stage.TURN else None

    def options(self) -> list[CardOption]:
        """The cards the player may draw now: the start card; the current card and its neighbours (the
        neighbours only while the Neighbour special is left); the three final choices; nothing in a scoring."""
        deck = self.game.deck
        stage = self.stage
        offer = self.game.offer()
        if stage == Stage.START:
            return [CardOption(self.sheet.start_card, CardRole.START, deck.card(self.sheet.start_card).shape)]
        if stage == Stage.TURN:
            assert offer.current is not None
            found = [CardOption(offer.current, CardRole.CURRENT, deck.card(offer.current).shape)]
            if self.sheet.can_use(Special.NEIGHBOUR):
                before, after = offer.neighbours
                found.append(CardOption(before, CardRole.BEFORE, deck.card(before).shape))
                found.append(CardOption(after, CardRole.AFTER, deck.card(after).shape))
            return found
        if stage == Stage.FINAL:
            return [CardOption(card, CardRole.CHOICE, deck.card(card).shape) for card in offer.choices]
        return []

    def neighbours(self) -> tuple[str, str] | None:
        """The cards before and after the current card (whether or not Neighbour is left), on a turn."""
        return self.game.offer().neighbours if self.stage == Stage.TURN else None

    def next_cards(self) -> list[tuple[int, str]]:
        """On a turn that another rolled turn of the same round follows: (roll, card) for each die face, the
        card that face will make current once this card has left the circle."""
        index = self.current_index()
        if index is None or self.turn >= TURNS_PER_ROUND or (self.round, self.turn + 1) == (ROUNDS, TURNS_PER_ROUND):
            return []
        circle = self.circle()
        after = circle[index + 1 :] + circle[:index]
        return [(face, after[(face - 1) % len(after)]) for face in sorted(set(DIE_FACES))]

    def can_use(self, special: Special) -> bool:
        return self.sheet.can_use(special)

    def specials(self) -> list[tuple[Special, bool]]:
        """Each special action with whether it can still be used."""
        return [(special, self.sheet.can_use(special)) for special in Special]

    def uses(self, special: Special) -> int:
        """How often Neighbour, Single square or Cut has been used (Twice: 1 once it has been spent)."""
        if special == Special.TWICE:
            return int(self.sheet.twice_used)
        return self.sheet.uses[special]

    def round_scores(self) -> list[int]:
        return list(self.sheet.round_scores)

    def best_rectangle(self) -> Rectangle | None:
        return self.quilt.best_rectangle()

    def total(self) -> int:
        """The total so far: the round scores minus the empty cells (the final total once the game is over)."""
        return self.sheet.total()

    def can_place(self, shape: Polyomino) -> bool:
        return self.quilt.can_place(shape)

    def must_pass(self) -> bool:
        """True on a turn when no card on offer fits anywhere, whole or (with Cut left) cut."""
        if self.stage not in (Stage.TURN, Stage.FINAL):
            return False
        cut = self.sheet.can_use(Special.CUT)
        for option in self.options():
            if self.quilt.can_place(option.shape):
                return False
            if cut and any(self.quilt.can_place(piece) for piece in option.shape.cut_pieces()):
                return False
        return True

    # ----- moves -----
    def draw(self, card: str, cells: Iterable[Cell], cut: bool = False) -> None:
        """Draw `card` (or a piece of it, with `cut`) on `cells`; on a turn this also ends the turn."""
        stage = self.stage
        if stage in (Stage.SCORING, Stage.OVER):
            reason = "the game is over" if stage == Stage.OVER else "no patch is drawn during a scoring"
            raise IllegalAction(f"wrong phase: {reason} (a single square is allowed during a scoring)")
        self.game.apply(PLAYER, DrawPatch(card, frozenset(cells), cut))
        if stage != Stage.START:
            self.game.apply(PLAYER, EndTurn())
        self._changed()

    def single(self, cell: Cell) -> None:
        """Shade one empty cell with the Single square special."""
        if self.stage == Stage.START:
            raise IllegalAction(f"wrong phase: draw your start card {self.sheet.start_card} first")
        self.game.apply(PLAYER, SingleSquare(cell))
        self._changed()

    def end(self) -> None:
        """Pass the turn (nothing drawn), or confirm the intermediate scoring."""
        if self.stage == Stage.START:
            card = self.sheet.start_card
            raise IllegalAction(f"wrong phase: the start card {card} must be drawn, it cannot be passed")
        self.game.apply(PLAYER, EndTurn())
        self._changed()

    def save(self) -> None:
        """Run `on_change` now (the CLI saves there); a failure is kept in `save_problem`."""
        self._changed()

    def _changed(self) -> None:
        self.save_problem = None
        if self.on_change is not None:
            try:
                self.on_change(self.game)
            except SaveWriteError as error:  # the move stands; the screens show the problem
                self.save_problem = str(error)
