"""The full-screen solo game, driven headless with Textual's Pilot: keys move, rotate, mirror and draw the
ghost; illegal moves show the engine's reason; pass, help, specials; quitting saves."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from doodle.game.sheet import Special
from doodle.solo.app import GameOverScreen, HelpScreen, SoloApp
from doodle.solo.session import CardRole, SoloSession, Stage
from doodle.tui.ghost import Ghost
from doodle.tui.quilt_view import QuiltView
from tests.solo_helpers import SIZE, run_app, stuck_next_turn


def run(seed: int, script: Callable[[SoloApp, object], Awaitable[None]], saves: list | None = None) -> SoloApp:
    session = SoloSession.new(seed=seed, on_change=(lambda game: saves.append(game.to_record())) if saves is not None
                              else None)
    return run_app(session, script)


async def draw_start(app: SoloApp, pilot) -> None:
    await pilot.press("enter")
    assert app.session.stage == Stage.TURN


def test_arrows_move_r_rotates_m_mirrors_and_enter_draws():
    async def script(app: SoloApp, pilot) -> None:
        start = app.ghost
        await pilot.press("right", "down", "down")
        assert (app.ghost.row, app.ghost.col) == (start.row + 2, start.col + 1)
        await pilot.press("r")
        assert app.ghost.turns == 1
        await pilot.press("e")
        assert app.ghost.turns == 0
        await pilot.press("m")
        assert app.ghost.mirrored
        cells = app.ghost.cells
        await pilot.press("enter")
        assert app.session.quilt.cells == cells
        assert app.session.stage == Stage.TURN
        assert "Drew" in app.message

    run(3, script)


def test_illegal_placement_shows_the_reason_and_changes_nothing():
    async def script(app: SoloApp, pilot) -> None:
        await draw_start(app, pilot)
        covered = app.session.quilt.cells
        # put the ghost on top of the start card
        app.ghost = app.ghost.centred_on(*sorted(covered)[3])
        assert not app.ghost.fits(app.session.quilt)
        await pilot.press("enter")
        assert "Not allowed" in app.message and "overlap" in app.message
        assert app.session.quilt.cells == covered and app.session.turn == 1

    run(4, script)


def test_keys_that_make_no_sense_now_explain_and_do_not_break():
    async def script(app: SoloApp, pilot) -> None:
        await pilot.press("p")
        assert "cannot be passed" in app.message
        await pilot.press("s")
        assert "start card" in app.message
        await pilot.press("1", "x", "escape", "z", "n", "c", "tab", "shift+tab")
        assert app.session.stage == Stage.START
        await draw_start(app, pilot)

    run(5, script)


def test_pass_needs_a_second_press():
    async def script(app: SoloApp, pilot) -> None:
        await draw_start(app, pilot)
        await pilot.press("p")
        assert app.session.turn == 1 and "again" in app.message
        await pilot.press("p")
        assert app.session.turn == 2 and app.session.quilt.covered_count() == 7

    run(6, script)


def test_help_lists_the_keys_and_closes_on_any_key():
    async def script(app: SoloApp, pilot) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("left")
        assert not isinstance(app.screen, HelpScreen)
        assert app.session.stage == Stage.START

    run(7, script)


def test_single_square_special():
    async def script(app: SoloApp, pilot) -> None:
        await draw_start(app, pilot)
        await pilot.press("s")
        assert len(app.ghost.cells) == 1
        await pilot.press("tab", "enter")
        assert app.session.uses(Special.SINGLE) == 1
        assert app.session.quilt.covered_count() == 8
        assert app.session.turn == 1  # a single square does not end the turn
        assert len(app.ghost.cells) > 1  # back to the card

    run(8, script)


def test_neighbour_and_cut_specials():
    async def script(app: SoloApp, pilot) -> None:
        await draw_start(app, pilot)
        await pilot.press("n")
        assert app.option().role == CardRole.BEFORE
        await pilot.press("n")
        assert app.option().role == CardRole.AFTER
        whole = app.option().shape
        await pilot.press("c")
        if not whole.cuts():
            assert "no legal straight cut" in app.message
            return
        assert app.cut_picking is not None
        await pilot.press("down")  # the other piece
        assert app.cut_picking.side == 1
        await pilot.press("enter")  # keep it
        assert app.cut is not None and app.ghost.shape.size < whole.size
        await pilot.press("tab", "enter")
        assert app.session.uses(Special.NEIGHBOUR) == 1 and app.session.uses(Special.CUT) == 1
        assert app.session.turn == 2

    run(9, script)


def test_a_whole_game_by_keys_reaches_the_scorings_and_the_end():
    seen_highlight = []

    async def script(app: SoloApp, pilot) -> None:
        for _ in range(40):
            stage = app.session.stage
            if stage == Stage.OVER:
                break
            if stage == Stage.SCORING:
                view = app.query_one("#quilt")
                assert view.highlight == app.session.best_rectangle().cells
                seen_highlight.append(str(app.session.best_rectangle().score) in app.message)
                if app.session.round == 1:  # a single square before the scoring
                    await pilot.press("s", "tab", "enter")
                    assert app.session.uses(Special.SINGLE) == 1 and app.session.stage == Stage.SCORING
                    assert view.highlight == app.session.best_rectangle().cells
                await pilot.press("enter")
            elif stage == Stage.FINAL and app.option_index == 0:
                await pilot.press("3")
                assert app.option().card == app.session.game.offer().choices[2]
                assert "▶ 3:" in str(app.query_one("#cards").render())
            elif not app.session.can_place(app.ghost.base):
                await pilot.press("p", "p")
            else:
                await pilot.press("tab", "enter")
        assert app.session.stage == Stage.OVER
        assert isinstance(app.screen, GameOverScreen)
        assert len(app.session.round_scores()) == 3

    saves: list = []
    run(12, script, saves)
    assert seen_highlight == [True, True, True]
    assert saves and saves[-1]["over"]


def test_q_and_ctrl_c_save_and_quit():
    for key in ("q", "ctrl+c"):
        saves: list = []

        async def script(app: SoloApp, pilot, key=key, saves=saves) -> None:
            await draw_start(app, pilot)
            count = len(saves)
            await pilot.press(key)
            assert len(saves) == count + 1
            assert app.return_code == 0  # the app has exited

        run(10, script, saves)


def test_the_help_page_names_every_bound_key():
    from doodle.solo.app import HELP

    shown = {"left": "←", "right": "→", "up": "↑", "down": "↓", "question_mark": "?", "escape": "esc"}
    for binding in SoloApp.BINDINGS:
        assert shown.get(binding.key, binding.key) in HELP, binding.key


def test_a_resumed_game_opens_where_it_was():
    from doodle.game.game import DoodleGame

    session = SoloSession.new(seed=13)
    session.draw(session.options()[0].card, Ghost.centred(session.options()[0].shape).cells)
    session.end()
    resumed = SoloSession(DoodleGame.replay(session.game.to_record()))
    app = SoloApp(resumed)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "Welcome back: round 1, turn 2" in app.message
            assert app.query_one("#quilt").board == session.quilt
            assert app.ghost.fits(session.quilt)  # the patch starts where it can be drawn

    asyncio.run(main())



def test_the_quilt_scales_to_the_terminal_and_the_key_line_stays_whole(tmp_path):
    """120x40: the quilt drawn 3x, most of the screen's height; 80x24: 1x, and every key of the footer on the
    screen, also with a long message (the advice when the card fits nowhere) above it."""
    for (width, height), scale in (((120, 40), 3), ((80, 24), 1)):
        session, _, _ = stuck_next_turn()
        app = SoloApp(session)

        async def main(app=app, width=width, height=height, scale=scale) -> None:
            async with app.run_test(size=(width, height)) as pilot:
                await pilot.pause()
                await pilot.press("p", "p")  # the next turn: its card fits nowhere, a long message says so
                await pilot.pause()
                assert "fits nowhere" in app.message
                view = app.query_one("#quilt", QuiltView)
                assert view.scale == scale
                message = app.query_one("#message")
                assert view.region.bottom <= message.region.y and view.region.right <= width
                assert view.region.height >= 9 * scale + 1
                keys = list(app.query("FooterKey"))
                assert len(keys) == sum(binding.show for binding in SoloApp.BINDINGS)
                assert all(key.region.right <= width and key.region.y == height - 1 for key in keys)
                assert message.region.bottom <= height - 1
                if width == 120:
                    assert view.region.height >= 0.7 * height and view.region.width >= 0.45 * width
                app.save_screenshot(f"solo-{width}x{height}.svg", str(tmp_path))

        asyncio.run(main())
        svg = (tmp_path / f"solo-{width}x{height}.svg").read_text()
        assert "quit" in svg and "fits&#160;nowhere" in svg
