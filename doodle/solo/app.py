"""The full-screen solo game (Textual): the quilt with the patch as a ghost, the circle, the cards, specials and
scores. Every move goes through `SoloSession`, so the rules (and the reasons for refusing a move) are the
engine's. A key that makes no sense now only explains why; nothing a player presses breaks the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rich.markup import escape
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static

from doodle.game.draws import CardRole, Draw
from doodle.game.sheet import IllegalAction, Special
from doodle.geometry import Cell, Polyomino
from doodle.quilt import Rectangle, already_covered, cell_name
from doodle.render import draw_polyomino, draw_side_by_side, plural
from doodle.solo.session import (
    CutChoice,
    Keys,
    SoloSession,
    Stage,
    cut_line_words,
    specials_summary,
    stuck_advice,
)
from doodle.tui.ghost import Ghost
from doodle.tui.keys import GHOST_BINDINGS, GHOST_KEYS_HELP
from doodle.tui.quilt_view import QuiltView
from doodle.tui.screens import TextScreen

SINGLE = Polyomino.from_text("#")
KEYS = Keys(before="n", after="n twice", cut="c", single="s", pass_="p", choose=lambda index, card: str(index + 1))
CUT_AWAY_STYLE = "#5f5f5f on #262626"
FOOTER_WORDS = {"tab": "fits", "m": "flip"}  # short, so that every key shown fits on an 80-column line
# What the quilt leaves to the rest of the screen: rows for the footer, the message (two lines when it wraps), the
# placing panel and the borders and padding; the share of the width the quilt may take (the table, the cards and
# the scores need the rest).
ROWS_BESIDE_QUILT = 10
COLUMNS_BESIDE_QUILT = 6
QUILT_WIDTH_SHARE = 0.55

HELP = f"""\
[b]Keys[/b]

{GHOST_KEYS_HELP}
  enter       draw the patch (this ends the turn); in a scoring: score
  p           pass (press twice; once when nothing fits)
  n           neighbour: the card before, then after, then the current again
  1 2 3       on the final turn: pick one of the three cards (n cycles too)
  s           single square: a one-cell patch; enter shades it (also in a scoring)
  c           cut: pick the line (c or ←→) and the piece (↑↓), enter keeps it
  x           undo the cut choice: the whole card again
  esc         cancel single square or cut
  ?  f1       this help                 q  ctrl+c  save and quit

The game is saved after every move: continue it with  doodle solo --resume.
On the quilt the patch is green where it fits and red where it does not;
during a scoring the best rectangle is yellow.

[dim]Press any key to close.[/dim]"""


class HelpScreen(TextScreen):
    """Every key of the game; any key closes it."""

    def __init__(self) -> None:
        super().__init__(HELP)


class GameOverScreen(TextScreen):
    """The final total; any key ends the app (the command line then shows par and the high scores)."""

    def __init__(self, text: str, on_close: Callable[[], object]) -> None:
        super().__init__(text, on_close)


class SoloApp(App[None]):
    """The solo game on one screen."""

    TITLE = "Patchwork Doodle: solo"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #main { height: 1fr; }
    #left { width: auto; min-width: 30; padding: 1 1 0 1; }
    #right { width: 1fr; padding: 1 1 0 1; }
    #quilt { border: round $primary; }
    #placing { width: 30; height: auto; margin-top: 1; }
    #message { height: auto; min-height: 1; padding: 0 1; background: $boost; }
    #table, #cards, #specials, #scores { height: auto; margin-bottom: 1; }
    """

    BINDINGS = [
        *(replace(binding, description=FOOTER_WORDS.get(binding.key, binding.description))
          for binding in GHOST_BINDINGS),
        Binding("enter", "place", "draw"),
        Binding("p", "pass_turn", "pass"),
        Binding("n", "neighbour", "neighbour"),
        Binding("s", "single", "single"),
        Binding("c", "cut", "cut"),
        Binding("x", "uncut", "whole card", show=False),
        Binding("1", "choose(0)", "choose", show=False),
        Binding("2", "choose(1)", "choose", show=False),
        Binding("3", "choose(2)", "choose", show=False),
        Binding("escape", "cancel", "cancel", show=False),
        Binding("question_mark", "help", "help"),
        Binding("f1", "help", "help", show=False),
        Binding("q", "save_quit", "quit"),
        Binding("ctrl+c", "save_quit", "save & quit", show=False, priority=True),
    ]

    def __init__(self, session: SoloSession) -> None:
        super().__init__()
        self.session = session
        self.option_index = 0
        self.cut: CutChoice | None = None
        self.cut_picking: CutChoice | None = None  # the cut being chosen (c mode), not yet taken
        self.single_mode = False
        self.pass_armed = False
        self.message = ""
        self._seen = (session.round, session.turn, session.stage)
        self.ghost = Ghost.centred(self._base_shape() or SINGLE)
        self._reset_ghost()

    # ----- layout -----
    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield QuiltView(self.session.quilt, id="quilt")
                yield Static(id="placing")
            with VerticalScroll(id="right"):
                yield Static(id="table")
                yield Static(id="cards")
                yield Static(id="specials")
                yield Static(id="scores")
        yield Static(id="message")
        yield Footer(compact=True)

    def on_resize(self, event: events.Resize) -> None:
        self._fit_quilt()

    def _fit_quilt(self) -> None:
        """Draw the quilt as large as the terminal allows (1x on 80x24, 3x on 120x40)."""
        width, height = self.size
        view = self.query_one("#quilt", QuiltView)
        view.set_scale(view.largest_scale(int(width * QUILT_WIDTH_SHARE) - COLUMNS_BESIDE_QUILT,
                                          height - ROWS_BESIDE_QUILT))

    def on_mount(self) -> None:
        self._fit_quilt()
        s = self.session
        if s.stage == Stage.START:
            self.message = "Draw your start card: arrows move it, r rotates, m mirrors, enter draws. ? lists every key."
        elif s.stage == Stage.SCORING:
            self.message = f"Welcome back to the scoring of round {s.round}: enter scores it, s for a single square."
        else:
            self.message = f"Welcome back: round {s.round}, turn {s.turn}. ? lists every key."
            if advice := self._stuck_advice():
                self.message += " " + advice
        self.refresh_all()

    # ----- what is being placed -----
    def option(self) -> Draw | None:
        options = self.session.options()
        return options[min(self.option_index, len(options) - 1)] if options else None

    def _base_shape(self) -> Polyomino | None:
        if self.single_mode:
            return SINGLE
        if self.cut is not None:
            return self.cut.piece
        option = self.option()
        return option.shape if option else None

    def _reset_ghost(self) -> None:
        """A new shape to place: keep the ghost's place on the quilt, start from the printed orientation."""
        shape = self._base_shape()
        if shape is not None:
            ghost = self.ghost.with_base(shape).oriented_as(0, False)
            self.ghost = ghost.nearest_fit(self.session.quilt) or ghost

    # ----- drawing the screen -----
    def refresh_all(self) -> None:
        s = self.session
        stage = s.stage
        quilt_view = self.query_one("#quilt", QuiltView)
        placing = stage != Stage.OVER and (stage != Stage.SCORING or self.single_mode)
        highlight: frozenset[Cell] = frozenset()
        fits = self.ghost.fits(s.quilt)
        if stage == Stage.SCORING:
            rect = self._scoring_rectangle()
            highlight = rect.cells if rect else frozenset()
        overrides = {}
        if self.cut_picking is not None:
            ghost_cells, overrides = self._cut_preview()
            fits = s.quilt.fits(ghost_cells)
        else:
            ghost_cells = self.ghost.cells if placing else frozenset()
        quilt_view.show(board=s.quilt, ghost=ghost_cells, ghost_fits=fits, highlight=highlight, overrides=overrides)
        self.query_one("#placing", Static).update(self._placing_text(fits))
        self.query_one("#table", Static).update(self._table_text())
        self.query_one("#cards", Static).update(self._cards_text())
        self.query_one("#specials", Static).update(Text("Specials " + specials_summary(s)))
        self.query_one("#scores", Static).update(self._scores_text())
        self.query_one("#message", Static).update(Text.from_markup(self.message) if self.message else "")

    def _scoring_rectangle(self) -> Rectangle | None:
        """The best rectangle now, or with the single square being placed (when it fits)."""
        quilt = self.session.quilt
        if self.single_mode and self.ghost.fits(quilt):
            return quilt.place(self.ghost.cells).best_rectangle()
        return quilt.best_rectangle()

    def _cut_preview(self) -> tuple[frozenset[Cell], dict[Cell, tuple[str, str]]]:
        """The kept piece as the ghost; the piece cut away drawn dim."""
        choice = self.cut_picking
        assert choice is not None
        row, col = self.ghost.row, self.ghost.col
        kept = frozenset((row + r, col + c) for r, c in choice.cells)
        away = frozenset((row + r, col + c) for r, c in choice.shape.cells) - kept
        return kept, {cell: ("░░", CUT_AWAY_STYLE) for cell in away}

    def _placing_text(self, fits: bool) -> Text:
        s = self.session
        stage = s.stage
        text = Text()
        if stage == Stage.OVER:
            return Text("The game is over.")
        if self.cut_picking is not None:
            choice = self.cut_picking
            cuts = choice.shape.cuts()
            text.append(f"Cut line {cuts.index(choice.cut) + 1} of {len(cuts)}: {cut_line_words(choice.cut)}\n",
                        "bold")
            text.append(f"Keep piece {choice.side + 1} of 2 ({plural(choice.piece.size, 'cell')}, green)\n")
            text.append("c/←→ next line · ↑↓ other piece · enter keep · esc cancel")
            return text
        if stage == Stage.SCORING and not self.single_mode:
            return Text("Enter: score the highlighted rectangle\ns: single square first")
        if self.single_mode:
            text.append("Single square", "bold")
        else:
            option = self.option()
            assert option is not None
            text.append(f"{option.card}", "bold")
            text.append(f" {option.role.value}")
            if self.cut is not None:
                text.append(f", cut piece ({plural(self.cut.piece.size, 'cell')})")
        text.append(f"\n{self.ghost.code} at {cell_name(self.ghost.row, self.ghost.col)}  ")
        if fits:
            text.append("fits ✓", "bold green")
        elif not s.can_place(self.ghost.shape):  # said now, not when enter is pressed
            text.append("fits nowhere on the quilt", "bold red")
        else:
            text.append(already_covered(self.ghost.clashes(s.quilt)), "bold red")
        return text

    def _table_text(self) -> Text:
        s = self.session
        stage = s.stage
        text = Text()
        if stage == Stage.START:
            text.append(f"Start: draw your start card {s.sheet.start_card}\n", "bold")
            text.append("Circle (clockwise from the token): " + " ".join(s.circle()))
            return text
        if stage == Stage.OVER:
            text.append("Game over", "bold")
            return text
        text.append(f"Round {s.round} of 3 · turn {s.turn} of 6", "bold")
        if stage == Stage.TURN:
            text.append(f" · rolled {s.roll}")
        elif stage == Stage.FINAL:
            text.append(" · final turn: pick a card (1 2 3 or n)")
        else:
            text.append(" · scoring")
        index = s.current_index()
        if index is not None:
            text.append("\nCircle (the token is on the card in brackets): ")
        elif stage == Stage.FINAL:
            text.append("\nCards left: ")
        else:
            text.append("\nCircle, clockwise from the token: ")
        for i, card in enumerate(s.circle()):
            if i == index:
                text.append(f"[{card}]", "bold reverse")
            else:
                text.append(card)
            text.append(" ")
        upcoming = s.next_cards()
        if upcoming:
            text.append("\nNext turn: " + ", ".join(f"{face} → {card}" for face, card in upcoming), "dim")
        return text

    def _cards_text(self) -> Text:
        """The cards on offer, drawn; the one being drawn is marked ▶."""
        s = self.session
        options = s.options()
        if not options:
            return Text()
        chosen = self.option()
        if s.stage == Stage.TURN:
            before, after = s.neighbours() or ("", "")
            shown = [(f"before {before}", before, CardRole.BEFORE), (f"now {options[0].card}", options[0].card,
                                                                       CardRole.CURRENT),
                     (f"after {after}", after, CardRole.AFTER)]
        else:
            shown = [(f"{i + 1}: {o.card}" if s.stage == Stage.FINAL else o.card, o.card, o.role)
                     for i, o in enumerate(options)]
        blocks = []
        for title, card, role in shown:
            mark = "▶ " if chosen is not None and (chosen.card, chosen.role) == (card, role) else "  "
            blocks.append(f"{mark}{title}\n{draw_polyomino(s.game.deck.card(card).shape)}")
        return Text(draw_side_by_side(blocks, gap=3))

    def _scores_text(self) -> Text:
        s = self.session
        rounds = s.round_scores()
        shown = " · ".join(str(rounds[i]) if i < len(rounds) else "–" for i in range(3))
        rect = s.best_rectangle()
        best = f"{rect.width}×{rect.height} = {rect.score}" if rect else "none"
        empty = s.quilt.empty_count()
        return Text(f"Round scores {shown}\nBest rectangle now {best} · empty {empty} · total so far {s.total()}")

    def say(self, message: str) -> None:
        self.message = message
        self.refresh_all()

    # ----- after a move -----
    def _after_move(self, done: str) -> None:
        s = self.session
        now = (s.round, s.turn, s.stage)
        if now != self._seen:
            self._seen = now
            self.option_index = 0
            self.cut = None
        self.cut_picking = None
        self.single_mode = False
        self.pass_armed = False
        self._reset_ghost()
        if s.save_problem:
            done += f" [b red]Warning: {s.save_problem}[/]"
        if s.stage == Stage.SCORING:
            rect = s.best_rectangle()
            found = f"best rectangle {rect.width}×{rect.height} scores {rect.score}" if rect else "nothing to score"
            done += f" Scoring of round {s.round}: {found}. Enter scores it; s for a single square first."
        elif (advice := self._stuck_advice()):
            done += " " + advice
        self.say(done)
        if s.stage == Stage.OVER:
            rounds = " + ".join(str(x) for x in s.round_scores())
            empty = s.quilt.empty_count()
            self.push_screen(GameOverScreen(
                f"[b]Game over: {s.total()} points[/b]\n\nRounds {rounds}, empty cells {empty} (-{empty}).\n\n"
                "Press any key: par and the high scores follow.", self.exit))

    def _stuck_advice(self) -> str:
        """When the card on offer fits nowhere: say so, and what is left to do (with the keys)."""
        stuck = self.session.stuck()
        if stuck is None:
            return ""
        return stuck_advice(stuck, KEYS, [option.card for option in self.session.options()])

    def _refuse(self, error: Exception) -> None:
        self.pass_armed = False
        self.say(f"[b red]Not allowed:[/] {escape(str(error))}")

    def _playing(self) -> bool:
        """False (with a word why) when the game is over."""
        if self.session.stage == Stage.OVER:
            self.say("The game is over: press q.")
            return False
        return True

    # ----- actions -----
    def action_move(self, drow: int, dcol: int) -> None:
        if self.cut_picking is not None:
            if dcol:
                self._cycle_cut(dcol)
            else:
                self._toggle_piece()
            return
        self.ghost = self.ghost.moved(drow, dcol)
        self.pass_armed = False
        self.refresh_all()

    def action_rotate(self, clockwise: bool) -> None:
        if self.cut_picking is None:
            self.ghost = self.ghost.rotated(clockwise)
            self.refresh_all()

    def action_mirror(self) -> None:
        if self.cut_picking is None:
            self.ghost = self.ghost.flipped()
            self.refresh_all()

    def action_jump(self, forward: bool) -> None:
        if isinstance(self.screen, TextScreen):  # tab is bound with priority: not under a help page
            return
        if not self._playing() or self.cut_picking is not None:
            return
        ghost = self.ghost.next_fit(self.session.quilt, forward)
        if ghost is None:
            self.say("This patch fits nowhere on the quilt.")
            return
        self.ghost = ghost
        self.refresh_all()

    def on_quilt_view_cell_clicked(self, message: QuiltView.CellClicked) -> None:
        if self.cut_picking is None:
            self.ghost = self.ghost.centred_on(message.row, message.col)
            self.refresh_all()

    def action_place(self) -> None:
        if not self._playing():
            return
        s = self.session
        if self.cut_picking is not None:
            self._take_cut()
            return
        try:
            if self.single_mode:
                cell = next(iter(self.ghost.cells))
                s.single(cell)
                self._after_move(f"Shaded {cell_name(*cell)} with single square.")
            elif s.stage == Stage.SCORING:
                round_number = s.round
                s.end()
                self._after_move(f"Round {round_number} scored {s.round_scores()[-1]}.")
            else:
                option = self.option()
                assert option is not None
                s.draw(option.card, self.ghost.cells, cut=self.cut is not None)
                piece = f"a piece of {option.card}" if self.cut else option.card
                self._after_move(f"Drew {piece} at {cell_name(self.ghost.row, self.ghost.col)}.")
        except IllegalAction as error:
            self._refuse(error)

    def action_pass_turn(self) -> None:
        if not self._playing():
            return
        s = self.session
        if s.stage == Stage.SCORING:
            if self.single_mode:
                self.say("Enter shades the cell; esc cancels the single square.")
            else:
                self.action_place()  # passing a scoring is scoring it
            return
        if s.stage == Stage.START:
            self._refuse(IllegalAction(f"the start card {s.sheet.start_card} must be drawn, it cannot be passed"))
            return
        if not self.pass_armed and not s.must_pass():
            self.pass_armed = True
            self.say("Pass this turn without drawing? Press p again to pass.")
            return
        try:
            s.end()
        except IllegalAction as error:
            self._refuse(error)
            return
        self._after_move("Passed.")

    def action_neighbour(self) -> None:
        if not self._playing():
            return
        s = self.session
        if s.stage == Stage.FINAL:
            self.action_choose((self.option_index + 1) % len(s.options()))
            return
        if s.stage != Stage.TURN:
            self._refuse(IllegalAction("wrong phase: neighbour is used on a turn with a rolled card"))
            return
        options = s.options()
        if len(options) == 1:
            self._refuse(IllegalAction("special already used: neighbour is crossed off (and so is twice)"))
            return
        self.option_index = (self.option_index + 1) % len(options)
        self._changed_card()

    def action_choose(self, index: int) -> None:
        if not self._playing():
            return
        s = self.session
        if s.stage != Stage.FINAL:
            self.say("1, 2 and 3 pick a card on the final turn only.")
            return
        self.option_index = index
        self._changed_card()

    def _changed_card(self) -> None:
        self.cut = None
        self.cut_picking = None
        self.single_mode = False
        self._reset_ghost()
        option = self.option()
        assert option is not None
        note = " (uses neighbour)" if option.neighbour else ""
        self.say(f"Drawing {option.card}, the {option.role.value}{note}.")

    def action_single(self) -> None:
        if not self._playing():
            return
        s = self.session
        if self.single_mode:
            self.action_cancel()
            return
        if s.stage == Stage.START:
            self._refuse(IllegalAction(f"wrong phase: draw your start card {s.sheet.start_card} first"))
            return
        if not s.can_use(Special.SINGLE):
            self._refuse(IllegalAction("special already used: single square is crossed off (and so is twice)"))
            return
        self.cut_picking = None
        self.single_mode = True
        self.ghost = self.ghost.with_base(SINGLE)
        self.say("Single square: move it, enter shades the cell, esc cancels.")

    def action_cut(self) -> None:
        if not self._playing():
            return
        s = self.session
        if self.cut_picking is not None:
            self._cycle_cut(1)
            return
        if s.stage not in (Stage.TURN, Stage.FINAL) or self.single_mode:
            self._refuse(IllegalAction("wrong phase: cut is used on a turn, on the card you draw"))
            return
        if not s.can_use(Special.CUT):
            self._refuse(IllegalAction("special already used: cut is crossed off (and so is twice)"))
            return
        if self.cut is not None:
            self.say("The patch is already cut: x draws the whole card again.")
            return
        cuts = self.ghost.shape.cuts()
        if not cuts:
            self.say("This patch has no legal straight cut (every line leaves one piece, or more than two).")
            return
        self.cut_picking = CutChoice(self.ghost.shape, cuts[0], 0)
        self.say("Cut: c or ←→ picks the line, ↑↓ the piece, enter keeps the green piece, esc cancels.")

    def _cycle_cut(self, step: int) -> None:
        choice = self.cut_picking
        assert choice is not None
        cuts = choice.shape.cuts()
        index = (cuts.index(choice.cut) + step) % len(cuts)
        self.cut_picking = CutChoice(choice.shape, cuts[index], 0)
        self.refresh_all()

    def _toggle_piece(self) -> None:
        choice = self.cut_picking
        assert choice is not None
        self.cut_picking = CutChoice(choice.shape, choice.cut, 1 - choice.side)
        self.refresh_all()

    def _take_cut(self) -> None:
        choice = self.cut_picking
        assert choice is not None
        kept = frozenset((self.ghost.row + r, self.ghost.col + c) for r, c in choice.cells)
        self.cut = choice
        self.cut_picking = None
        self.ghost = Ghost.from_cells(kept, self.ghost.size)
        self.say(f"Drawing {choice.describe()} (uses cut). x: the whole card again.")

    def action_uncut(self) -> None:
        if self.cut is None and self.cut_picking is None:
            self.say("The patch is not cut.")
            return
        self.cut = None
        self.cut_picking = None
        self._reset_ghost()
        self.say("Drawing the whole card.")

    def action_cancel(self) -> None:
        if self.cut_picking is not None:
            self.cut_picking = None
            self.say("Cut cancelled.")
        elif self.single_mode:
            self.single_mode = False
            self._reset_ghost()
            self.say("Single square cancelled.")
        elif self.pass_armed:
            self.pass_armed = False
            self.say("Not passing.")

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_save_quit(self) -> None:
        """The game is saved after every move already; save once more (in case the last save failed) and go."""
        if self.session.stage != Stage.OVER:
            self.session.save()
        self.exit()

