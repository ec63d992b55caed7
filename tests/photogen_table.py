"""Synthetic photos of a sheet as it stands at a scoring of a table game: a given quilt, the specials crossed so far
and the round scores filled in so far (None: the bubbles left empty), through photogen's camera.

`photogen_game.photo_of_game` draws a finished game; a table asks for a photo after every round, and a test
wants to draw a quilt it chose (one cell changed, a cell lost), so this draws the cells it is given.
"""

from __future__ import annotations

import cv2
import numpy as np

from doodle.game.bots import get_bot
from doodle.game.game import DoodleGame
from doodle.quilt import Quilt
from doodle.sheet import layout as L
from tests.photogen import CONDITIONS, RENDER_LEVELS, _degrade, _page, _PageDrawer, _photo_size, _project_page, _table


def sheet_photo(quilt: Quilt, specials: tuple[str, ...] = (), round_scores: tuple[int | None, ...] = (),
                *, seed: int = 0, level: str = "mild", megapixels: float = 2.0) -> bytes:
    """A JPEG of an A4 doodle sheet holding `quilt` (shaded with a pencil), `specials` crossed and `round_scores`
    filled in the bubbles, photographed under `level`'s conditions at `megapixels`."""
    cond = CONDITIONS[level]
    rng = np.random.default_rng([seed, quilt.bits % (1 << 60), 14])
    photo_size = _photo_size(rng, cond, megapixels, sheet_upright=True)
    page_mm = L.page_size("a4")
    rotation = rng.uniform(-cond.max_small_rotation_deg, cond.max_small_rotation_deg)
    corners = _project_page(rng, cond, page_mm, photo_size, rotation, {})
    needed = max(np.linalg.norm(corners[1] - corners[0]) / page_mm[0],
                 np.linalg.norm(corners[3] - corners[0]) / page_mm[1])
    px_per_mm = next((k for k in RENDER_LEVELS if k >= needed * 1.2), RENDER_LEVELS[-1])
    page = _page("a4", 1, px_per_mm).copy()
    drawer = _PageDrawer(page, L.page_slots("a4")[0], px_per_mm, rng)
    if quilt.cells:
        drawer.shade_patch(quilt.cells, cond.styles[0])
    for name in specials:
        drawer.cross(L.special_box(name).check)
    for block, score in zip(L.ROUNDS, round_scores, strict=False):
        if score is not None:
            drawer.fill_bubble(block.number, "tens", score // 10)
            drawer.fill_bubble(block.number, "units", score % 10)
    page_px = np.array([[0, 0], [page.shape[1], 0], [page.shape[1], page.shape[0]], [0, page.shape[0]]], np.float32)
    photo = _table(rng, photo_size)
    cv2.warpPerspective(cv2.cvtColor(page, cv2.COLOR_RGB2BGR), cv2.getPerspectiveTransform(page_px, corners),
                        photo_size, dst=photo, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    photo = _degrade(rng, cond, photo, {})
    ok, encoded = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return encoded.tobytes()


def table_game(players: int, seed: int, bot: str = "greedy") -> list[list[tuple[Quilt, tuple[str, ...], int]]]:
    """A game of `players` bots dealt from `seed` (what a table with that many seats and that seed deals): for each
    player, what the sheet shows at each scoring (the quilt, the specials crossed off by then, the round's score)."""
    game = DoodleGame.new(players, seed, names=[f"{bot} {n}" for n in range(1, players + 1)])
    bots = [get_bot(bot) for _ in range(players)]
    seen: list[list[tuple[Quilt, tuple[str, ...], int]]] = [[] for _ in range(players)]
    while not game.is_over():
        for player in game.waiting_for():
            for action in bots[player].act(game, player):
                game.apply(player, action)
        for player, sheet in enumerate(game.sheets):
            if len(sheet.round_scores) > len(seen[player]):
                seen[player].append((sheet.quilt, tuple(s.value for s in sheet.crossed_off()), sheet.round_scores[-1]))
    return seen
