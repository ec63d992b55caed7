"""The bots' judgement of a quilt: what its coming scorings are likely worth, how ragged its empty area is, and
what the special actions still in hand are worth. Everything works on a batch of after-states at once.

A scoring `t` turns away is estimated as the best planning rectangle (one in a corner of the grid) minus a price
for each cell still missing in it, counting only rectangles whose missing cells the next `t` turns (about
`cells_per_turn` each) plus the single squares left could cover. A missing cell that is walled in (no empty
neighbour) or in a walled-in domino costs more: no patch can fill it.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    walled_extra: float = 2.0  # a missing cell with no empty neighbour counts this much more
    domino_extra: float = 0.7  # a missing cell of a walled-in domino counts this much more
    later_scorings: float = 1.0  # weight of the scorings after the next one (0: look at the next one only)
    perimeter: float = 0.3  # per edge between an empty cell and a covered cell or the border
    walled: float = 2.0  # per empty cell with no empty neighbour
    domino: float = 0.8  # per cell of a walled-in empty domino
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
    walled: np.ndarray  # (n, 81) float32: empty cells with no empty neighbour
    domino: np.ndarray  # (n, 81) float32: cells of walled-in empty dominoes
    empty_count: np.ndarray  # (n,)
    perimeter: np.ndarray  # (n,)


def features(after: np.ndarray) -> Features:
    e = ~after.reshape(-1, SIZE, SIZE)
    horizontal = e[:, :, :-1] & e[:, :, 1:]
    vertical = e[:, :-1, :] & e[:, 1:, :]
    neighbours = np.zeros(e.shape, dtype=np.int8)
    neighbours[:, :, :-1] += horizontal
    neighbours[:, :, 1:] += horizontal
    neighbours[:, :-1, :] += vertical
    neighbours[:, 1:, :] += vertical
    walled = e & (neighbours == 0)
    lone = e & (neighbours == 1)
    domino_h = horizontal & lone[:, :, :-1] & lone[:, :, 1:]
    domino_v = vertical & lone[:, :-1, :] & lone[:, 1:, :]
    domino = np.zeros(e.shape, dtype=bool)
    domino[:, :, :-1] |= domino_h
    domino[:, :, 1:] |= domino_h
    domino[:, :-1, :] |= domino_v
    domino[:, 1:, :] |= domino_v
    empty_count = e.sum(axis=(1, 2))
    pairs = horizontal.sum(axis=(1, 2)) + vertical.sum(axis=(1, 2))
    n = e.shape[0]
    return Features(
        e.reshape(n, CELLS).astype(np.float32), walled.reshape(n, CELLS).astype(np.float32),
        domino.reshape(n, CELLS).astype(np.float32), empty_count, 4 * empty_count - 2 * pairs,
    )


def best_rectangles(empty: np.ndarray, allowed_missing: np.ndarray | int, corner_only: bool = False,
                    weights: np.ndarray | None = None, price: float = 0.0) -> np.ndarray:
    """For each row: the best rectangle score minus `price` per missing cell, over the rectangles whose missing
    cells (weighted by `weights`, default `empty`) number at most `allowed_missing`; 0 if there is none."""
    table = rectangles(corner_only)
    covered_max = CELLS - int(empty.sum(axis=1).min()) if len(empty) else 0
    limit = covered_max + int(np.max(allowed_missing))
    keep = table.areas <= limit
    matrix, scores = table.matrix[keep], table.scores[keep]
    missing = (empty if weights is None else weights) @ matrix.T
    allowed = np.asarray(allowed_missing, dtype=np.float32).reshape(-1, 1)
    value = np.where(missing <= allowed + 1e-6, scores - price * missing, NO_VALUE)
    best = value.max(axis=1) if value.shape[1] else np.zeros(len(empty), dtype=np.float32)
    return np.maximum(best, 0)


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
    f = features(after)
    singles = np.array([singles_left(u) for u in uses], dtype=np.float32)
    total = -weights.empty * f.empty_count.astype(np.float32)
    total -= weights.perimeter * f.perimeter + weights.walled * f.walled.sum(axis=1)
    total -= weights.domino * f.domino.sum(axis=1)
    total += np.array([reserve(u, weights, horizon.turns_left) for u in uses], dtype=np.float32)
    for k, turns in enumerate(horizon.turns_to_scorings):
        weight = 1.0 if k == 0 else weights.later_scorings
        if weight == 0:
            continue
        if turns == 0:
            pot = best_rectangles(f.empty, singles, price=weights.single)
        else:
            pressure = f.empty + weights.walled_extra * f.walled + weights.domino_extra * f.domino
            allowed = weights.cells_per_turn * turns + singles
            price = weights.missing_base + weights.missing_near / turns
            pot = best_rectangles(f.empty, allowed, corner_only=True, weights=pressure, price=price)
        total += weight * pot
    return total


def final_values(after: np.ndarray, uses: list[Uses]) -> np.ndarray:
    """The exact final score (last scoring minus empty cells) of each after-state of the final turn, the single
    squares left being drawn at the scoring where they help most."""
    e = (~after).astype(np.float32)
    singles = np.array([singles_left(u) for u in uses], dtype=np.float32)
    rect = best_rectangles(e, singles)
    return rect - np.maximum(e.sum(axis=1) - singles, 0)
