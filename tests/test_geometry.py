import pytest
from hypothesis import given

from doodle.geometry import Polyomino, ShapeError
from tests.strategies import polyominoes


@pytest.mark.parametrize(
    ("text", "count"),
    [("#", 1), ("##", 2), ("###/.#.", 4), ("###/#..", 8), ("##/##", 1), ("#.#/###", 4), ("##./.##", 4),
     (".##/##./.#.", 8), (".#./###/.#.", 1)],
)
def test_orientation_counts(text, count):
    assert len(Polyomino.from_text(text).orientations()) == count


def test_text_forms_agree():
    one_line = Polyomino.from_text("#.#/###")
    multi = Polyomino.from_text("\n  #.#\n  ###\n")
    assert one_line == multi
    assert one_line.cells == frozenset({(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)})
    assert one_line.size == 5 and one_line.height == 2 and one_line.width == 3
    assert one_line.to_text() == "#.#/###"
    assert str(one_line) == "#.#\n###"


@pytest.mark.parametrize("bad", ["", "...", "#x#", "  /  "])
def test_bad_shape_text(bad):
    with pytest.raises(ShapeError):
        Polyomino.from_text(bad)


def test_normalised_position():
    assert Polyomino(frozenset({(3, 4), (3, 5)})) == Polyomino.from_text("##")


def test_canonical_identifies_free_shapes():
    l_shape = Polyomino.from_text("#./#./##")
    assert l_shape.canonical() == Polyomino.from_text("###/#..").canonical()
    assert l_shape.same_shape(Polyomino.from_text("..#/###"))
    assert not l_shape.same_shape(Polyomino.from_text("###/.#."))


def test_u_pentomino_cuts():
    u = Polyomino.from_text("#.#/###")
    # between the rows: two single cells and a bar, three pieces: illegal
    assert all(cut.axis == "col" for cut in u.cuts())
    assert [cut.index for cut in u.cuts()] == [1, 2]
    first = u.cuts()[0]
    assert sorted(len(piece) for piece in first.pieces) == [2, 3]
    pieces = u.cut_pieces()
    assert [p.size for p in pieces] == [2, 3]
    assert pieces[0].same_shape(Polyomino.from_text("##"))
    assert pieces[1].same_shape(Polyomino.from_text("##/#."))


def test_monomino_and_plus_cuts():
    assert Polyomino.from_text("#").cuts() == ()
    # the plus: each of the 4 lines leaves one cell and a T-tetromino
    plus = Polyomino.from_text(".#./###/.#.")
    assert len(plus.cuts()) == 4
    assert [p.to_text() for p in plus.cut_pieces()] == ["#", Polyomino.from_text("###/.#.").canonical().to_text()]
    # an H: a line between the rows leaves three pieces, so only the column lines are cuts
    h_shape = Polyomino.from_text("#.#/###/#.#")
    assert {cut.axis for cut in h_shape.cuts()} == {"col"}
    assert [p.to_text() for p in Polyomino.from_text("###").cut_pieces()] == ["#", "##"]


@given(polyominoes())
def test_orientations_are_the_same_free_shape(shape):
    orientations = shape.orientations()
    assert len(set(orientations)) == len(orientations) <= 8
    assert 8 % len(orientations) == 0
    for oriented in orientations:
        assert oriented.size == shape.size
        assert oriented.canonical() == shape.canonical()
        assert set(oriented.orientations()) == set(orientations)
    assert shape.rotated().rotated().rotated().rotated() == shape
    assert shape.mirrored().mirrored() == shape


@given(polyominoes())
def test_cuts_split_into_two_connected_pieces(shape):
    for cut in shape.cuts():
        first, second = cut.pieces
        assert first | second == shape.cells and not first & second
        assert Polyomino(first).is_connected() and Polyomino(second).is_connected()
        # every cell lies on one side of the line
        axis = 0 if cut.axis == "row" else 1
        assert {cell[axis] < cut.index for cell in first} != {cell[axis] < cut.index for cell in second}
    for piece in shape.cut_pieces():
        assert piece.size < shape.size and piece.is_connected()


@pytest.mark.parametrize("ambiguous", [" #\n###", "# #/###", "#//#", "#.\n\n##"])
def test_spaces_and_blank_rows_inside_a_shape_are_refused(ambiguous):
    with pytest.raises(ShapeError):
        Polyomino.from_text(ambiguous)


def test_indented_lines_and_padded_rows_are_read():
    expected = Polyomino.from_text(".#./###")
    assert Polyomino.from_text("\n    .#.\n    ###\n") == expected == Polyomino.from_text(" .#. / ### ")
