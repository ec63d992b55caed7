"""Shared by the solo tests: a started session, the full-screen game run headless, and a turn whose card fits
nowhere."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from doodle.quilt import FULL, Quilt, mask_of
from doodle.solo.app import SoloApp
from doodle.solo.session import SoloSession
from doodle.tui.ghost import Ghost

SIZE = (110, 36)


def started(seed: int) -> SoloSession:
    session = SoloSession.new(seed=seed)
    start = session.options()[0]
    session.draw(start.card, Ghost.centred(start.shape).cells)
    return session


def run_app(session: SoloSession, script: Callable[[SoloApp, object], Awaitable[None]],
            size: tuple[int, int] = SIZE) -> SoloApp:
    app = SoloApp(session)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(main())
    return app


def stuck_next_turn() -> tuple[SoloSession, str, str]:
    """A session on turn 1 whose quilt leaves empty just the shape of the next turn's after-neighbour, where the
    next turn's card does not fit: (session, that card, the neighbour)."""
    for seed in range(300):
        session = started(seed)
        dealer = session.game.dealer.clone()  # the same die: the next turn's card is known
        dealer.end_turn()
        dealer.roll()
        card, (_, after) = dealer.current_card, dealer.neighbours()
        region = session.game.deck.card(after).shape
        quilt = Quilt(FULL & ~mask_of(region.cells))
        if not quilt.can_place(session.game.deck.card(card).shape):
            session.sheet.quilt = quilt
            return session, card, after
    raise AssertionError("no such seed")
