"""Plain-text drawings of a Patchwork position: the time track with both tokens, both quilts, the next patches.

Used by the typed-command game and the full-screen game's side panels; returns strings, never prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from doodle.geometry import Cell
from doodle.patchwork.patches import CHOICES, INCOME_MARKS, PATCHES, TRACK_END
from doodle.render import draw_polyomino, draw_quilt, draw_side_by_side

if TYPE_CHECKING:
    from doodle.patchwork.game import Game

TOKENS = ("1", "2")


def player_label(player: int, names: Sequence[str] | None = None) -> str:
    """'player 1', or 'player 1 (you)' when the seat has another name."""
    label = f"player {player + 1}"
    return f"{label} ({names[player]})" if names and names[player] not in ("", label) else label


def track_lines(game: Game) -> list[str]:
    """The time track, spaces 0 to 53: '$' an income mark, 'L' a leather patch still there, '*' both; the
    tokens on the lines above and below (the token on top is drawn on the upper line when they share a space)."""
    leather = set(game.leather_left())
    marks = []
    for space in range(TRACK_END + 1):
        income = space in INCOME_MARKS
        char = "*" if income and space in leather else "$" if income else "L" if space in leather else "·"
        marks.append(char)
    a, b = game.positions
    upper, lower = (game.on_top, 1 - game.on_top) if a == b else (0, 1)
    lines = []
    for player in (upper, lower):
        position = game.positions[player]
        lines.append(" " * position + TOKENS[player])
    scale = [" "] * (TRACK_END + 2)
    for space in range(0, TRACK_END + 1, 10):
        scale[space : space + 2] = f"{space:<2}"
    return [f"time  {''.join(scale).rstrip()}", f"      {lines[0]}", f"      {''.join(marks)}", f"      {lines[1]}"]


def player_lines(game: Game, player: int, names: Sequence[str] | None = None) -> list[str]:
    mark = "▶ " if game.current_player == player else "  "
    bonus = ", 7x7 bonus" if game.bonus_owner == player else ""
    return [
        f"{mark}{player_label(player, names)}",
        f"  space {game.positions[player]}, buttons {game.buttons[player]}, income {game.income[player]}{bonus}",
        f"  score now {game.scores()[player]}",
    ]


def quilts_block(
    game: Game,
    names: Sequence[str] | None = None,
    ghost: Iterable[Cell] = (),
    ghost_fits: bool = True,
    color: bool = False,
) -> str:
    """Both quilts side by side under their players' lines; `ghost` is drawn on the quilt of the player to move."""
    blocks = []
    for player in (0, 1):
        quilt = game.quilts[player]
        on_me = ghost if game.current_player == player else ()
        drawing = draw_quilt(quilt, ghost=on_me, ghost_fits=ghost_fits, color=color)
        blocks.append("\n".join([*player_lines(game, player, names), drawing]))
    return draw_side_by_side(blocks, gap=6)


def choices_block(game: Game, selected: int | None = None) -> str:
    """The next three patches clockwise from the neutral token, drawn, with cost, time and buttons; the
    `selected` one (0, 1 or 2) marked."""
    player = game.current_player
    blocks = []
    for index, number in enumerate(game.circle[:CHOICES], 1):
        patch = PATCHES[number]
        affordable = None if player is None else patch.cost <= game.buttons[player]
        caption = f"{'▶' if selected == index - 1 else ' '}{index}) patch {number}"
        details = f"cost {patch.cost} time {patch.time}"
        income = f"buttons {patch.buttons}" + ("" if affordable in (None, True) else " (too dear)")
        blocks.append("\n".join([caption, details, income, draw_polyomino(patch.shape)]))
    if not blocks:
        return "no patches left in the circle"
    rest = ", ".join(str(n) for n in game.circle[CHOICES:])
    return draw_side_by_side(blocks, gap=4) + (f"\nthen: {rest}" if rest else "")


def position_text(game: Game, names: Sequence[str] | None = None, color: bool = False) -> str:
    """The whole position: track, quilts, the choice of patches, and whose turn it is."""
    parts = ["\n".join(track_lines(game)), quilts_block(game, names, color=color), choices_block(game)]
    parts.append(status_line(game, names))
    return "\n\n".join(parts)


def status_line(game: Game, names: Sequence[str] | None = None) -> str:
    if game.is_over():
        a, b = game.scores()
        winner = game.winner()
        tie = " (a tie: the first to reach the end wins)" if a == b else ""
        return f"Game over: {a} to {b}; {player_label(winner, names)} wins{tie}."  # type: ignore[arg-type]
    player = game.current_player
    if game.pending_leather:
        return f"{player_label(player, names)}: place the leather patch (1x1) on an empty cell."  # type: ignore[arg-type]
    return f"{player_label(player, names)} to move."  # type: ignore[arg-type]
