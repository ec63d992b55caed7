"""Moves of Patchwork, their text form, and the precomputed placement tables that make move generation fast.

Every patch's placements on the empty 9x9 board are built once (a symmetric patch's placement is listed
once), each as a ready `Move` with its 81-bit mask, so generating the legal moves of a position is a filter
of precomputed masks against the quilt's bits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from doodle.geometry import Cell
from doodle.patchwork.errors import IllegalMoveError, MoveSyntaxError, is_int, shown
from doodle.patchwork.patches import PATCHES
from doodle.quilt import SIZE, bit, cell_name, parse_cell_name, placements_on_empty

Kind = Literal["advance", "patch", "leather"]
KINDS = ("advance", "patch", "leather")
MAX_DIGITS = 9  # a whole number typed or recorded has at most this many digits (no number here comes near)


@dataclass(frozen=True)
class Move:
    """One move: `kind` is "advance", "patch" or "leather"; `patch` the patch number (None otherwise);
    `cells` the (row, col) cells covered (empty for an advance); `mask` the same cells as quilt bits."""

    kind: Kind
    patch: int | None = None
    cells: frozenset[Cell] = frozenset()
    mask: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.mask and self.cells and isinstance(self.cells, frozenset):  # left out: it follows the cells
            mask = _mask_or_none(self.cells)
            if mask is not None:
                object.__setattr__(self, "mask", mask)

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        """The move's text form: "advance", "leather e5", or "12 c4,c5,d5,e5" (patch number, covered cells)."""
        if self.kind == "advance":
            return "advance"
        names = _names_of(self.cells)
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


def whole_number(text: str) -> int | None:
    """The number `text` writes in the digits 0-9 (at most MAX_DIGITS of them), else None: int() would also
    take '٣' or a 5000-digit string, and str.isdigit() also passes '²', which int() then refuses."""
    if 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def _mask_or_none(cells: object) -> int | None:
    """The mask of `cells` when every one is a (row, col) pair of whole numbers on the board, else None."""
    try:
        items = list(cells)  # type: ignore[call-overload]
    except TypeError:
        return None
    mask = 0
    for cell in items:
        if not (isinstance(cell, tuple) and len(cell) == 2 and is_int(cell[0]) and is_int(cell[1])):
            return None
        row, col = cell
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            return None
        mask |= bit(row, col)
    return mask


def patch_move(number: int, cells: frozenset[Cell] | set[Cell] | list[Cell]) -> Move | None:
    """The move placing patch `number` on `cells`, or None when the cells are not that patch's shape on the board."""
    if not is_int(number) or not 0 <= number < len(PLACEMENTS):
        return None
    mask = _mask_or_none(cells)
    return None if mask is None else _BY_MASK[number].get(mask)


def engine_move(move: object) -> Move:
    """The engine's own Move for `move`: the same object for a move the engine made (legal_moves, parse_move,
    patch_move ...), else the engine's move with the same kind, patch and cells. IllegalMoveError when `move`
    is not a Move or is not well formed: an unknown kind, a cell off the board, a mask that disagrees with the
    cells, cells that are not the patch's shape. Game.play passes every move through here, so a move built
    by hand can never put the game in a position that its record would not replay to."""
    if not isinstance(move, Move):
        raise IllegalMoveError(f"{shown(move)} is not a move: play a Move from legal_moves() or parse_move()")
    kind, patch, cells = move.kind, move.patch, move.cells
    if kind == "advance":
        if patch is not None or cells or move.mask:
            raise IllegalMoveError("an advance names no patch and covers no cells")
        return ADVANCE
    if kind not in KINDS:
        raise IllegalMoveError(f"unknown kind of move {shown(kind)}: the kinds are {', '.join(KINDS)}")
    mask = _mask_or_none(cells) if isinstance(cells, frozenset) else None
    if mask is None:
        raise IllegalMoveError(f"the move's cells {shown(cells)} are not (row, col) cells on the 9x9 board")
    if move.mask != mask:
        raise IllegalMoveError(f"the move's mask {shown(move.mask)} does not match its cells {_names_of(cells)}")
    if kind == "leather":
        if patch is not None or len(cells) != 1:
            raise IllegalMoveError("a leather patch covers exactly one cell and names no patch number")
        return LEATHER_MOVES[mask.bit_length() - 1]
    if not is_int(patch) or not 0 <= patch < len(PATCHES):  # type: ignore[operator]
        raise IllegalMoveError(f"there is no patch {shown(patch)} (patches are numbered 0 to {len(PATCHES) - 1})")
    found = _BY_MASK[patch].get(mask)  # type: ignore[index]
    if found is None:
        raise IllegalMoveError(f"cells {_names_of(cells)} are not the shape of patch {patch} on the board")
    return found


def _names_of(cells: frozenset[Cell]) -> str:
    return ",".join(cell_name(r, c) for r, c in sorted(cells))


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
    if not isinstance(text, str):
        raise MoveSyntaxError(f"a move is written as text, not {type(text).__name__}")
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
    number = whole_number(number_text)
    if number is None and number_text.isascii() and number_text.isdigit():
        number = len(PATCHES)  # too many digits for any patch: said below
    if number is None:
        digits = " (write the patch number with the digits 0-9)" if number_text.isdigit() else ""
        raise MoveSyntaxError(
            f"{text!r} is not a move: write 'advance', 'leather e5', or a patch number and its cells, "
            f"e.g. '12 c4,c5'{digits}"
        )
    if number >= len(PATCHES):
        raise MoveSyntaxError(
            f"{text!r}: there is no patch {number_text} (patches are numbered 0 to {len(PATCHES) - 1})"
        )
    if len(words) < 2:
        raise MoveSyntaxError(f"{text!r}: say where patch {number} goes, e.g. '{number} o0 a1' or its cells")
    if words[1].lower().startswith("o") and words[1][1:].isdigit():
        orientation = whole_number(words[1][1:])
        if orientation is None and not words[1].isascii():
            raise MoveSyntaxError(f"{text!r}: write the orientation with the digits 0-9, e.g. '{number} o0 a1'")
        if len(words) != 3:
            raise MoveSyntaxError(f"{text!r}: write the orientation and one corner cell, e.g. '{number} o0 a1'")
        row, col = _cell(words[2], text)
        move = orientation_placement(number, -1 if orientation is None else orientation, row, col)
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
