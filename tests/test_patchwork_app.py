"""The full-screen Patchwork game, driven headless with Textual's Pilot."""

from __future__ import annotations

import asyncio

from doodle.patchwork import Game
from doodle.patchwork.app import PatchworkApp
from doodle.patchwork.bots import GreedyBot
from doodle.tui.quilt_view import QuiltView


def run(app: PatchworkApp, keys: list[str]) -> None:
    async def go() -> None:
        async with app.run_test(size=(110, 45)) as pilot:
            for key in keys:
                await pilot.press(key)
                await app.workers.wait_for_complete()
                await pilot.pause()

    asyncio.run(go())


def test_placing_a_patch_with_the_ghost_then_the_bot_replies():
    game = Game.new(order=[1, 3, 2, 25, 0])  # patch 1 is the 1x3
    app = PatchworkApp(game, [None, GreedyBot()], ["you", "greedy"])
    run(app, ["1", "r", "up", "up", "up", "up", "left", "left", "left", "left", "enter"])
    first = game.move_stack[0]
    assert first.kind == "patch" and first.patch == 1
    assert first.cells == frozenset({(0, 0), (1, 0), (2, 0)})  # turned upright, pushed into the corner
    assert len(game.move_stack) >= 2 and game.current_player == 0  # the bot has answered
    assert "greedy played" in app.message


def test_the_ghost_is_red_where_it_does_not_fit_and_enter_refuses_with_the_reason():
    game = Game.from_notation(  # e5 covered, under the centred ghost
        f"current circle:1,2,0 p0:0/5/0/{1 << (4 * 9 + 4):021x} p1:0/5/0/000000000000000000000 top:0 bonus:- "
        "leather:- end:-"
    )
    app = PatchworkApp(game, [None, None], ["player 1", "player 2"])
    views: list[QuiltView] = []

    async def go() -> None:
        async with app.run_test(size=(110, 45)) as pilot:
            await pilot.press("1")
            await pilot.pause()
            views.append(app.query_one("#quilt0", QuiltView))
            assert views[0].ghost == app.ghost.cells and not views[0].ghost_fits
            await pilot.press("enter")
            await pilot.pause()
            assert "Not played: patch 1 does not fit there: cell e5 is already covered" in app.message
            await pilot.press("down")
            await pilot.pause()
            assert views[0].ghost_fits

    asyncio.run(go())
    assert game.move_stack == ()


def test_advance_undo_and_refusals():
    game = Game.new(order=[3, 1, 2, 0])  # patch 3 costs 7: too dear at the start
    app = PatchworkApp(game, [None, None], ["player 1", "player 2"])
    seen = []

    async def go() -> None:
        async with app.run_test(size=(110, 45)) as pilot:
            for keys in (["1", "enter"], ["escape", "a"], ["u"]):
                for key in keys:
                    await pilot.press(key)
                await pilot.pause()
                seen.append((app.message, game.positions, len(game.move_stack)))

    asyncio.run(go())
    assert "cannot afford patch 3: it costs 7 buttons, player 1 has 5" in seen[0][0] and seen[0][2] == 0
    assert seen[1][1:] == ((1, 0), 1)
    assert seen[2][1:] == ((0, 0), 0) and "Took back 1 move" in seen[2][0]


def test_a_leather_patch_is_placed_with_a_one_cell_ghost_and_the_game_ends():
    empty = "0" * 21
    game = Game.from_notation(f"current circle:1,0 p0:49/0/0/{empty} p1:49/0/0/{empty} top:0 bonus:- leather:- end:-")
    app = PatchworkApp(game, [None, None], ["player 1", "player 2"])
    seen = []

    async def go() -> None:
        async with app.run_test(size=(110, 45)) as pilot:
            await pilot.press("a")  # 49 -> 50: the leather patch on 50
            await pilot.pause()
            seen.append((app.ghost.cells if app.ghost else None, app.message))
            await pilot.press("up", "left", "enter")
            await pilot.pause()
            seen.append(app.message)
            await pilot.press("a", "a", "a", "a")  # 51, 52, 53, 53
            await pilot.pause()
            seen.append(app.message)

    asyncio.run(go())
    assert seen[0] == (frozenset({(4, 4)}), "You passed a leather patch: place it (1x1) with the arrows and enter.")
    assert game.quilts[0].cells == frozenset({(3, 3)})
    assert seen[1] == "player 1 played a leather patch on d4."
    a, b = game.scores()
    assert game.is_over() and seen[2] == f"Game over: {a} to {b}; player {game.winner() + 1} wins."
