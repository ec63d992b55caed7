"""A game of Patchwork driven by typed commands, one per line: people and bots at one table.

UI-free: `handle(line)` returns the text to show, so the command line, scripts and tests drive it alike.
Placements are typed as in the solo game: the patch number, the cell of the top-left corner of the turned
patch, and the orientation code (`r0`..`r3` quarter turns clockwise, `m` mirrored first), e.g. `12 c4 r1 m`;
or the patch number and every cell it covers, e.g. `12 c4,c5,d5,e5`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from doodle.patchwork.bots import GreedyBot
from doodle.patchwork.display import player_label, position_text, status_line
from doodle.patchwork.errors import MoveSyntaxError, PatchworkError
from doodle.patchwork.evaluation import fitting
from doodle.patchwork.game import CHOICES, Game
from doodle.patchwork.moves import Move, leather_move, parse_move, patch_move, whole_number
from doodle.patchwork.patches import PATCHES
from doodle.quilt import parse_cell_name
from doodle.tui.ghost import oriented, parse_orientation

HELP = """Commands:
  advance (or a)          move just past the other token; take 1 button per space moved
  12 c4 r1 m              take patch 12 and put the top-left corner of its bounding box on c4, turned r1
                          (r0-r3: quarter turns clockwise; m: mirrored first)
  12 c4,c5,d5,e5          take patch 12 and cover exactly these cells
  leather e5 (or e5)      place a leather patch (1x1) when one is waiting
  fits 12                 where patch 12 fits on your quilt
  hint                    the greedy bot's suggestion
  undo                    take back your last move (and the bot's replies)
  show                    draw the position again
  help                    this list
  quit                    leave the game"""


class Quit(Exception):
    """The player typed quit."""


class PlainMatch:
    """A game between `players`: for each seat None (a person typing) or a bot with `choose(game)`.

    `on_change(game)` is called after every move played or taken back (a person's or a bot's, before the next
    bot starts thinking), so a caller can save the game as it goes."""

    def __init__(
        self,
        game: Game,
        players: Sequence[object | None],
        names: Sequence[str] | None = None,
        render: Callable[[Game], str] | None = None,
        on_change: Callable[[Game], object] | None = None,
    ) -> None:
        self.game = game
        self.players = list(players)
        self.names = list(names) if names else None
        self.render = render or (lambda g: position_text(g, self.names))
        self.on_change = on_change or (lambda g: None)

    @property
    def finished(self) -> bool:
        return self.game.is_over()

    def waiting_for_person(self) -> bool:
        player = self.game.current_player
        return player is not None and self.players[player] is None

    def start(self) -> str:
        """The opening text: the position, and the bots' moves if a bot starts."""
        return self._with_bot_moves([])

    def handle(self, line: str) -> str:
        """Do one typed command and return what to show, whatever the line holds; raises Quit on 'quit'."""
        line = line.strip()
        words = line.replace(",", " ").split()
        if not words:
            return "Type a move, or 'help' for the commands."
        command = words[0].lower()
        if command in ("quit", "exit", "q"):
            raise Quit
        if command in ("help", "?"):
            return HELP
        if command == "show":
            return self.render(self.game)
        if self.game.is_over():
            return f"{status_line(self.game, self.names)} Type 'quit' to leave."
        if command == "undo":
            return self._undo()
        if command == "hint":
            return f"The greedy bot would play: {GreedyBot().choose(self.game).text()}"
        if command == "fits":
            return self._fits(words[1:])
        if not self.waiting_for_person():
            return "It is a bot's turn."
        try:
            move = self.read_move(line)
            self.game.play(move)
        except PatchworkError as error:
            return f"Not played: {error}."
        self.on_change(self.game)
        return self._with_bot_moves([f"{player_label(self._last_mover(), self.names)} plays {move.text()}."])

    def read_move(self, line: str) -> Move:
        """The move a line describes; MoveSyntaxError says what is wrong with it."""
        words = line.replace(",", " ").split()
        if not words:
            return parse_move(line)  # says what to write
        game = self.game
        if game.pending_leather and len(words) == 1 and words[0].lower() not in ("advance", "a"):
            try:
                return leather_move(*parse_cell_name(words[0]))
            except ValueError as error:
                raise MoveSyntaxError(f"{error}; place the leather patch with a cell name, e.g. 'e5'") from None
        number = whole_number(words[0])
        if number is not None and len(words) >= 2 and all(_is_orientation(w) for w in words[2:]):
            if number >= len(PATCHES):
                raise MoveSyntaxError(f"there is no patch {number} (patches are 0 to {len(PATCHES) - 1})")
            try:
                row, col = parse_cell_name(words[1])
                turns, mirrored = parse_orientation(words[2:])
            except ValueError as error:
                raise MoveSyntaxError(str(error)) from None
            shape = oriented(PATCHES[number].shape, turns, mirrored)
            move = patch_move(number, frozenset((row + r, col + c) for r, c in shape.cells))
            if move is None:
                code = f"r{turns}" + (" m" if mirrored else "")
                raise MoveSyntaxError(
                    f"patch {number} turned {code} with its corner on {words[1]} runs off the quilt "
                    f"(it is {shape.height} high and {shape.width} wide)"
                )
            return move
        return parse_move(line)

    def _fits(self, args: list[str]) -> str:
        game = self.game
        player = game.current_player
        number = whole_number(args[0]) if len(args) == 1 else None
        if number is None:
            return "Write 'fits' and a patch number in the digits 0-9, e.g. 'fits 12'."
        if number not in game.circle[:CHOICES]:
            return f"Patch {number} is not one of the next three ({', '.join(map(str, game.circle[:CHOICES]))})."
        places = fitting(game, number)
        if not places:
            return f"Patch {number} fits nowhere on {player_label(player, self.names)}'s quilt."  # type: ignore[arg-type]
        shown = "; ".join(m.text() for m in places[:5])
        more = f" and {len(places) - 5} more" if len(places) > 5 else ""
        return f"Patch {number} fits in {len(places)} ways, e.g. {shown}{more}."

    def _undo(self) -> str:
        game = self.game
        if not any(p is None for p in self.players):
            return "Nothing to undo: no person plays in this game."
        taken = 0
        while game.move_stack:
            game.undo()
            taken += 1
            if self.waiting_for_person():
                break
        if not taken:
            return "Nothing to undo."
        self.on_change(game)
        if not self.waiting_for_person():
            return self._with_bot_moves([f"Took back {taken} move(s)."])
        return f"Took back {taken} move(s).\n\n{self.render(game)}"

    def _with_bot_moves(self, lines: list[str]) -> str:
        game = self.game
        while not game.is_over() and not self.waiting_for_person():
            player = game.current_player
            bot = self.players[player]  # type: ignore[index]
            move = bot.choose(game)  # type: ignore[attr-defined]
            game.play(move, player=player)
            self.on_change(game)
            lines.append(f"{player_label(player, self.names)} plays {move.text()}.")  # type: ignore[arg-type]
        lines.append(self.render(game))
        return "\n".join(lines)

    def _last_mover(self) -> int:
        replay = self.game.copy()
        replay.undo()
        return replay.current_player  # type: ignore[return-value]


def _is_orientation(word: str) -> bool:
    try:
        parse_orientation([word])
    except ValueError:
        return False
    return True
