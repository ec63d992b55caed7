"""The ghost-placement model: orientation codes, moves kept on the grid, fitting, jumping between fits."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doodle.geometry import Polyomino
from doodle.quilt import Quilt
from doodle.tui.ghost import Ghost, distinct_orientations, oriented, parse_orientation

L_SHAPE = Polyomino.from_text("#./#./##")
SHAPES = [Polyomino.from_text(t) for t in ("#", "##", "#./##", "#./#./##", ".#./###/.#.", "..#/.##/.#./###", "#.#/###")]

shapes = st.sampled_from(SHAPES)
moves = st.lists(st.sampled_from(["up", "down", "left", "right", "rotate", "back", "flip"]), max_size=30)
STEP = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def play(ghost: Ghost, steps: list[str]) -> Ghost:
    for step in steps:
        if step in STEP:
            ghost = ghost.moved(*STEP[step])
        elif step == "rotate":
            ghost = ghost.rotated()
        elif step == "back":
            ghost = ghost.rotated(clockwise=False)
        else:
            ghost = ghost.flipped()
    return ghost


@given(shapes, moves)
def test_a_ghost_always_stays_whole_on_the_grid_and_keeps_its_shape(shape, steps):
    ghost = play(Ghost.centred(shape), steps)
    assert len(ghost.cells) == shape.size
    assert all(0 <= r < 9 and 0 <= c < 9 for r, c in ghost.cells)
    assert shape.drawable_as(ghost.cells)


@given(shapes, moves)
def test_the_code_redraws_the_same_shape(shape, steps):
    ghost = play(Ghost.centred(shape), steps)
    turns, mirrored = parse_orientation(ghost.code.split())
    assert oriented(shape, turns, mirrored) == ghost.shape


def test_moves_stop_at_the_edge():
    ghost = Ghost(L_SHAPE, 0, 0)
    assert ghost.moved(-1, -1).cells == ghost.cells
    far = ghost.moved(20, 20)
    assert (far.row, far.col) == (9 - 3, 9 - 2)


def test_rotation_is_clockwise_and_mirror_flips_what_is_seen():
    ghost = Ghost.centred(L_SHAPE)
    assert ghost.rotated().shape == L_SHAPE.rotated()
    assert ghost.rotated().rotated(clockwise=False).shape == L_SHAPE
    # mirror what is seen: the turned patch flipped left to right
    turned = ghost.rotated()
    assert turned.flipped().shape == L_SHAPE.rotated().mirrored()
    assert turned.flipped().flipped().shape == turned.shape
    assert ghost.flipped().code == "r0 m"


def test_rotation_keeps_the_middle():
    bar = Polyomino.from_text("#####")
    ghost = Ghost(bar, 4, 2)  # cells (4, 2)..(4, 6), middle (4, 4)
    upright = ghost.rotated()
    assert upright.cells == {(r, 4) for r in range(2, 7)}


def test_fits_and_clashes_against_a_quilt():
    quilt = Quilt.from_cells([(0, 1)])
    ghost = Ghost(Polyomino.from_text("##"), 0, 0)
    assert not ghost.fits(quilt)
    assert ghost.clashes(quilt) == {(0, 1)}
    assert ghost.moved(1, 0).fits(quilt)


def test_parse_orientation_explains_bad_words():
    assert parse_orientation([]) == (0, False)
    assert parse_orientation(["m", "R3"]) == (3, True)
    for words in (["r4"], ["x"], ["m", "m"], ["r1", "r2"]):
        with pytest.raises(ValueError):
            parse_orientation(words)


def test_distinct_orientations_counts_free_symmetry():
    assert len(distinct_orientations(Polyomino.from_text("#"))) == 1
    assert len(distinct_orientations(Polyomino.from_text("##"))) == 2
    assert len(distinct_orientations(L_SHAPE)) == 8


@given(shapes, st.integers(0, (1 << 81) - 1))
def test_fitting_positions_match_the_quilts_placements(shape, bits):
    quilt = Quilt(bits & bits >> 1)  # about a quarter covered, so some patches fit and some do not
    from_ghost = {g.cells for g in Ghost.centred(shape).fitting_positions(quilt)}
    from_quilt = {p.cells for p in quilt.placements(shape)}
    assert from_ghost == from_quilt


def test_next_fit_visits_every_fit_and_wraps():
    quilt = Quilt.from_text("\n".join(["#########"] * 8 + ["###.....#"]))
    ghost = Ghost.centred(Polyomino.from_text("###"))
    seen = []
    for _ in range(4):
        ghost = ghost.next_fit(quilt)
        assert ghost is not None and ghost.fits(quilt)
        seen.append(ghost.cells)
    assert len(set(seen[:3])) == 3 and seen[3] == seen[0]
    assert ghost.next_fit(quilt, forward=False).cells == seen[2]
    assert Ghost.centred(Polyomino.from_text("######")).next_fit(quilt) is None


def test_from_cells_and_with_base():
    ghost = Ghost.from_cells([(5, 5), (5, 6), (6, 5)])
    assert ghost.cells == {(5, 5), (5, 6), (6, 5)}
    single = ghost.with_base(Polyomino.from_text("#"))
    assert single.cells == {(5, 5)}


def test_nearest_fit_prefers_the_same_orientation_close_by():
    quilt = Quilt.from_text("\n".join(["#########"] * 4 + ["####....."] + ["#########"] * 2 + ["#........"] * 2))
    bar = Ghost(Polyomino.from_text("###"), 4, 0)
    near = bar.nearest_fit(quilt)
    assert near.shape == bar.shape and near.cells == {(4, 4), (4, 5), (4, 6)}
    upright = Ghost(Polyomino.from_text("###"), 0, 0, turns=1)
    assert upright.nearest_fit(quilt).shape == upright.shape.rotated()  # no upright place: the flat one
    assert bar.moved(0, 5).nearest_fit(quilt) == bar.moved(0, 5)  # already fits: stays
    assert Ghost(Polyomino.from_text("#########")).nearest_fit(quilt) is None
