"""The full-screen Patchwork game (Textual): the time track, both quilts, the next three patches, and placing a
patch as a ghost on your quilt (green where it fits, red where not), as in the solo game.

Built on doodle.tui (the `Ghost` placement model and the `QuiltView` widget). Every move goes through
`Game.play`, so the rules and the reasons for refusing a move are the engine's. Bots think in a worker thread
so the screen stays live.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from doodle.geometry import Polyomino
from doodle.patchwork.display import choices_block, player_lines, status_line, track_lines
from doodle.patchwork.errors import IllegalMoveError
from doodle.patchwork.game import CHOICES, Game
from doodle.patchwork.moves import ADVANCE, Move, leather_move, patch_move
from doodle.patchwork.patches import PATCHES
from doodle.quilt import cell_list, cell_name
from doodle.tui.ghost import Ghost
from doodle.tui.keys import GHOST_BINDINGS, GHOST_KEYS_HELP
from doodle.tui.quilt_view import QuiltView
from doodle.tui.screens import TextScreen

SINGLE = Polyomino.from_text("#")

HELP = f"""\
[b]Keys[/b]

  1 2 3       pick one of the next three patches (shown as a ghost on your quilt)
{GHOST_KEYS_HELP}
  enter       place the patch (green: it fits; red: it does not)
  a           advance: move just past the other token, 1 button per space
  esc         put the patch back        u         undo your last move
  ?  f1       this help                 q         quit (asks first)

A leather patch (1x1) you pass on the track must be placed at once: move it and press enter.
Tokens on the track: 1 and 2; $ an income mark, L a leather patch still there.

[dim]Press any key to close.[/dim]"""


class ConfirmQuit(ModalScreen[bool]):
    """Asks before leaving a game: y leaves (True), any other key goes back to the game (False)."""

    DEFAULT_CSS = """
    ConfirmQuit { align: center middle; }
    ConfirmQuit > Static { width: auto; max-width: 80; height: auto; border: round $warning; padding: 1 2;
                           background: $surface; }
    """

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(event.key in ("y", "Y"))


class PatchworkApp(App[None]):
    """A game of Patchwork between people (seats None) and bots (objects with `choose(game)`).

    `on_change(game)` is called after every move played or taken back; `record_name` names the file it keeps
    the game in (None: the game is not kept), for the question asked before quitting."""

    TITLE = "Patchwork"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #track { height: auto; padding: 0 1; }
    #quilts { height: auto; }
    .side { width: auto; height: auto; padding: 0 1; }
    .info { height: 3; width: 40; }
    QuiltView { border: round $primary-darken-2; }
    QuiltView.to-move { border: round $success; }
    #choices { height: auto; padding: 0 1; }
    #message { height: auto; min-height: 1; padding: 0 1; background: $boost; }
    """

    BINDINGS = [
        *GHOST_BINDINGS,
        Binding("1", "pick(0)", "patch 1", show=False),
        Binding("2", "pick(1)", "patch 2", show=False),
        Binding("3", "pick(2)", "patch 3", show=False),
        Binding("enter", "place", "place"),
        Binding("a", "advance", "advance"),
        Binding("escape", "cancel", "put back", show=False),
        Binding("u", "undo", "undo"),
        Binding("question_mark", "help", "help"),
        Binding("f1", "help", "help", show=False),
        Binding("q", "ask_quit", "quit"),
    ]

    def __init__(
        self,
        game: Game,
        players: Sequence[object | None],
        names: Sequence[str],
        on_change: Callable[[Game], object] | None = None,
        record_name: str | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.players = list(players)
        self.names = list(names)
        self.on_change = on_change or (lambda game: None)
        self.record_name = record_name
        self.slot: int | None = None  # which of the next three patches is picked
        self.ghost: Ghost | None = None
        self.thinking = False
        self.message = ""
        self.last_move: tuple[int, Move] | None = None  # (player, move): highlighted on that player's quilt

    # ----- layout -----
    def compose(self) -> ComposeResult:
        yield Static(id="track")
        with Horizontal(id="quilts"):
            for player in (0, 1):
                with Vertical(classes="side"):
                    yield Static(id=f"info{player}", classes="info")
                    yield QuiltView(self.game.quilts[player], id=f"quilt{player}")
        yield Static(id="choices")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.message = "Pick a patch with 1, 2 or 3, or press a to advance. ? lists every key."
        self._after_change()

    # ----- whose turn -----
    def person_to_move(self) -> int | None:
        """The player to move when that is a person and no bot is thinking, else None."""
        player = self.game.current_player
        if player is None or self.thinking or self.players[player] is not None:
            return None
        return player

    def _after_change(self) -> None:
        """After a move: set up the ghost for a leather patch, start a bot, redraw."""
        game = self.game
        if game.is_over():
            self.slot, self.ghost = None, None
            self.message = status_line(game, self.names)
        elif game.pending_leather and self.person_to_move() is not None:
            self.slot = None
            self.ghost = Ghost.centred(SINGLE)
            self.message = "You passed a leather patch: place it (1x1) with the arrows and enter."
        elif self.players[game.current_player] is not None and not self.thinking:  # type: ignore[index]
            self.slot, self.ghost = None, None
            self.thinking = True
            self._bot_turn()
        self.refresh_all()

    @work(thread=True, exclusive=True)
    def _bot_turn(self) -> None:
        player = self.game.current_player
        bot = self.players[player]  # type: ignore[index]
        self.call_from_thread(self._set_message, f"{self.names[player]} is thinking…")  # type: ignore[index]
        move = bot.choose(self.game)  # type: ignore[attr-defined]
        self.call_from_thread(self._bot_moved, player, move)

    def _set_message(self, text: str) -> None:
        self.message = text
        self.refresh_all()

    def _bot_moved(self, player: int, move: Move) -> None:
        self.thinking = False
        self.game.play(move, player=player)
        self.on_change(self.game)
        self.last_move = (player, move)
        self.message = f"{self.names[player]} played {_describe(move)}."
        self._after_change()

    # ----- drawing -----
    def refresh_all(self) -> None:
        game = self.game
        mover = game.current_player
        self.query_one("#track", Static).update("\n".join(track_lines(game)))
        for player in (0, 1):
            self.query_one(f"#info{player}", Static).update("\n".join(player_lines(game, player, self.names)))
            view = self.query_one(f"#quilt{player}", QuiltView)
            view.set_class(player == mover, "to-move")
            quilt = game.quilts[player]
            last = self.last_move[1].cells if self.last_move and self.last_move[0] == player else frozenset()
            if player == mover and self.ghost is not None:
                view.show(board=quilt, ghost=self.ghost.cells, ghost_fits=self.ghost.fits(quilt), highlight=last)
            else:
                view.show(board=quilt, ghost=(), highlight=last)
        self.query_one("#choices", Static).update(self._choices_text())
        self.query_one("#message", Static).update(self.message)

    def _choices_text(self) -> str:
        text = choices_block(self.game, self.slot)
        if self.slot is not None and self.ghost is not None:
            number = self.game.circle[self.slot]
            fits = self.ghost.fits(self.game.quilts[self.game.current_player or 0])
            where = "fits" if fits else "does not fit"
            corner = cell_name(self.ghost.row, self.ghost.col)
            text += f"\n\nplacing patch {number} ({self.ghost.code}) at {corner}: {where}"
        return text

    # ----- actions -----
    def _refuse(self, text: str) -> None:
        self.message = text
        self.refresh_all()

    def action_pick(self, slot: int) -> None:
        if self.person_to_move() is None or self.game.pending_leather:
            return self._refuse(self._why_not_now())
        if slot >= len(self.game.circle[:CHOICES]):
            return self._refuse("There is no such patch left in the circle.")
        number = self.game.circle[slot]
        shape = PATCHES[number].shape
        self.ghost = Ghost.centred(shape) if self.ghost is None else self.ghost.with_base(shape).oriented_as(0, False)
        self.slot = slot
        patch = PATCHES[number]
        buttons = self.game.buttons[self.person_to_move()]  # type: ignore[index]
        dear = f" You have {buttons} buttons: too few." if patch.cost > buttons else ""
        self.message = f"Patch {number}: cost {patch.cost}, time {patch.time}, buttons {patch.buttons}.{dear}"
        self.refresh_all()

    def action_move(self, drow: int, dcol: int) -> None:
        if self.ghost is not None and self.person_to_move() is not None:
            self.ghost = self.ghost.moved(drow, dcol)
            self.refresh_all()

    def action_rotate(self, clockwise: bool) -> None:
        if self.ghost is not None and self.person_to_move() is not None:
            self.ghost = self.ghost.rotated(clockwise)
            self.refresh_all()

    def action_mirror(self) -> None:
        if self.ghost is not None and self.person_to_move() is not None:
            self.ghost = self.ghost.flipped()
            self.refresh_all()

    def action_jump(self, forward: bool) -> None:
        player = self.person_to_move()
        if self.ghost is None or player is None:
            return
        found = self.ghost.next_fit(self.game.quilts[player], forward)
        if found is None:
            return self._refuse("This patch fits nowhere on your quilt.")
        self.ghost = found
        self.refresh_all()

    def on_quilt_view_cell_clicked(self, message: QuiltView.CellClicked) -> None:
        player = self.person_to_move()
        if self.ghost is not None and player is not None and message.view.id == f"quilt{player}":
            self.ghost = self.ghost.centred_on(message.row, message.col)
            self.refresh_all()

    def action_cancel(self) -> None:
        if self.slot is not None:
            self.slot, self.ghost = None, None
            self.message = "Patch put back. Pick one with 1, 2 or 3, or press a to advance."
            self.refresh_all()

    def action_place(self) -> None:
        player = self.person_to_move()
        if player is None or self.ghost is None:
            return self._refuse(self._why_not_now() if player is None else "Pick a patch first: 1, 2 or 3.")
        if self.game.pending_leather:
            row, col = next(iter(self.ghost.cells))
            self._play(leather_move(row, col), player)
            return
        move = patch_move(self.game.circle[self.slot], self.ghost.cells)  # type: ignore[index]
        self._play(move, player)  # type: ignore[arg-type]

    def action_advance(self) -> None:
        player = self.person_to_move()
        if player is None:
            return self._refuse(self._why_not_now())
        self._play(ADVANCE, player)

    def _play(self, move: Move, player: int) -> None:
        try:
            self.game.play(move, player=player)
        except IllegalMoveError as error:
            return self._refuse(f"Not played: {error}.")
        self.on_change(self.game)
        self.slot, self.ghost = None, None
        self.last_move = (player, move)
        self.message = f"{self.names[player]} played {_describe(move)}."
        self._after_change()

    def action_undo(self) -> None:
        if self.thinking or not any(p is None for p in self.players):
            return self._refuse("Nothing to undo now.")
        taken = 0
        while self.game.move_stack:
            self.game.undo()
            taken += 1
            if self.person_to_move() is not None:
                break
        if taken:
            self.on_change(self.game)
        self.slot, self.ghost, self.last_move = None, None, None
        self.message = f"Took back {taken} move(s)." if taken else "Nothing to undo."
        self._after_change()

    def action_help(self) -> None:
        self.push_screen(TextScreen(HELP))

    def action_ask_quit(self) -> None:
        """Leave at once when the game is over; else ask, saying whether the game is kept and where."""
        if self.game.is_over():
            self.exit()
            return
        if self.record_name is None:
            kept = "This game is not recorded: it will be lost (start with --record FILE to keep a game)."
        else:
            self.on_change(self.game)
            kept = f"The game is saved in {self.record_name}: go on later with --resume {self.record_name}."
        self.push_screen(ConfirmQuit(f"Quit the game?\n\n{kept}\n\ny: quit    any other key: go on playing"),
                         self._quit_if)  # fmt: skip

    def _quit_if(self, confirmed: bool | None) -> None:
        if confirmed:
            self.exit()

    def _why_not_now(self) -> str:
        if self.game.is_over():
            return status_line(self.game, self.names) + " Press q to leave."
        if self.thinking:
            return "Wait: the bot is thinking."
        if self.game.pending_leather:
            return "First place the leather patch: arrows, then enter."
        return "It is not your turn."


def _describe(move: Move) -> str:
    if move.kind == "advance":
        return "advance"
    cells = cell_list(move.cells)
    return f"a leather patch on {cells}" if move.kind == "leather" else f"patch {move.patch} on {cells}"
