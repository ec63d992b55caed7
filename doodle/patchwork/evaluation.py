"""Static evaluation for the bots: what a move is worth now, and how well a quilt is packed.

A patch is worth 2 points per cell it covers, its buttons once per income mark still ahead, less its cost and
less the time it uses (a space of time is worth a button: that is what advancing pays). The packing terms
prefer placements that touch the edge and other patches and that leave no single-cell holes.
"""

from __future__ import annotations

from doodle.patchwork.game import Game
from doodle.patchwork.moves import BONUS_SQUARES, LEATHER_MOVES, MASKS, PLACEMENTS, Move
from doodle.patchwork.patches import BONUS_POINTS, PATCHES, TRACK_END, marks_left
from doodle.quilt import FULL, SIZE

_COL0 = sum(1 << (r * SIZE) for r in range(SIZE))
NOT_LAST_COL = FULL & ~(_COL0 << (SIZE - 1))  # cells with a right-hand neighbour
NOT_FIRST_COL = FULL & ~_COL0  # cells with a left-hand neighbour

TIME_VALUE = 1.0  # buttons per space of time
PERIMETER_WEIGHT = 0.25  # per edge between an empty cell and a covered cell or the border
HOLE_WEIGHT = 1.5  # per empty cell with no empty neighbour (only a leather patch can fill it)


def neighbours(mask: int) -> int:
    """The cells beside (not diagonally) the cells of `mask`, on the board, whether in `mask` or not."""
    return (((mask & NOT_LAST_COL) << 1) | ((mask & NOT_FIRST_COL) >> 1) | (mask << SIZE) | (mask >> SIZE)) & FULL


def empty_perimeter(bits: int) -> int:
    """Edges between an empty cell and a covered cell or the border: low for a compact empty area."""
    empty = FULL & ~bits
    pairs = (empty & (empty >> 1) & NOT_LAST_COL).bit_count() + (empty & (empty >> SIZE)).bit_count()
    return 4 * empty.bit_count() - 2 * pairs


def holes(bits: int) -> int:
    """Empty cells whose four neighbours are all covered or off the board."""
    empty = FULL & ~bits
    return (empty & ~neighbours(empty)).bit_count()


def packing(bits: int) -> float:
    """A penalty (to subtract) for a badly packed quilt."""
    return PERIMETER_WEIGHT * empty_perimeter(bits) + HOLE_WEIGHT * holes(bits)


def completes_bonus(game: Game, bits: int) -> bool:
    return game.bonus_owner is None and any(bits & square == square for square in BONUS_SQUARES)


def move_value(game: Game, move: Move) -> float:
    """What `move` is worth to the player to move, in points, by the static rule above."""
    p = game.current_player
    assert p is not None
    bits = game.quilts[p].bits
    position = game.positions[p]
    if move.kind == "advance":
        spaces = min(game.positions[1 - p] + 1, TRACK_END) - position
        return spaces - TIME_VALUE * spaces
    new_bits = bits | move.mask
    value = packing(bits) - packing(new_bits) + 2 * move.mask.bit_count()
    if move.kind == "patch":
        patch = PATCHES[move.patch]  # type: ignore[index]
        value += patch.buttons * marks_left(position) - patch.cost
        value -= TIME_VALUE * (min(position + patch.time, TRACK_END) - position)
    if completes_bonus(game, new_bits):
        value += BONUS_POINTS
    return value


def fitting(game: Game, number: int) -> list[Move]:
    """The placements of patch `number` that fit the quilt of the player to move."""
    bits = game.quilts[game.current_player or 0].bits
    return [move for move, mask in zip(PLACEMENTS[number], MASKS[number], strict=True) if not mask & bits]


def contact_order(bits: int, moves: list[Move]) -> list[Move]:
    """`moves` sorted from the one touching fewest empty cells (snuggest against edges and patches) up: a cheap
    stand-in for `packing` used to pick the few placements a search looks at."""
    empty = FULL & ~bits
    return sorted(moves, key=lambda move: (neighbours(move.mask) & empty & ~move.mask).bit_count())


def leather_choices(bits: int) -> list[Move]:
    """Cells for a leather patch, holes first (a single empty cell no patch can fill)."""
    empty = FULL & ~bits
    hole_mask = empty & ~neighbours(empty)
    return [m for m in LEATHER_MOVES if m.mask & hole_mask] + [m for m in LEATHER_MOVES if m.mask & empty & ~hole_mask]
