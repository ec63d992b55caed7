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

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from doodle.game.dealer import DIE_FACES, ROUNDS, TURNS_PER_ROUND, Phase
from doodle.game.deck import Deck
from doodle.game.draws import PASS, CardRole, Draw, LegalDraw, offered_draws
from doodle.game.game import DoodleGame
from doodle.game.sheet import REPEATABLE, DrawPatch, EndTurn, IllegalAction, Sheet, SingleSquare, Special
from doodle.geometry import Cell, Cut, Polyomino
from doodle.quilt import Quilt, Rectangle
from doodle.render import plural
from doodle.solo.store import SaveWriteError

PLAYER = 0


class Stage(StrEnum):
    START = "start"  # draw the start card, whole, anywhere
    TURN = "turn"  # draw the current card (or a neighbour's, or a cut piece), pass, use specials
    FINAL = "final"  # the last turn: pick one of the three cards left
    SCORING = "scoring"  # an intermediate scoring: a single square may still be drawn, then confirm
    OVER = "over"


@dataclass(frozen=True)
class Stuck:
    """A turn on which the card on offer (on the final turn: each of the three) fits nowhere on the quilt, whole,
    and what is left to do: the neighbours' cards that fit whole, the cards with a cut piece that fits, whether a
    single square can be drawn; passing is always left."""

    cards: tuple[str, ...]  # the card(s) on offer that fit nowhere whole
    neighbours: tuple[Draw, ...]  # a neighbour's card that fits whole (spends Neighbour)
    cut: tuple[Draw, ...]  # per card, a cut piece that fits (spends Cut, and Neighbour for a neighbour's card)
    single: bool  # a single square is left and there is an empty cell for it

    @property
    def nothing_fits(self) -> bool:
        """True when no draw at all is left this turn: pass (after a single square, if one is wanted)."""
        return not self.neighbours and not self.cut


@dataclass(frozen=True)
class Keys:
    """How a screen asks for each move, for `stuck_advice`: e.g. 'n' or 'neighbour before'."""

    before: str
    after: str
    cut: str
    single: str
    pass_: str
    choose: Callable[[int, str], str]  # (index 0-2, card) -> how to pick that final choice


def stuck_advice(stuck: Stuck, keys: Keys, choices: list[str]) -> str:
    """What to tell a player whose card fits nowhere: which card, and what is left to do (`keys` say how)."""

    def item(what: str, how: str) -> str:
        return what if how == what else f"{what} ({how})"

    if len(stuck.cards) == 1:
        head = f"{stuck.cards[0]} fits nowhere on your quilt"
    else:
        head = f"None of the cards {', '.join(stuck.cards)} fits anywhere on your quilt whole"
    if stuck.nothing_fits:
        single = f"{item('draw a single square', keys.single)} if you like, then " if stuck.single else ""
        return f"{head}, and nothing else on offer fits either, not even cut: {single}{item('pass', keys.pass_)}."
    items = []
    for draw in stuck.neighbours:
        side = keys.before if draw.role == CardRole.BEFORE else keys.after
        items.append(item(f"the neighbour {draw.card}", side))
    for draw in stuck.cut:
        if draw.neighbour:
            how = f"{keys.before if draw.role == CardRole.BEFORE else keys.after}, then {keys.cut}"
        elif draw.role == CardRole.CHOICE:
            how = f"{keys.choose(choices.index(draw.card), draw.card)}, then {keys.cut}"
        else:
            how = keys.cut
        items.append(item(f"a cut piece of {draw.card}", how))
    if stuck.single:
        items.append(item("a single square", keys.single))
    items.append(item("pass", keys.pass_))
    return f"{head}. Still possible: {', '.join(items[:-1])} or {items[-1]}."


def specials_summary(session: SoloSession) -> str:
    """e.g. "left: neighbour, cut, twice (twice lets you use single again); used: single". A special is left until
    it is crossed off; one used once stays usable again only through Twice, which the words say."""
    left = [special.value for special in Special if not session.uses(special)]
    used = [f"{special.value} twice" if session.uses(special) == 2 else special.value
            for special in Special if session.uses(special)]
    text = f"left: {', '.join(left) or 'none'}"
    again = [special.value for special in REPEATABLE if session.uses(special) == 1]
    if "twice" in left and again:
        text += f" (twice lets you use {' or '.join(again)} again)"
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


def cut_line_words(cut: Cut) -> str:
    """Where the line of `cut` runs, in words: 'below row 2' or 'right of column 1' (of the patch)."""
    return f"below row {cut.index}" if cut.axis == "row" else f"right of column {cut.index}"


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
        """How the typed command names it: 'h1 2'."""
        return f"{cut_name(self.cut)} {self.side + 1}"

    def describe(self) -> str:
        """In words: 'piece 2 (3 cells) of the cut below row 1'."""
        return f"piece {self.side + 1} ({plural(len(self.cells), 'cell')}) of the cut {cut_line_words(self.cut)}"


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

    def options(self) -> list[Draw]:
        """The cards the player may pick to draw now, whole, as the engine offers them (whether they fit or not):
        the start card; the current card and its neighbours (while Neighbour is left); the three final choices;
        nothing in a scoring. A picked card may then be cut (see `legal_draws` for what fits)."""
        if self.stage == Stage.START:
            return [draw for draw in self.legal_draws() if isinstance(draw, Draw)]
        if self.stage not in (Stage.TURN, Stage.FINAL):
            return []
        return [draw for draw in offered_draws(self.game.offer(), self.game.deck, self.sheet.spent) if not draw.cut]

    def legal_draws(self) -> list[LegalDraw]:
        """The engine's answer: every draw that fits somewhere now, whole or cut, and the pass."""
        return self.game.legal_draws(PLAYER)

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
        """True on a turn when nothing on offer fits anywhere, whole or (with the specials left) cut: passing is
        the only draw the engine allows."""
        return self.stage in (Stage.TURN, Stage.FINAL) and self.legal_draws() == [PASS]

    def stuck(self) -> Stuck | None:
        """On a turn where the card on offer fits nowhere whole (on the final turn: none of the three does), what
        is left to do; None when it fits, or when there is no turn to play."""
        if self.stage not in (Stage.TURN, Stage.FINAL):
            return None
        draws = [draw for draw in self.legal_draws() if isinstance(draw, Draw)]
        if any(not draw.cut and not draw.neighbour for draw in draws):
            return None
        offered = tuple(draw.card for draw in self.options() if not draw.neighbour)
        cut: dict[str, Draw] = {}
        for draw in draws:
            if draw.cut:
                cut.setdefault(draw.card, draw)
        single = self.can_use(Special.SINGLE) and self.quilt.empty_count() > 0
        return Stuck(offered, tuple(draw for draw in draws if not draw.cut), tuple(cut.values()), single)

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
