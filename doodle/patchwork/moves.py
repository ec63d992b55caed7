"""Moves of Patchwork, their text form, and the precomputed placement tables that make move generation fast.

Every patch's placements on the empty 9x9 board are built once (a symmetric patch's placement is listed
once), each as a ready `Move` with its 81-bit mask, so generating the legal moves of a position is a filter
of precomputed masks against the quilt's bits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from doodle.geometry import Cell
from doodle.patchwork.patches import PATCHES
from doodle.quilt import SIZE, bit, mask_of, placements_on_empty
from doodle.render import cell_name, parse_cell_name

Kind = Literal["advance", "patch", "leather"]


class MoveSyntaxError(ValueError):
    """A move text that cannot be read; the message says what to write instead."""


@dataclass(frozen=True)
class Move:
    """One move: `kind` is "advance", "patch" or "leather"; `patch` the patch number (None otherwise);
    `cells` the (row, col) cells covered (empty for an advance); `mask` the same cells as quilt bits."""

    kind: Kind
    patch: int | None = None
    cells: frozenset[Cell] = frozenset()
    mask: int = field(default=0, compare=False, repr=False)

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        """The move's text form: "advance", "leather e5", or "12 c4,c5,d5,e5" (patch number, covered cells)."""
        if self.kind == "advance":
            return "advance"
        names = ",".join(cell_name(r, c) for r, c in sorted(self.cells))
        return f"leather {names}" if self.kind == "leather" else f"{self.patch} {names}"


ADVANCE = Move("advance")

# PLACEMENTS[n] are the moves placing patch n on an empty board; MASKS[n] their masks, in the same order.
PLACEMENTS: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move("patch", patch.number, frozenset(p.cells), p.mask) for p in placements_on_empty(patch.shape))
    for patch in PATCHES
)
MASKS: tuple[tuple[int, ...], ...] = tuple(tuple(m.mask for m in moves) for moves in PLACEMENTS)
_BY_MASK: tuple[dict[int, Move], ...] = tuple({m.mask: m for m in moves} for moves in PLACEMENTS)
LEATHER_MOVES: tuple[Move, ...] = tuple(
    Move("leather", None, frozenset([divmod(i, SIZE)]), 1 << i) for i in range(SIZE * SIZE)
)


def patch_move(number: int, cells: frozenset[Cell] | set[Cell] | list[Cell]) -> Move | None:
    """The move placing patch `number` on `cells`, or None when the cells are not that patch's shape on the board."""
    if not 0 <= number < len(PLACEMENTS):
        return None
    try:
        mask = mask_of(cells)
    except ValueError:
        return None
    return _BY_MASK[number].get(mask)


def placement_of(number: int, mask: int) -> Move | None:
    """The move placing patch `number` on exactly the cells of `mask`, or None when that is not its shape."""
    return _BY_MASK[number].get(mask)


def leather_move(row: int, col: int) -> Move:
    return LEATHER_MOVES[row * SIZE + col]


def orientation_placement(number: int, orientation: int, row: int, col: int) -> Move | None:
    """Patch `number` in orientation `orientation` (index into its shape's orientations()) with the top-left
    corner of its bounding box on (row, col); None when that is off the board or not an orientation."""
    orientations = PATCHES[number].shape.orientations()
    if not 0 <= orientation < len(orientations):
        return None
    cells = frozenset((row + r, col + c) for r, c in orientations[orientation].cells)
    return patch_move(number, cells)


def parse_move(text: str) -> Move:
    """Read a move's text form: "advance" (or "a"), "leather e5", "12 c4,c5,d5,e5" (cells in any order,
    separated by commas or spaces) or "12 o3 c4" (orientation 3 of patch 12, bounding box's top-left on c4).

    The result is a well-formed move; whether it is legal is the game's business (`Game.play` says why not).
    """
    words = text.replace(",", " ").split()
    if not words:
        raise MoveSyntaxError("the move is empty: write 'advance', 'leather e5', or a patch and its cells")
    head = words[0].lower()
    if head in ("advance", "a", "adv"):
        if len(words) != 1:
            raise MoveSyntaxError(f"{text!r}: 'advance' takes nothing after it")
        return ADVANCE
    if head in ("leather", "l"):
        if len(words) != 2:
            raise MoveSyntaxError(f"{text!r}: write 'leather' and one cell, e.g. 'leather e5'")
        row, col = _cell(words[1], text)
        return leather_move(row, col)
    number_text = head.removeprefix("p").removeprefix("#")
    if not number_text.isdigit():
        raise MoveSyntaxError(
            f"{text!r} is not a move: write 'advance', 'leather e5', or a patch number and its cells, e.g. '12 c4,c5'"
        )
    number = int(number_text)
    if number >= len(PATCHES):
        raise MoveSyntaxError(f"{text!r}: there is no patch {number} (patches are numbered 0 to {len(PATCHES) - 1})")
    if len(words) < 2:
        raise MoveSyntaxError(f"{text!r}: say where patch {number} goes, e.g. '{number} o0 a1' or its cells")
    if words[1].lower().startswith("o") and words[1][1:].isdigit():
        if len(words) != 3:
            raise MoveSyntaxError(f"{text!r}: write the orientation and one corner cell, e.g. '{number} o0 a1'")
        row, col = _cell(words[2], text)
        move = orientation_placement(number, int(words[1][1:]), row, col)
        if move is None:
            count = len(PATCHES[number].shape.orientations())
            raise MoveSyntaxError(
                f"{text!r}: patch {number} has orientations o0 to o{count - 1}, and the patch must stay on the board"
            )
        return move
    cells = frozenset(_cell(word, text) for word in words[1:])
    move = patch_move(number, cells)
    if move is None:
        raise MoveSyntaxError(
            f"{text!r}: those {len(cells)} cells are not the shape of patch {number} "
            f"({PATCHES[number].shape.to_text()}, {PATCHES[number].size} cells, any rotation or mirror image)"
        )
    return move


def _cell(word: str, text: str) -> Cell:
    try:
        return parse_cell_name(word)
    except ValueError as error:
        raise MoveSyntaxError(f"{text!r}: {error}") from None


BONUS_SQUARES: tuple[int, ...] = tuple(
    sum(bit(r, c) for r in range(top, top + 7) for c in range(left, left + 7))
    for top in range(SIZE - 6)
    for left in range(SIZE - 6)
)
