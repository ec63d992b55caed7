import pytest
from hypothesis import given
from hypothesis import strategies as st

from doodle.geometry import Polyomino
from doodle.quilt import PlacementError, Quilt, QuiltTextError, placements_on_empty, rectangle_score
from tests.oracles import brute_force_best_score
from tests.strategies import polyominoes, quilts


@pytest.mark.parametrize(
    ("height", "width", "score"), [(3, 4, 10), (5, 4, 17), (8, 3, 14), (4, 6, 18), (3, 6, 12), (4, 4, 16), (9, 9, 81)]
)
def test_rulebook_rectangle_scores(height, width, score):
    assert rectangle_score(height, width) == score == rectangle_score(width, height)


def quilt_with_rectangles(*rects) -> Quilt:
    cells = {(r, c) for top, left, h, w in rects for r in range(top, top + h) for c in range(left, left + w)}
    return Quilt.from_cells(cells)


def test_rulebook_comparisons():
    # 4x5 (17) beats 3x8 (14); 4x4 (16) beats 6x3 (12)
    rect = quilt_with_rectangles((0, 0, 4, 5), (5, 0, 3, 8)).best_rectangle()
    assert (rect.height, rect.width, rect.score) == (4, 5, 17)
    rect = quilt_with_rectangles((0, 0, 6, 3), (0, 5, 4, 4)).best_rectangle()
    assert (rect.row, rect.col, rect.height, rect.width, rect.score) == (0, 5, 4, 4, 16)


def test_empty_and_full():
    assert Quilt().best_rectangle() is None and Quilt().empty_count() == 81
    full = Quilt.from_text("\n".join(["#" * 9] * 9))
    assert full.empty_count() == 0 and full.best_rectangle().score == 81


@given(quilts())
def test_best_rectangle_matches_brute_force(quilt):
    rect = quilt.best_rectangle()
    expected = brute_force_best_score(quilt)
    if rect is None:
        assert expected == 0
    else:
        assert rect.score == expected
        assert all(quilt.is_covered(r, c) for r, c in rect.cells)


@given(quilts())
def test_text_round_trip(quilt):
    assert Quilt.from_text(str(quilt)) == quilt
    assert Quilt.from_text("\n\n  " + "\n  ".join(quilt.rows()) + "  \n") == quilt
    assert quilt.empty_count() == str(quilt).count(".")


@pytest.mark.parametrize(
    ("text", "message"),
    [("#########\n" * 8, "found 8 rows"), ("#########\n" * 8 + "########\n", "row 9 has 8 cells"),
     ("#########\n" * 8 + "####x####\n", "unexpected 'x'")],
)
def test_bad_text(text, message):
    with pytest.raises(QuiltTextError, match=message):
        Quilt.from_text(text)


@pytest.mark.parametrize(("text", "count"), [("##", 144), ("##/##", 64), ("##/#.", 256), ("###/#..", 448)])
def test_placement_counts_on_empty_board(text, count):
    assert len(Quilt().placements(Polyomino.from_text(text))) == count


@given(quilts(), polyominoes())
def test_placements_fit_and_are_distinct(quilt, shape):
    placements = quilt.placements(shape)
    cell_sets = [p.cells for p in placements]
    assert len(set(cell_sets)) == len(cell_sets)
    for placement in placements:
        assert not placement.mask & quilt.bits
        assert shape.drawable_as(placement.cells)
        assert quilt.place(placement.cells).covered_count() == quilt.covered_count() + shape.size
    # and nothing is missed: every fitting placement on the empty board is listed
    fitting = [p for p in placements_on_empty(shape) if quilt.fits(p.cells)]
    assert len(fitting) == len(placements)
    assert quilt.can_place(shape) == bool(placements)


@given(quilts(), st.integers(0, 8), st.integers(0, 8))
def test_place_refuses_overlap(quilt, row, col):
    if quilt.is_covered(row, col):
        with pytest.raises(PlacementError, match="overlap"):
            quilt.place([(row, col)])
    else:
        assert quilt.place([(row, col)]).is_covered(row, col)


def test_place_refuses_off_grid():
    with pytest.raises(PlacementError, match="off the 9x9 grid"):
        Quilt().place([(8, 8), (8, 9)])


def test_possible_round_scores_are_exactly_what_some_quilt_scores():
    from doodle.quilt import POSSIBLE_ROUND_SCORES, SIZE, Quilt

    seen = {0}
    for height in range(1, SIZE + 1):
        for width in range(1, SIZE + 1):
            rows = ["#" * width + "." * (SIZE - width)] * height + ["." * SIZE] * (SIZE - height)
            seen.add(Quilt.from_text("\n".join(rows)).best_rectangle().score)
    assert seen == POSSIBLE_ROUND_SCORES
    assert not POSSIBLE_ROUND_SCORES & set(range(66, 81))
