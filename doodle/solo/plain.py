"""The typed-command solo game (`doodle solo --plain`): one command per line, plain ASCII answers, for dumb
terminals, screen readers and scripts. Same rules as the full-screen game: every move goes through
`SoloSession` and the engine's `IllegalAction` reasons are shown as they are.

`PlainGame.handle(line)` takes one line and returns the text to show; it never prints, reads or exits.
"""

from __future__ import annotations

from doodle.game.draws import CardRole, Draw
from doodle.game.sheet import IllegalAction, Special
from doodle.geometry import Cell, Polyomino
from doodle.quilt import SIZE, already_covered, cell_name, parse_cell_name
from doodle.render import ascii_quilt, draw_side_by_side, plural
from doodle.solo.session import (
    CutChoice,
    Keys,
    SoloSession,
    Stage,
    cut_name,
    cut_sides,
    find_cut,
    specials_summary,
    stuck_advice,
)
from doodle.tui.ghost import Ghost, distinct_orientations, orientation_code, oriented, parse_orientation

MAX_HINTS = 8
KEYS = Keys(before="neighbour before", after="neighbour after", cut="cut", single="single CELL", pass_="pass",
            choose=lambda index, card: f"choose {index + 1}")

HELP = """Commands (cells are a column a-i and a row 1-9, e.g. c4):
  draw CELL [rN] [m]    draw the patch with the top-left corner of its outline at CELL, turned N quarter
                        turns clockwise (r0-r3) after mirroring it (m); drawing ends the turn
  draw CELL CELL ...    draw the patch on exactly these cells
  try CELL [rN] [m]     show where the patch would go, without drawing it (alias: preview)
  orient                show every orientation of the patch with its code (r1, r2 m, ...)
  fits                  list places where the patch fits
  pass                  draw nothing this turn
  single CELL           special: shade one empty cell (also allowed during a scoring)
  neighbour before|after|off   special: draw the card before or after the current card instead
  cut                   list the legal straight cuts of the patch
  cut LINE PIECE        special: cut along LINE (hN below row N, vN right of column N) and keep PIECE 1
                        (above/left) or 2 (below/right); then draw it.  'cut off' cancels
  choose N|CARD         on the final turn: pick one of the three cards (1-3 or its id)
  score                 during a scoring: score the best rectangle now (alias: end, pass)
  show                  show the table and your quilt again
  quilt                 show just your quilt
  brief on|off          brief answers without drawings (shapes in one line), e.g. for screen readers
  help                  this list
  quit                  save and stop (continue later with: doodle solo --resume)
On the quilt: # covered, . empty, * the best rectangle, o the patch where it fits, X where it does not."""


def ascii_shape(shape: Polyomino, title: str = "") -> str:
    rows = [" ".join(row) for row in shape.to_text("\n").split("\n")]
    return "\n".join([title, *rows] if title else rows)


class PlainGame:
    """A solo game driven by typed commands."""

    def __init__(self, session: SoloSession) -> None:
        self.session = session
        self.option_index = 0  # which of session.options() the player is drawing
        self.cut: CutChoice | None = None
        self.quit = False
        self.brief = False  # brief answers: no drawings, shapes in one line (for screen readers)
        self._seen = (session.round, session.turn, session.stage)

    @property
    def finished(self) -> bool:
        return self.session.stage == Stage.OVER

    # ----- what is drawn -----
    def option(self) -> Draw | None:
        options = self.session.options()
        if not options:
            return None
        return options[min(self.option_index, len(options) - 1)]

    def shape(self) -> Polyomino | None:
        """The patch the next `draw` draws: the chosen card, or the chosen piece of it."""
        if self.cut is not None:
            return self.cut.piece
        option = self.option()
        return option.shape if option else None

    # ----- text -----
    def intro(self) -> str:
        session = self.session
        return "\n".join([
            f"Patchwork Doodle solo, seed {session.seed}. Type help for the commands.",
            self.describe(),
        ])

    def describe(self) -> str:
        """The whole table: round and turn, the circle, the card, specials, scores, the quilt."""
        s = self.session
        stage = s.stage
        lines = []
        if stage == Stage.OVER:
            return self._scores_line()
        if stage == Stage.START:
            lines.append(f"Start: draw your start card {s.sheet.start_card} anywhere, whole (it cannot be passed).")
        elif stage == Stage.TURN:
            lines.append(f"Round {s.round}, turn {s.turn}: rolled {s.roll}.")
        elif stage == Stage.FINAL:
            lines.append(f"Round {s.round}, turn {s.turn}: the final turn. Choose one of the three cards left.")
        else:
            rect = s.best_rectangle()
            found = (f"your best rectangle is {rect.width} wide x {rect.height} high at "
                     f"{cell_name(rect.row, rect.col)} and scores {rect.score}" if rect else "your quilt is empty: 0")
            lines.append(f"Scoring of round {s.round}: {found}.")
            lines.append("You may use single square first (single CELL); type score to score it.")
        lines.append(self._circle_line())
        lines.extend(self._card_lines())
        lines.append(self._specials_line())
        lines.append(self._scores_line())
        if not self.brief:
            lines.append(self._quilt_text())
        return "\n".join(line for line in lines if line)

    def _quilt_text(self) -> str:
        highlight = self._best_cells() if self.session.stage == Stage.SCORING else ()
        return ascii_quilt(self.session.quilt, highlight=highlight)

    def _best_cells(self) -> frozenset[Cell]:
        rect = self.session.best_rectangle()
        return rect.cells if rect else frozenset()

    def _circle_line(self) -> str:
        s = self.session
        if s.stage == Stage.START:
            return f"Circle, clockwise from the token: {' '.join(s.circle())}."
        if s.stage == Stage.TURN:
            index = s.current_index()
            cards = [f"[{card}]" if i == index else card for i, card in enumerate(s.circle())]
            return f"Circle, clockwise; the token is on the current card in brackets: {' '.join(cards)}."
        return ""

    def _card_lines(self) -> list[str]:
        s = self.session
        options = s.options()
        if not options:
            return []
        option = self.option()
        assert option is not None
        lines = []
        if s.stage == Stage.FINAL:
            lines.append("Choices: " + ", ".join(f"{i + 1} = {o.card} ({plural(o.shape.size, 'cell')})"
                                                 for i, o in enumerate(options)) + f"; you picked {option.card}.")
        elif s.stage == Stage.TURN:
            before, after = s.neighbours() or ("", "")
            lines.append(f"Neighbours: before {before}, after {after}"
                         + ("" if s.can_use(Special.NEIGHBOUR) else " (neighbour is used up)") + ".")
        what = f"{option.card}, the {option.role.value}"
        if option.neighbour:
            what += " (uses neighbour)"
        drawings = [ascii_shape(option.shape, f"{option.card} ({option.shape.size}):")]
        if self.cut is not None:
            what += f", {self.cut.describe()} (cut {self.cut.name}, uses cut)"
            drawings.append(ascii_shape(self.cut.piece, f"piece {self.cut.name}:"))
        if self.brief:
            shape = self.shape()
            assert shape is not None
            lines.append(f"You draw {what}: {shape.to_text()} ({plural(shape.size, 'cell')}, rows top to bottom).")
        else:
            lines.append(f"You draw {what}.")
            lines.append(draw_side_by_side(drawings))
        stuck = s.stuck()
        shape = self.shape()
        if stuck is not None:
            lines.append(stuck_advice(stuck, KEYS, [o.card for o in options]))
        elif shape is not None and not s.can_place(shape):
            what = f"piece {self.cut.name} of {option.card}" if self.cut else option.card
            lines.append(f"{what} fits nowhere on your quilt: pick another card or cut, or pass.")
        return lines

    def _specials_line(self) -> str:
        return "Specials " + specials_summary(self.session) + "."

    def _scores_line(self) -> str:
        s = self.session
        rounds = s.round_scores()
        shown = ", ".join(f"round {i + 1} {rounds[i] if i < len(rounds) else '-'}" for i in range(3))
        empty = s.quilt.empty_count()
        if s.stage == Stage.OVER:
            return f"Game over. Scores: {shown}; empty cells {empty} (-{empty}); total {s.total()}."
        return f"Scores: {shown}; empty cells {empty}; total so far {s.total()}."

    # ----- commands -----
    def handle(self, line: str) -> str:
        """Carry out one typed command and say what happened (never raises for bad input)."""
        words = line.strip().split()
        if not words or words[0].startswith("#"):
            return ""
        command, args = words[0].lower(), words[1:]
        handler = COMMANDS.get(command)
        if handler is None:
            return f"Unknown command {words[0]!r}. Type help for the list of commands."
        if self.finished and command not in ("help", "show", "look", "quit", "exit"):
            return "The game is over. Type quit to leave."
        try:
            return handler(self, args)
        except IllegalAction as error:
            return f"Not allowed: {error}."
        except ValueError as error:
            return f"Cannot read that: {error}. Type help for the commands."

    def _after_move(self, done: str) -> str:
        """Reset the per-turn choices after a move and describe the new situation."""
        s = self.session
        if s.save_problem:
            done += f"\nWarning: {s.save_problem}. The move counts; saving is tried again after the next move."
        now = (s.round, s.turn, s.stage)
        if now != self._seen:
            self.option_index = 0
            self.cut = None
            self._seen = now
        return done + "\n" + self.describe()

    def cmd_help(self, args: list[str]) -> str:
        return HELP

    def cmd_show(self, args: list[str]) -> str:
        return self.describe()

    def cmd_quilt(self, args: list[str]) -> str:
        return self._quilt_text()

    def cmd_brief(self, args: list[str]) -> str:
        word = args[0].lower() if args else "on"
        if word not in ("on", "off"):
            raise ValueError("say brief on or brief off")
        self.brief = word == "on"
        if self.brief:
            return ("Brief answers: no drawings; shapes in one line, rows top to bottom ('#' a cell, '.' a gap); "
                    "quilt shows the quilt.")
        return "Full answers with drawings."

    def cmd_quit(self, args: list[str]) -> str:
        self.quit = True
        return "" if self.finished else "Saved. Continue later with: doodle solo --resume"

    def _placement(self, args: list[str]) -> tuple[frozenset[Cell], str]:
        """The cells meant by `CELL [rN] [m]` or by a list of cells, and how to say it."""
        shape = self.shape()
        if shape is None:
            raise IllegalAction("wrong phase: there is no patch to draw now (during a scoring: single CELL or score)")
        if not args:
            raise ValueError("say where: draw CELL [rN] [m], e.g. draw c4 r1")
        cells = []
        for word in args:
            try:
                cells.append(parse_cell_name(word))
            except ValueError:
                break
        if len(cells) == len(args) and len(cells) > 1:
            return frozenset(cells), " ".join(cell_name(*c) for c in sorted(cells))
        row, col = parse_cell_name(args[0])
        turns, mirrored = parse_orientation(args[1:])
        oriented_shape = oriented(shape, turns, mirrored)
        placed = frozenset((row + r, col + c) for r, c in oriented_shape.cells)
        return placed, f"{args[0].lower()} {orientation_code(turns, mirrored)}"

    def cmd_draw(self, args: list[str]) -> str:
        cells, where = self._placement(args)
        option = self.option()
        assert option is not None
        off_grid = [cell for cell in cells if not (0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE)]
        if off_grid:
            raise IllegalAction(f"off the grid: at {where} the patch would reach past the edge of the quilt")
        self.session.draw(option.card, cells, cut=self.cut is not None)
        piece = f"a piece of {option.card}" if self.cut else option.card
        return self._after_move(f"You drew {piece} at {where}.")

    def cmd_try(self, args: list[str]) -> str:
        cells, where = self._placement(args)
        on_grid = frozenset(cell for cell in cells if 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE)
        quilt = self.session.quilt
        if len(on_grid) < len(cells):
            verdict = "does not fit: it reaches past the edge of the quilt"
        elif quilt.fits(cells):
            verdict = "fits"
        else:
            verdict = f"does not fit: {already_covered(cell for cell in cells if quilt.is_covered(*cell))}"
        drawing = ascii_quilt(quilt, ghost=on_grid, ghost_fits=quilt.fits(cells) and len(on_grid) == len(cells))
        return f"At {where} the patch {verdict}.\n{drawing}"

    def cmd_orient(self, args: list[str]) -> str:
        shape = self.shape()
        if shape is None:
            return "There is no patch to draw now."
        drawings = [ascii_shape(oriented(shape, t, m), orientation_code(t, m)) for t, m in distinct_orientations(shape)]
        return "Orientations (the code goes after the cell: draw c4 r1 m):\n" + draw_side_by_side(drawings, gap=3)

    def cmd_fits(self, args: list[str]) -> str:
        shape = self.shape()
        if shape is None:
            return "There is no patch to draw now."
        fitting = Ghost.centred(shape).fitting_positions(self.session.quilt)
        if not fitting:
            return "The patch fits nowhere on your quilt: pass (or use a special action)."
        shown = ", ".join(f"{cell_name(g.row, g.col)} {g.code}" for g in fitting[:MAX_HINTS])
        more = f" and {len(fitting) - MAX_HINTS} more" if len(fitting) > MAX_HINTS else ""
        return f"The patch fits in {len(fitting)} places, e.g. {shown}{more}."

    def cmd_pass(self, args: list[str]) -> str:
        stage = self.session.stage
        self.session.end()
        return self._after_move("Scored." if stage == Stage.SCORING else "You passed.")

    def cmd_score(self, args: list[str]) -> str:
        if self.session.stage != Stage.SCORING:
            raise IllegalAction("wrong phase: there is no scoring now (it comes after turn 6 of each round)")
        return self.cmd_pass(args)

    def cmd_single(self, args: list[str]) -> str:
        if len(args) != 1:
            raise ValueError("say which cell: single CELL, e.g. single e5")
        cell = parse_cell_name(args[0])
        self.session.single(cell)
        return self._after_move(f"You shaded {cell_name(*cell)} with single square.")

    def cmd_neighbour(self, args: list[str]) -> str:
        s = self.session
        if s.stage != Stage.TURN:
            raise IllegalAction("wrong phase: neighbour is used on a turn with a rolled card")
        which = args[0].lower() if len(args) == 1 else ""
        roles = {"before": CardRole.BEFORE, "after": CardRole.AFTER, "off": CardRole.CURRENT}
        if which not in roles:
            raise ValueError("say which: neighbour before, neighbour after, or neighbour off")
        options = s.options()
        matches = [i for i, option in enumerate(options) if option.role == roles[which]]
        if not matches:
            raise IllegalAction("special already used: neighbour is crossed off (and so is twice)")
        self.option_index = matches[0]
        self.cut = None
        option = options[self.option_index]
        return f"You will draw {option.card}, the {option.role.value}.\n" + "\n".join(self._card_lines())

    def cmd_choose(self, args: list[str]) -> str:
        s = self.session
        if s.stage != Stage.FINAL:
            raise IllegalAction("wrong phase: choose is for the final turn, where three cards are left")
        options = s.options()
        if len(args) != 1:
            raise ValueError("say which card: choose 1, 2 or 3, or its id")
        word = args[0]
        ids = [option.card.lower() for option in options]
        if word in ("1", "2", "3")[: len(options)]:
            self.option_index = int(word) - 1
        elif word.lower() in ids:
            self.option_index = ids.index(word.lower())
        else:
            cards = ", ".join(option.card for option in options)
            raise ValueError(f"{word!r} is not one of the choices: 1-{len(options)} or {cards}")
        self.cut = None
        return f"You will draw {options[self.option_index].card}.\n" + "\n".join(self._card_lines())

    def cmd_cut(self, args: list[str]) -> str:
        option = self.option()
        if option is None or self.session.stage == Stage.START:
            raise IllegalAction("wrong phase: cut is used on a turn, on the card you draw")
        if not args:
            return self._list_cuts(option)
        if args[0].lower() in ("off", "cancel", "none"):
            self.cut = None
            return f"No cut: you draw {option.card} whole."
        if not self.session.can_use(Special.CUT):
            raise IllegalAction("special already used: cut is crossed off (and so is twice)")
        if len(args) != 2 or args[1] not in ("1", "2"):
            raise ValueError("say the line and the piece: cut LINE PIECE, e.g. cut h1 2 (type cut to list them)")
        cut = find_cut(option.shape, args[0])
        self.cut = CutChoice(option.shape, cut, int(args[1]) - 1)
        return f"You will draw {self.cut.describe()} of {option.card}.\n" + "\n".join(self._card_lines())

    def _list_cuts(self, option: Draw) -> str:
        cuts = option.shape.cuts()
        if not cuts:
            return f"{option.card} has no legal straight cut."
        drawings = []
        for cut in cuts:
            first, second = cut_sides(cut)
            rows = []
            for r in range(option.shape.height):
                row = " ".join("1" if (r, c) in first else "2" if (r, c) in second else "." for c in range(
                    option.shape.width))
                rows.append(row)
            drawings.append("\n".join([cut_name(cut), *rows]))
        return (f"Legal cuts of {option.card} (hN: below row N, vN: right of column N; 1 and 2 are the pieces):\n"
                + draw_side_by_side(drawings, gap=3) + "\nChoose one with: cut LINE PIECE, e.g. cut "
                + f"{cut_name(cuts[0])} 1")


COMMANDS = {
    "help": PlainGame.cmd_help, "?": PlainGame.cmd_help,
    "show": PlainGame.cmd_show, "look": PlainGame.cmd_show,
    "quit": PlainGame.cmd_quit, "exit": PlainGame.cmd_quit,
    "quilt": PlainGame.cmd_quilt, "brief": PlainGame.cmd_brief,
    "draw": PlainGame.cmd_draw, "d": PlainGame.cmd_draw,
    "try": PlainGame.cmd_try, "preview": PlainGame.cmd_try,
    "orient": PlainGame.cmd_orient, "orientations": PlainGame.cmd_orient,
    "fits": PlainGame.cmd_fits, "hint": PlainGame.cmd_fits,
    "pass": PlainGame.cmd_pass, "end": PlainGame.cmd_pass,
    "score": PlainGame.cmd_score,
    "single": PlainGame.cmd_single,
    "neighbour": PlainGame.cmd_neighbour, "neighbor": PlainGame.cmd_neighbour,
    "choose": PlainGame.cmd_choose,
    "cut": PlainGame.cmd_cut,
}
