"""The 9x9 quilt as an 81-bit int: placements, empty count, the best scoring rectangle, text form.

Cell (row, col) is bit `row * 9 + col`. A `Quilt` is an immutable value (hashable, cheap to copy), so engines
and bots can keep many of them; `place()` returns a new quilt.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from doodle.geometry import Cell, Polyomino

SIZE = 9
ROW_MASK = (1 << SIZE) - 1
FULL = (1 << (SIZE * SIZE)) - 1
COVERED = "#"
EMPTY = "."
COLUMNS = "abcdefghi"
"""The column letters, left to right: a cell is named by its column letter and its row number, e.g. 'c4'."""


class QuiltTextError(ValueError):
    """A text quilt that is not 9 rows of 9 '#' or '.' characters."""


class PlacementError(ValueError):
    """A placement that is not allowed; the message names the reason."""


def cell_name(row: int, col: int) -> str:
    """A cell's name as players say it and the sheet prints it: column letter a-i, then row 1-9 (e.g. 'c4');
    a cell off the grid is written '(row, col)'."""
    if 0 <= row < SIZE and 0 <= col < SIZE:
        return f"{COLUMNS[col]}{row + 1}"
    return f"({row}, {col})"


def cell_list(cells: Iterable[Cell]) -> str:
    """Cell names in reading order (row by row), as players say them: "c1, d1, a2"."""
    return ", ".join(cell_name(row, col) for row, col in sorted(cells))


def cell_names(cells: Iterable[Cell]) -> str:
    """'cell c4' or 'cells c4, d4' (sorted by row, then column)."""
    cells = list(cells)
    return f"cell{'s' * (len(cells) != 1)} {cell_list(cells)}"


def cells_in_words(cells: Iterable[Cell], most: int = 6) -> str:
    """`cell_names`, or for more than `most` cells their count and the corners they span: "14 cells from b2 to
    h7"."""
    cells = list(cells)
    if len(cells) <= most:
        return cell_names(cells)
    rows = [row for row, _ in cells]
    cols = [col for _, col in cells]
    return f"{len(cells)} cells from {cell_name(min(rows), min(cols))} to {cell_name(max(rows), max(cols))}"


def cells_are(cells: Iterable[Cell]) -> str:
    """'cell c4 is' or 'cells c4, d4 are', to go on with what they are."""
    cells = list(cells)
    return f"{cell_names(cells)} {'is' if len(cells) == 1 else 'are'}"


def already_covered(cells: Iterable[Cell]) -> str:
    """'cell c4 is already covered' or 'cells c4, d4 are already covered'."""
    return f"{cells_are(cells)} already covered"


def parse_cell_name(name: str) -> Cell:
    """(row, col) of a cell name such as 'c4'; ValueError names what is wrong."""
    text = name.strip().lower()
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "123456789":
        raise ValueError(f"{name!r} is not a cell: write a column a-i and a row 1-9, e.g. 'c4'")
    return int(text[1]) - 1, COLUMNS.index(text[0])


def bit(row: int, col: int) -> int:
    return 1 << (row * SIZE + col)


def mask_of(cells: Iterable[Cell]) -> int:
    """The bit mask of `cells`; raises PlacementError for a cell outside the 9x9 grid."""
    mask = 0
    for row, col in cells:
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise PlacementError(f"cell {cell_name(row, col)} is off the 9x9 grid")
        mask |= bit(row, col)
    return mask


def cells_of(mask: int) -> frozenset[Cell]:
    cells = []
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        cells.append(divmod(index, SIZE))
        mask ^= low
    return frozenset(cells)


def rectangle_score(height: int, width: int) -> int:
    """Patchwork Doodle's rectangle score: the largest square inside, plus one per further row or column."""
    return min(height, width) ** 2 + abs(height - width)


MAX_ROUND_SCORE = rectangle_score(SIZE, SIZE)
# Every score some rectangle on the grid makes (0: no shaded cell). 66 to 80, for example, are not among them, so a
# round score of 70 on a sheet is a misread or a slip of the pencil.
POSSIBLE_ROUND_SCORES = frozenset(
    {0} | {rectangle_score(h, w) for h in range(1, SIZE + 1) for w in range(1, SIZE + 1)}
)
"""The most one scoring can give: the whole quilt as one rectangle."""


@dataclass(frozen=True)
class Placement:
    """A polyomino in one orientation at one place: its absolute cells and their mask."""

    shape: Polyomino
    row: int
    col: int
    mask: int

    @property
    def cells(self) -> frozenset[Cell]:
        return frozenset((self.row + r, self.col + c) for r, c in self.shape.cells)


@lru_cache(maxsize=4096)
def placements_on_empty(shape: Polyomino) -> tuple[Placement, ...]:
    """Every placement of every orientation of `shape` on the empty grid (distinct by cells)."""
    found = []
    for oriented in shape.orientations():
        base = mask_of(oriented.cells)
        for row in range(SIZE - oriented.height + 1):
            for col in range(SIZE - oriented.width + 1):
                found.append(Placement(oriented, row, col, base << (row * SIZE + col)))
    return tuple(found)


@dataclass(frozen=True)
class Rectangle:
    """A rectangle of covered cells: top-left `row`, `col` (0-based), `height`, `width` and its `score`."""

    row: int
    col: int
    height: int
    width: int

    @property
    def score(self) -> int:
        return rectangle_score(self.height, self.width)

    @property
    def area(self) -> int:
        return self.height * self.width

    @property
    def cells(self) -> frozenset[Cell]:
        return frozenset(
            (r, c) for r in range(self.row, self.row + self.height) for c in range(self.col, self.col + self.width)
        )

    def to_dict(self) -> dict[str, int]:
        return {"row": self.row, "col": self.col, "height": self.height, "width": self.width, "score": self.score}


def _longest_runs() -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each 9-bit row mask, its maximal runs of set bits as (start column, length)."""
    table = []
    for mask in range(1 << SIZE):
        runs = []
        col = 0
        while col < SIZE:
            if mask >> col & 1:
                start = col
                while col < SIZE and mask >> col & 1:
                    col += 1
                runs.append((start, col - start))
            else:
                col += 1
        table.append(tuple(runs))
    return tuple(table)


_RUNS = _longest_runs()


@dataclass(frozen=True)
class Quilt:
    """A 9x9 quilt; `bits` has bit `row * 9 + col` set where the cell is covered."""

    bits: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.bits <= FULL:
            raise ValueError("a quilt's bits must fit in 81 bits")

    # ----- text form -----
    @classmethod
    def from_text(cls, text: str) -> Quilt:
        """Read 9 lines of 9 characters, `#` covered and `.` empty (blank lines and surrounding spaces ignored)."""
        rows = [line.strip() for line in text.splitlines() if line.strip()]
        if len(rows) != SIZE:
            found = f"{len(rows)} row{'s' * (len(rows) != 1)}"
            raise QuiltTextError(f"a quilt needs {SIZE} rows of {SIZE} cells, found {found}")
        bits = 0
        for r, row in enumerate(rows):
            if len(row) != SIZE:
                raise QuiltTextError(f"row {r + 1} has {len(row)} cells ({row!r}); every row needs {SIZE}")
            for c, char in enumerate(row):
                if char == COVERED:
                    bits |= bit(r, c)
                elif char != EMPTY:
                    raise QuiltTextError(
                        f"row {r + 1}, column {c + 1}: unexpected {char!r}; use '#' for covered and '.' for empty"
                    )
        return cls(bits)

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> Quilt:
        return cls.from_text("\n".join(rows))

    @classmethod
    def from_cells(cls, cells: Iterable[Cell]) -> Quilt:
        return cls(mask_of(cells))

    def rows(self) -> list[str]:
        return [
            "".join(COVERED if self.bits >> (r * SIZE + c) & 1 else EMPTY for c in range(SIZE)) for r in range(SIZE)
        ]

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def __repr__(self) -> str:
        """Code that makes this quilt again, e.g. `Quilt.from_rows(['##.......', ...])`; `Quilt()` when empty."""
        return f"Quilt.from_rows({self.rows()!r})" if self.bits else "Quilt()"

    # ----- cells -----
    def is_covered(self, row: int, col: int) -> bool:
        return bool(self.bits & bit(row, col))

    @property
    def cells(self) -> frozenset[Cell]:
        return cells_of(self.bits)

    def covered_count(self) -> int:
        return self.bits.bit_count()

    def empty_count(self) -> int:
        return SIZE * SIZE - self.bits.bit_count()

    # ----- placing -----
    def placements(self, shape: Polyomino) -> list[Placement]:
        """Every legal placement of `shape` (any orientation) on the empty cells of this quilt."""
        bits = self.bits
        return [p for p in placements_on_empty(shape) if not p.mask & bits]

    def can_place(self, shape: Polyomino) -> bool:
        bits = self.bits
        return any(not p.mask & bits for p in placements_on_empty(shape))

    def fits(self, cells: Iterable[Cell]) -> bool:
        try:
            mask = mask_of(cells)
        except PlacementError:
            return False
        return not mask & self.bits

    def place(self, cells: Iterable[Cell]) -> Quilt:
        """The quilt with `cells` covered; PlacementError names the cell that is off the grid or already covered."""
        cells = frozenset(cells)
        mask = mask_of(cells)
        overlap = mask & self.bits
        if overlap:
            raise PlacementError(f"overlap: {already_covered(cells_of(overlap))}")
        return Quilt(self.bits | mask)

    # ----- scoring -----
    def best_rectangle(self) -> Rectangle | None:
        """The highest-scoring rectangle of covered cells, or None on an empty quilt.

        Ties go to the larger area, then the top-most, then the left-most rectangle. For a fixed height a wider
        rectangle never scores less, so only maximal runs of the rows' AND need checking: at most 45 row spans.
        """
        bits = self.bits
        rows = [(bits >> (r * SIZE)) & ROW_MASK for r in range(SIZE)]
        best: tuple[int, int, int, int] | None = None  # (score, area, -row, -col)
        best_rect = None
        for top in range(SIZE):
            common = ROW_MASK
            for bottom in range(top, SIZE):
                common &= rows[bottom]
                if not common:
                    break
                height = bottom - top + 1
                for start, length in _RUNS[common]:
                    key = (rectangle_score(height, length), height * length, -top, -start)
                    if best is None or key > best:
                        best = key
                        best_rect = (top, start, height, length)
        if best_rect is None:
            return None
        return Rectangle(*best_rect)

    def score_rectangle(self) -> int:
        """The score of the best rectangle (0 for an empty quilt)."""
        rect = self.best_rectangle()
        return rect.score if rect else 0
