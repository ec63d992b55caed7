"""The quilt widget draws the board, the ghost (green fits / red clashes), the highlight, and reports clicks."""

import asyncio

from hypothesis import given
from hypothesis import strategies as st
from textual.app import App, ComposeResult

from doodle.quilt import Quilt, Rectangle
from doodle.tui.quilt_view import GHOST_CLASH_STYLE, GHOST_FITS_STYLE, HIGHLIGHT_STYLE, QuiltView


def styles_of(view: QuiltView) -> dict[tuple[int, int], str]:
    """The style and glyph drawn at each cell, read back from the rendered text."""
    text = view.render_text()
    lines = text.plain.split("\n")
    assert lines[0].split() == list("abcdefghi")
    found = {}
    offset = len(lines[0]) + 1
    for row, line in enumerate(lines[1:]):
        assert line.startswith(f"{row + 1:>2} ")
        for col in range(9):
            start = offset + 3 + 2 * col
            styles = {str(span.style) for span in text.spans if span.start <= start < span.end}
            found[(row, col)] = (line[3 + 2 * col : 5 + 2 * col], styles)
        offset += len(line) + 1
    return found


def test_ghost_green_where_it_fits_red_where_not_and_highlight():
    view = QuiltView(Quilt.from_cells([(0, 0), (0, 1), (4, 4)]))
    view.show(ghost=[(3, 3), (3, 4)], ghost_fits=True, highlight=Rectangle(0, 0, 1, 2).cells)
    cells = styles_of(view)
    assert cells[(3, 3)] == ("██", {GHOST_FITS_STYLE})
    assert cells[(0, 0)] == ("██", {HIGHLIGHT_STYLE})
    assert cells[(8, 8)][0] == "· "
    view.show(ghost=[(4, 4), (4, 5)], ghost_fits=False, highlight=[])
    cells = styles_of(view)
    assert cells[(4, 4)] == ("XX", {GHOST_CLASH_STYLE})  # on a covered cell
    assert cells[(4, 5)] == ("▒▒", {GHOST_CLASH_STYLE})
    assert HIGHLIGHT_STYLE not in cells[(0, 0)][1]


def test_clicking_a_cell_posts_its_coordinates():
    clicked = []

    class Harness(App):
        def compose(self) -> ComposeResult:
            yield QuiltView(Quilt(), id="quilt")

        def on_quilt_view_cell_clicked(self, message: QuiltView.CellClicked) -> None:
            clicked.append((message.row, message.col))

    async def run() -> None:
        app = Harness()
        async with app.run_test(size=(40, 14)) as pilot:
            view = app.query_one(QuiltView)
            assert view.size.width >= 21 and view.size.height == 10
            # content starts after 1 column of padding; cell c2 = row 1, col 2 -> x = 1 + 3 + 4, y = 1 + 1
            await pilot.click(QuiltView, offset=(1 + 3 + 2 * 2, 1 + 1))
            await pilot.click(QuiltView, offset=(1, 0))  # the labels: nothing
            await pilot.pause()

    asyncio.run(run())
    assert clicked == [(1, 2)]


def test_a_scaled_quilt_draws_big_cells_and_clicks_land_on_them():
    view = QuiltView(Quilt.from_cells([(0, 0), (8, 8)]))
    assert view.content_size() == (21, 10)
    assert view.largest_scale(21, 10) == 1 and view.largest_scale(57, 28) == 3 and view.largest_scale(5, 5) == 1
    view.set_scale(3)
    assert view.content_size() == (57, 28)
    lines = view.render_text().plain.split("\n")
    assert len(lines) == 28 and max(len(line) for line in lines) <= 57
    assert lines[0].split() == list("abcdefghi") and lines[0].index("a") == 3 + 2  # centred over 6 columns
    assert [line[:3] for line in lines[1:4]] == ["   ", " 1 ", "   "]  # the row number on the middle line
    assert all(line[3:9] == "██████" for line in lines[1:4])  # a1 covered: filled 6 x 3
    assert [line[9:15] for line in lines[1:4]] == ["      ", "  ·   ", "      "]  # b1 empty: one dot, centred
    view.show(ghost=[(8, 8)], ghost_fits=False)
    assert lines[-1] != view.render_text().plain.split("\n")[-2]  # "XX" on a covered cell: in the middle row
    assert "XX" in view.render_text().plain.split("\n")[-2]
    # the cell under a content offset: column by 6 characters, row by 3 lines
    assert view.cell_at(3 + 6 * 4 + 5, 1 + 3 * 2 + 2) == (2, 4)
    assert view.cell_at(2, 5) is None and view.cell_at(10, 0) is None and view.cell_at(3 + 6 * 9, 5) is None


@given(st.integers(1, 4), st.integers(0, 8), st.integers(0, 8), st.data())
def test_every_point_of_a_drawn_cell_is_that_cell_at_any_scale(scale, row, col, data):
    view = QuiltView(Quilt())
    view.set_scale(scale)
    dx = data.draw(st.integers(0, 2 * scale - 1))
    dy = data.draw(st.integers(0, scale - 1))
    assert view.cell_at(3 + 2 * scale * col + dx, 1 + scale * row + dy) == (row, col)
