"""The bots' judgement of a quilt: what its coming scorings are likely worth, how ragged its empty area is, and
what the special actions still in hand are worth. Everything works on a batch of after-states at once.

A scoring `t` turns away is estimated as the best planning rectangle (one in a corner of the grid) minus a price
for each cell still missing in it, counting only rectangles whose missing cells the next `t` turns (about
`cells_per_turn` each) plus the single squares left could cover. A missing cell in a small walled-in pocket (an
empty area of a few cells, found with OpenCV's connected components) costs more, since only a single square or
one exact shape can fill it; a rectangle holding more such pockets than can be filled is out of reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from doodle.game.bots.options import Uses, singles_left
from doodle.game.bots.tables import CELLS, rectangles
from doodle.quilt import SIZE

NO_VALUE = np.float32(-1e6)


@dataclass(frozen=True)
class Weights:
    cells_per_turn: float = 4.0  # cells a turn is expected to add towards a rectangle
    missing_base: float = 0.5  # the price of a missing cell far from a scoring ...
    missing_near: float = 2.0  # ... plus this divided by the turns left before it
    pocket_extra: float = 1.0  # a missing cell counts 1 + this x its pocket hardness
    final_price: float = 1.0  # the missing-cell price is this much higher for the final scoring (a hole
    # anywhere costs a whole row or column of it, so only a quilt with its holes in one edge line scores well)
    later_scorings: float = 1.0  # weight of the scorings after the next one (0: look at the next one only)
    perimeter: float = 0.3  # per edge between an empty cell and a covered cell or the border
    pocket: float = 1.0  # per unit of pocket hardness of the empty cells
    # How hard an empty cell is to cover, by the size (1, 2, ...) of the empty area (4-connected) it lies in: a
    # walled-in cell takes a single square or the 1-cell card, a small pocket one exact shape; big areas are easy.
    pocket_hardness: tuple[float, ...] = (3.0, 2.5, 2.0, 1.5, 0.8, 0.4)
    # A rectangle is out of reach when it holds more pockets (empty areas of at most `pocket_size` cells) than the
    # single squares left plus `pockets_per_turn` per turn can fill (pocket_size 0: no such limit).
    pocket_size: int = 0
    pockets_per_turn: float = 0.3
    empty: float = 1.0  # per empty cell (the final penalty)
    single: float = 3.0  # the worth of a single square kept in hand
    neighbour: float = 1.5
    cut: float = 1.5
    twice: float = 2.0


@dataclass(frozen=True)
class Horizon:
    """When the scorings still to come are, in turns from the state evaluated (0: right after it)."""

    turns_to_scorings: tuple[int, ...]

    @classmethod
    def after_turn(cls, round_: int, turn: int, rounds: int = 3, turns_per_round: int = 6) -> Horizon:
        """The horizon once the draw of `turn` in `round_` is made (turn 0: the start card)."""
        left = turns_per_round - turn
        return cls(tuple(left + turns_per_round * k for k in range(rounds - round_ + 1)))

    @property
    def turns_left(self) -> int:
        return self.turns_to_scorings[-1] if self.turns_to_scorings else 0


@dataclass
class Features:
    empty: np.ndarray  # (n, 81) float32: 1 where empty
    hardness: np.ndarray  # (n, 81) float32: the pocket hardness of the empty area each cell lies in
    pockets: np.ndarray  # (n, 81) float32: 1 / size on the cells of small pockets (a sum counts pockets)
    empty_count: np.ndarray  # (n,)
    perimeter: np.ndarray  # (n,)


@lru_cache(maxsize=16)
def _hardness_table(hardness: tuple[float, ...]) -> np.ndarray:
    table = np.zeros(CELLS + 1, dtype=np.float32)
    table[1 : len(hardness) + 1] = hardness
    return table


def features(after: np.ndarray, hardness: tuple[float, ...], pocket_size: int = 0) -> Features:
    n = after.shape[0]
    e = ~after.reshape(n, SIZE, SIZE)
    horizontal = e[:, :, :-1] & e[:, :, 1:]
    vertical = e[:, :-1, :] & e[:, 1:, :]
    # label the empty areas of all the quilts at once: stacked, with a covered row between two quilts
    image = np.zeros((n, SIZE + 1, SIZE), dtype=np.uint8)
    image[:, :SIZE] = e
    _, labels, stats, _ = cv2.connectedComponentsWithStats(image.reshape(-1, SIZE), connectivity=4)
    sizes = stats[:, cv2.CC_STAT_AREA].copy()
    sizes[0] = 0  # the covered background
    area = np.take(sizes, labels).reshape(n, SIZE + 1, SIZE)[:, :SIZE]
    empty_count = e.sum(axis=(1, 2))
    pairs = horizontal.sum(axis=(1, 2)) + vertical.sum(axis=(1, 2))
    area = area.reshape(n, CELLS)
    small = (area > 0) & (area <= pocket_size)
    pockets = np.where(small, 1.0 / np.maximum(area, 1), 0.0).astype(np.float32)
    return Features(
        e.reshape(n, CELLS).astype(np.float32), np.take(_hardness_table(hardness), area), pockets,
        empty_count, 4 * empty_count - 2 * pairs,
    )


def best_rectangles(empty: np.ndarray, allowed_missing: np.ndarray | int, corner_only: bool = False,
                    weights: np.ndarray | None = None, price: float = 0.0, pockets: np.ndarray | None = None,
                    allowed_pockets: np.ndarray | None = None) -> np.ndarray:
    """For each row: the best rectangle score minus `price` per missing cell, over the rectangles whose missing
    cells (weighted by `weights`, default `empty`) number at most `allowed_missing` (and, if given, that hold
    at most `allowed_pockets` small pockets, counted by `pockets`); 0 if there is none."""
    table = rectangles(corner_only)
    covered_max = CELLS - int(empty.sum(axis=1).min()) if len(empty) else 0
    limit = covered_max + int(np.max(allowed_missing))
    keep = table.areas <= limit
    matrix, scores = table.matrix[keep], table.scores[keep]
    missing = (empty if weights is None else weights) @ matrix.T
    allowed = np.asarray(allowed_missing, dtype=np.float32).reshape(-1, 1)
    feasible = missing <= allowed + 1e-6
    if pockets is not None and allowed_pockets is not None:
        feasible &= pockets @ matrix.T <= allowed_pockets.reshape(-1, 1) + 1e-3
    value = np.where(feasible, scores - price * missing, NO_VALUE)
    best = value.max(axis=1) if value.shape[1] else np.zeros(len(empty), dtype=np.float32)
    return np.maximum(best, 0)


@lru_cache(maxsize=1024)
def reserve(uses: Uses, weights: Weights, turns_left: int) -> float:
    """What the special actions still in hand are worth (Neighbour and Cut fade as the game runs out)."""
    fade = min(1.0, turns_left / 6)
    value = 0.0
    if uses[0] == 0:
        value += weights.neighbour * fade
    if uses[1] == 0:
        value += weights.single
    if uses[2] == 0:
        value += weights.cut * fade
    if max(uses) < 2:
        value += weights.twice
    return value


def evaluate(after: np.ndarray, uses: list[Uses], horizon: Horizon, weights: Weights) -> np.ndarray:
    """The estimated worth of each after-state (row of `after`, with its specials `uses[i]`): the coming
    scorings, less the final penalty and raggedness, plus the specials in hand."""
    f = features(after, weights.pocket_hardness, weights.pocket_size)
    singles = np.array([singles_left(u) for u in uses], dtype=np.float32)
    total = -weights.empty * f.empty_count.astype(np.float32)
    total -= weights.perimeter * f.perimeter + weights.pocket * f.hardness.sum(axis=1)
    total += np.array([reserve(u, weights, horizon.turns_left) for u in uses], dtype=np.float32)
    pressure = f.empty + weights.pocket_extra * f.hardness
    for k, turns in enumerate(horizon.turns_to_scorings):
        weight = 1.0 if k == 0 else weights.later_scorings
        if weight == 0:
            continue
        if turns == 0:
            pot = best_rectangles(f.empty, singles, price=weights.single)
        else:
            allowed = weights.cells_per_turn * turns + singles
            price = weights.missing_base + weights.missing_near / turns
            if k == len(horizon.turns_to_scorings) - 1:
                price *= weights.final_price
            limit = singles + weights.pockets_per_turn * turns if weights.pocket_size else None
            pot = best_rectangles(f.empty, allowed, corner_only=True, weights=pressure, price=price,
                                  pockets=f.pockets, allowed_pockets=limit)
        total += weight * pot
    return total


def final_values(after: np.ndarray, uses: list[Uses]) -> np.ndarray:
    """The exact final score (last scoring minus empty cells) of each after-state of the final turn, the single
    squares left being drawn at the scoring where they help most."""
    e = (~after).astype(np.float32)
    singles = np.array([singles_left(u) for u in uses], dtype=np.float32)
    rect = best_rectangles(e, singles)
    return rect - np.maximum(e.sum(axis=1) - singles, 0)
