"""Synthetic phone photos of sheets filled in by games actually played: a bot's solo game through the engine.

`tests/photogen.py` fills a sheet at random (any quilt, any specials, any round scores), which is what the reader
must survive but not what a player ever shows it. Here the sheet is drawn from a solo record (`doodle solo --bot
expert --seed N --json`, or `solo_record(play_solo(...))`): every patch the bot drew, outlined and then shaded as
a player does, the single squares, the special boxes the game crossed off, the round scores written in their boxes
and filled in the bubbles, the penalty and the total written by hand. So the quilt, the specials and the round
scores (the best rectangle of the quilt at each scoring) agree, and so does the total. The camera is
`photogen`'s, at its levels (mild, moderate, harsh), with an optional hard shadow placed on the sheet:
along a row of the grid or clipping the right margin, the two cases a reader finds hardest.

    record = played_game(3, "expert")
    photo = photo_of_game(record, "moderate", shadow="row")
    photo.truth            # a photogen.Truth: quilt, specials_used, round_scores

    python3 -m tests.photogen_game examples/photos expert:3:mild expert:11:moderate:row ...
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from doodle.game.bots import get_bot, play_solo
from doodle.game.solo_record import solo_record, verify_solo_record
from doodle.quilt import Quilt
from doodle.sheet import layout as L
from doodle.sheet.pdf import sheet_id
from tests.photogen import (
    CONDITIONS,
    Cell,
    Conditions,
    SyntheticPhoto,
    Truth,
    _page,
    _PageDrawer,
    finish_photo,
    frame_page,
    photograph_page,
)

SHADOWS: dict[str, tuple[tuple[float, float], ...]] = {
    # the top of the sheet in shadow, its edge slanting across the interiors of row 2's cells
    "row": ((-600.0, -600.0), (800.0, -600.0), (800.0, L.GRID_RECT.y + 1.5 * L.CELL_MM + 2.0 + 610 * 4 / 190),
            (-600.0, L.GRID_RECT.y + 1.5 * L.CELL_MM - 2.0 - 600 * 4 / 190)),
    # a shadow over the right margin, beside the grid but not on it
    "margin": ((L.GRID_RECT.x2 + 3.0, 60.0), (L.GRID_RECT.x2 + 6.0, 45.0), (800.0, 0.0), (800.0, 250.0),
               (L.GRID_RECT.x2 + 5.0, 160.0), (L.GRID_RECT.x2 + 2.5, 120.0)),
}
"""Hard shadows as polygons in sheet millimetres (the edge is what matters; they reach past the sheet)."""
SHADOW_STRENGTH = {"row": 0.42, "margin": 0.35}
PENUMBRA_MM = 1.2  # a hard shadow's edge is still a little soft


def played_game(seed: int, bot: str = "expert") -> dict[str, Any]:
    """The solo record of `bot`'s game from `seed`, as `doodle solo --bot BOT --seed SEED --json` writes it."""
    return solo_record(play_solo(get_bot(bot), seed=seed), bot)


def game_patches(record: dict[str, Any]) -> list[frozenset[Cell]]:
    """What the player drew, in the order drawn: the start card, every patch (or cut piece), every single square."""
    entries = [record["start"]["action"]] if record.get("start") else []
    for step in (*record["turns"], *record["scorings"]):
        entries.extend(step["actions"])
    patches = []
    for action in entries:
        if action["type"] == "draw":
            patches.append(frozenset((int(r), int(c)) for r, c in action["cells"]))
        elif action["type"] == "single":
            patches.append(frozenset({(int(action["cell"][0]), int(action["cell"][1]))}))
    return patches


def game_truth(record: dict[str, Any], paper: str = "a4", number: int = 1) -> Truth:
    """What the finished game's sheet shows. The record is replayed first (verify_solo_record), so a record whose
    quilt, scores or total disagree with its own moves is refused."""
    game = verify_solo_record(record)
    if not game.is_over():
        raise ValueError("the game is not finished: its sheet has round scores missing")
    sheet = game.sheets[0]
    scores = tuple(sheet.round_scores)
    return Truth(sheet.quilt, tuple(s.value for s in sheet.crossed_off()), (scores[0], scores[1], scores[2]),
                 sheet_id(number), paper)


def photo_of_game(record: dict[str, Any], level: str | Conditions = "moderate", *, photo_seed: int = 0,
                  paper: str = "a4", number: int = 1, shadow: str | None = None,
                  megapixels: float | None = None) -> SyntheticPhoto:
    """A photo of the sheet a finished solo game leaves, under `level`'s conditions, drawn from `photo_seed`.
    `shadow` ("row" or "margin") places a hard shadow on the sheet instead of photogen's random one."""
    cond = CONDITIONS[level] if isinstance(level, str) else level
    if shadow is not None:
        if shadow not in SHADOWS:
            raise ValueError(f"unknown shadow {shadow!r}: expected one of {', '.join(SHADOWS)}")
        cond = replace(cond, shadow_probability=0.0)
    rng = np.random.default_rng([photo_seed, int(record["seed"]), sum(map(ord, f"{record['bot']} {cond.name}"))])
    truth = game_truth(record, paper, number)
    details: dict = {}

    photo_size, photo_corners, px_per_mm = frame_page(rng, cond, paper, megapixels, details)
    page = _page(paper, number, px_per_mm).copy()
    slot = L.page_slots(paper)[0]
    truth = replace(truth, styles=_fill_in(_PageDrawer(page, slot, px_per_mm, rng), record, truth, cond, rng))
    photo, sheet_to_photo = photograph_page(rng, page, paper, photo_size, photo_corners)
    if shadow is not None:
        _cast_shadow(photo, sheet_to_photo, SHADOWS[shadow], SHADOW_STRENGTH[shadow])
        details["shadow"] = f"{shadow} ({SHADOW_STRENGTH[shadow]})"
    return finish_photo(rng, cond, photo, sheet_to_photo, photo_seed, truth, paper, details)


def _fill_in(drawer: _PageDrawer, record: dict[str, Any], truth: Truth, cond: Conditions,
             rng: np.random.Generator) -> dict[Cell, str]:
    """Draw the game on the page as a player would: each patch outlined, then shaded, mostly with one pencil.
    Returns the style each cell was shaded in."""
    pencil = cond.styles[rng.integers(len(cond.styles))]
    styles: dict[Cell, str] = {}
    for cells in game_patches(record):
        style = pencil if rng.random() < 0.8 else cond.styles[rng.integers(len(cond.styles))]
        drawer.outline(cells, strength=rng.uniform(0.55, 0.85))
        drawer.shade_patch(cells, style)
        styles.update(dict.fromkeys(cells, style))
    for name in truth.specials_used:
        drawer.cross(L.special_box(name).check)
    for block, score in zip(L.ROUNDS, truth.round_scores, strict=True):
        drawer.fill_bubble(block.number, "tens", score // 10)
        drawer.fill_bubble(block.number, "units", score % 10)
        drawer.handwriting(block.write, str(score), 7.0)
    empty = truth.quilt.empty_count()
    for box, text in ((L.PENALTY_RECT, f"-{empty}"), (L.TOTAL_RECT, str(sum(truth.round_scores) - empty))):
        drawer.handwriting(L.Rect(box.x + 3.0, box.y + 4.0, box.w - 6.0, 7.5), text, 6.5)
    name_box = L.Rect(L.NAME_RECT.x + 13, L.NAME_RECT.y, L.NAME_RECT.w - 13, L.NAME_RECT.h)
    drawer.handwriting(name_box, f"{record['bot'] or 'solo'} bot, seed {record['seed']}", 5.0)
    return styles


def _cast_shadow(photo: np.ndarray, sheet_to_photo: np.ndarray, polygon_mm: tuple[tuple[float, float], ...],
                 strength: float) -> None:
    """Darken the photo by `strength` inside a polygon given in sheet mm (in place), with a narrow soft edge."""
    points = cv2.perspectiveTransform(np.array([polygon_mm], np.float64), sheet_to_photo)[0]
    mask = np.zeros(photo.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(points * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    edge = cv2.perspectiveTransform(np.array([[(100.0, 100.0), (100.0 + PENUMBRA_MM, 100.0)]]), sheet_to_photo)[0]
    sigma = max(0.5, float(np.linalg.norm(edge[1] - edge[0])) / 2)
    gain = 1.0 - strength * cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), sigma)
    photo[:] = np.clip(photo.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


def truth_json(photo: SyntheticPhoto, record: dict[str, Any], command: str) -> dict[str, Any]:
    """The truth file of an example photo: the game it shows (seed, bot), the layout, the conditions, the sheet."""
    truth = photo.truth
    return {
        "generator": command,
        "game": {"seed": record["seed"], "bot": record["bot"], "round_scores": record["round_scores"],
                 "empty": record["empty"], "total": record["total"]},
        "layout": L.LAYOUT_VERSION,
        "sheet_id": truth.sheet_id,
        "level": photo.conditions.name,
        "photo_seed": photo.seed,
        "conditions": {k: list(v) if isinstance(v, tuple) else v for k, v in photo.details.items()},
        **truth.to_json(),
    }


def expected_json(truth: Truth) -> dict[str, Any]:
    """What `doodle score --json` must say of the photo (the fields the sheet decides)."""
    quilt: Quilt = truth.quilt
    rectangle = quilt.best_rectangle()
    empty = quilt.empty_count()
    return {
        "quilt": quilt.rows(),
        "empty": empty,
        "rectangle": rectangle.to_dict() if rectangle else None,
        "specials_used": list(truth.specials_used),
        "round_scores": list(truth.round_scores),
        "total": sum(truth.round_scores) - empty,
    }


def main(argv: list[str] | None = None) -> None:
    """Write photos of played games: python3 -m tests.photogen_game OUT_DIR BOT:SEED:LEVEL[:SHADOW[:PAPER]] ..."""
    import argparse
    from pathlib import Path

    parser = argparse.ArgumentParser(prog="python3 -m tests.photogen_game", description=main.__doc__)
    parser.add_argument("out", type=Path, help="folder to write NAME.jpg, NAME.truth.json and NAME.json into")
    parser.add_argument("photos", nargs="+", help="BOT:SEED:LEVEL[:SHADOW[:PAPER]], e.g. expert:11:moderate:row")
    parser.add_argument("--first-id", type=int, default=1, help="the sheet id of the first photo (then one more each)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for number, spec in enumerate(args.photos, start=args.first_id):
        bot, seed, level, *rest = spec.split(":")
        shadow = rest[0] or None if rest else None
        paper = rest[1] if len(rest) > 1 else "a4"
        record = played_game(int(seed), bot)
        photo = photo_of_game(record, level, shadow=shadow, paper=paper, number=number)
        name = f"{bot}-{seed}-{level}" + (f"-{shadow}-shadow" if shadow else "")
        photo.save(str(args.out / f"{name}.jpg"))
        command = f"python3 -m tests.photogen_game {args.out} {spec} --first-id {number}"
        files = {".truth.json": truth_json(photo, record, command), ".json": expected_json(photo.truth)}
        for suffix, data in files.items():
            (args.out / f"{name}{suffix}").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"{name}.jpg: rounds {record['round_scores']}, {record['empty']} empty, total {record['total']}; "
              f"{photo.details}")


if __name__ == "__main__":
    main()
