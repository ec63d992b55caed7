"""What the solo game says, in the typed-command mode and the full-screen game alike: cells named as players name
them, one cell and several, the specials left and used, the cut, the final turn, and, when the card on offer fits
nowhere, what is left to do, said at the start of the turn."""

from __future__ import annotations

from rich.text import Text

from doodle.game.dealer import Phase
from doodle.game.draws import CardRole, Draw
from doodle.game.sheet import Special
from doodle.geometry import Polyomino
from doodle.quilt import cell_name
from doodle.solo.app import KEYS as APP_KEYS
from doodle.solo.app import SoloApp
from doodle.solo.plain import KEYS as PLAIN_KEYS
from doodle.solo.plain import PlainGame
from doodle.solo.session import SoloSession, Stage, Stuck, cut_name, cut_sides, specials_summary, stuck_advice
from tests.solo_helpers import run_app, started, stuck_next_turn
from tests.test_legal_draws import _nearly_full_game


def plain_text(text: Text | str) -> str:
    return text.plain if isinstance(text, Text) else str(text)


# ----- cells: one and several -----
def test_placement_errors_name_one_cell_and_several_cells_as_players_do() -> None:
    session = started(3)
    covered = sorted(session.quilt.cells)
    game = PlainGame(session)
    one = covered[0]
    answer = game.handle(f"single {cell_name(*one)}")
    assert f"Not allowed: overlap: cell {cell_name(*one)} is already covered." in answer
    # a straight bar of cells over two covered ones: "cells c4, d4 are"
    row = next(r for r in range(9) if sum(session.quilt.is_covered(r, c) for c in range(9)) >= 2)
    taken = [(row, c) for c in range(9) if session.quilt.is_covered(row, c)][:2]
    try_line = game.handle("try " + " ".join(cell_name(*cell) for cell in taken))
    assert f"does not fit: cells {cell_name(*taken[0])}, {cell_name(*taken[1])} are already covered" in try_line
    assert "(" not in answer.split("\n")[0]  # no "(0, 2)" left in the engine's words


def test_the_full_screen_game_names_one_covered_cell_and_several() -> None:
    async def script(app: SoloApp, pilot) -> None:
        quilt = app.session.quilt
        covered = sorted(quilt.cells)
        await pilot.press("s")  # a single square: one cell
        app.ghost = app.ghost.at(*covered[0])
        app.refresh_all()
        placing = plain_text(app.query_one("#placing").render())
        assert f"cell {cell_name(*covered[0])} is already covered" in placing
        await pilot.press("enter")
        assert f"overlap: cell {cell_name(*covered[0])} is already covered" in app.message
        await pilot.press("escape")
        ghosts = [app.ghost.at(row, col) for row in range(9) for col in range(9)]
        app.ghost = next(ghost for ghost in ghosts if len(ghost.clashes(quilt)) >= 2)
        app.refresh_all()
        names = ", ".join(cell_name(*cell) for cell in sorted(app.ghost.clashes(quilt)))
        assert f"cells {names} are already covered" in plain_text(app.query_one("#placing").render())
        await pilot.press("enter")
        assert f"overlap: cells {names} are already covered" in app.message

    run_app(started(3), script)


# ----- plurals -----
def test_one_cell_is_one_cell_not_one_cells() -> None:
    for seed in range(100):  # a turn whose card has a cut that leaves a one-cell piece
        session = started(seed)
        game = PlainGame(session)
        cuts = [cut for cut in game.option().shape.cuts() if len(cut_sides(cut)[0]) == 1]
        if cuts:
            break
    answer = game.handle(f"cut {cut_name(cuts[0])} 1")
    assert "You will draw piece 1 (1 cell) of the cut " in answer and "1 cells" not in answer
    game.handle("brief on")
    assert "(1 cell, rows top to bottom)" in game.handle("show")


# ----- specials -----
def test_the_specials_line_does_not_list_a_used_special_as_left() -> None:
    session = started(5)
    free = next((r, c) for r in range(9) for c in range(9) if not session.quilt.is_covered(r, c))
    session.single(free)
    summary = specials_summary(session)
    left = summary.split(";")[0]
    assert "single" not in left.split("(")[0]
    assert left.startswith("left: neighbour, cut, twice")
    assert "twice lets you use single again" in summary and summary.endswith("used: single")
    free = next((r, c) for r in range(9) for c in range(9) if not session.quilt.is_covered(r, c))
    session.single(free)  # the second, through Twice
    assert specials_summary(session) == "left: neighbour, cut; used: single twice, twice"
    assert "Specials left: neighbour, cut; used: single twice, twice." in PlainGame(session).describe()


# ----- the cut and the final turn in the full-screen game -----
def test_the_cut_prompt_says_which_line_and_which_piece() -> None:
    async def script(app: SoloApp, pilot) -> None:
        await pilot.press("enter")  # the start card
        for _ in range(12):  # find a turn whose card can be cut
            if app.ghost.shape.cuts():
                break
            await pilot.press("p", "p")
        await pilot.press("c")
        cuts = app.cut_picking.shape.cuts()
        placing = plain_text(app.query_one("#placing").render())
        assert f"Cut line 1 of {len(cuts)}: " in placing
        assert ("below row" in placing) or ("right of column" in placing)
        assert "Keep piece 1 of 2 (" in placing and " lines" not in placing
        await pilot.press("down")
        assert "Keep piece 2 of 2" in plain_text(app.query_one("#placing").render())

    session = SoloSession.new(seed=7)
    run_app(session, script)


def test_the_final_turn_does_not_mention_brackets_it_does_not_show() -> None:
    session = started(2)
    while session.game.phase != Phase.FINAL:
        session.end()
    assert session.stage == Stage.FINAL

    async def script(app: SoloApp, pilot) -> None:
        table = plain_text(app.query_one("#table").render())
        assert "brackets" not in table and "[" not in table
        assert "Cards left: " + " ".join(session.circle()) in table

    run_app(session, script)
    assert "brackets" not in PlainGame(session).describe()


# ----- a card that fits nowhere: said at the start of the turn -----
def test_plain_says_at_the_start_of_the_turn_that_the_card_fits_nowhere_and_what_is_left() -> None:
    session, card, after = stuck_next_turn()
    game = PlainGame(session)
    answer = game.handle("pass")
    assert session.turn == 2 and session.stage == Stage.TURN
    assert f"{card} fits nowhere on your quilt. Still possible: " in answer
    assert f"the neighbour {after} (neighbour after)" in answer
    assert "a single square (single CELL)" in answer and answer.split("Still possible: ")[1].split("\n")[0].endswith(
        " or pass.")


def test_the_full_screen_game_says_it_when_the_turn_starts() -> None:
    session, card, after = stuck_next_turn()

    async def script(app: SoloApp, pilot) -> None:
        await pilot.press("p", "p")
        assert session.turn == 2
        assert f"{card} fits nowhere on your quilt. Still possible: " in app.message
        assert f"the neighbour {after} (n twice)" in app.message and app.message.endswith("or pass (p).")
        assert "fits nowhere on the quilt" in plain_text(app.query_one("#placing").render())

    run_app(session, script)


def test_a_resumed_turn_where_nothing_fits_says_so_on_opening() -> None:
    game, _ = _nearly_full_game()
    session = SoloSession(game)
    game.sheets[0].uses.update({Special.NEIGHBOUR: 1, Special.CUT: 1, Special.SINGLE: 2})
    assert session.must_pass()
    stuck = session.stuck()
    assert stuck is not None and stuck.nothing_fits and not stuck.single

    async def script(app: SoloApp, pilot) -> None:
        assert "nothing else on offer fits either, not even cut: pass (p)." in app.message
        await pilot.press("p")  # nothing fits: one press passes
        assert session.turn == 2

    run_app(session, script)


def test_must_pass_when_only_a_neighbours_piece_would_fit_but_twice_can_repeat_only_one() -> None:
    game, draw = _nearly_full_game()
    session = SoloSession(game)
    assert not session.must_pass()  # the neighbour's one-cell piece fits
    assert session.stuck().cut == (draw,)
    game.sheets[0].uses.update({Special.NEIGHBOUR: 1, Special.CUT: 1})
    assert session.must_pass()  # both used once: Twice repeats only one of them
    advice = PlainGame(session).describe()
    assert "nothing else on offer fits either, not even cut: draw a single square (single CELL) if you like, " \
           "then pass." in advice


def test_the_advice_on_the_final_turn_names_the_choice_to_pick_before_cutting() -> None:
    piece = Polyomino.from_text("#")
    stuck = Stuck(("P01", "P02", "P03"), (), (Draw("P02", CardRole.CHOICE, piece, True),), True)
    choices = ["P01", "P02", "P03"]
    assert stuck_advice(stuck, PLAIN_KEYS, choices) == (
        "None of the cards P01, P02, P03 fits anywhere on your quilt whole. Still possible: a cut piece of P02 "
        "(choose 2, then cut), a single square (single CELL) or pass.")
    assert stuck_advice(stuck, APP_KEYS, choices).endswith("a cut piece of P02 (2, then c), a single square (s) or "
                                                           "pass (p).")
