"""Patchwork engine speed, run by hand: `python benchmarks/bench_patchwork_speed.py [--seconds 10]`.

- random games per second: uniform over `legal_moves()`, each move through `play()` (checked), driven from a
  Python loop through the public API, a new seeded game each time;
- legal-move generation in the start position and in the largest position (1345 moves), against a baseline
  that asks the quilt for each patch's placements (Quilt.placements(shape): the same masks, but looked up and
  wrapped per call) to show what the precomputed Move tables buy;
- MCTS playouts per second in the start position.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
import timeit

from doodle.patchwork import ADVANCE, PATCHES, Game
from doodle.patchwork.bots import MctsBot
from doodle.quilt import Quilt


def random_games(seconds: float) -> dict:
    rng = random.Random(0)
    games = moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        game = Game.new(seed=games)
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
            moves += 1
        games += 1
    elapsed = time.perf_counter() - started
    return {"games": games, "games_per_second": round(games / elapsed, 1), "moves_per_game": round(moves / games, 1)}


def baseline_moves(game: Game) -> list:
    """Legal moves built from Quilt.placements per call (no precomputed Move objects)."""
    p = game.current_player
    quilt = Quilt(game.quilts[p].bits)
    moves = [ADVANCE]
    for patch in game.choices():
        if patch.cost <= game.buttons[p]:
            moves += [(patch.number, placement.cells) for placement in quilt.placements(patch.shape)]
    return moves


def per_call_us(function, repeat: int = 7, number: int = 500) -> float:
    return round(min(timeit.repeat(function, repeat=repeat, number=number)) / number * 1e6, 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to play random games")
    args = parser.parse_args()
    start = Game.new(seed=1)
    big = [p.number for p in PATCHES if p.cost <= 5 and len(Quilt().placements(p.shape)) == 448][:3]
    largest = Game.new(order=[*big, 0])
    assert len(largest.legal_moves()) == 1345
    mcts = MctsBot(iterations=300, seed=1)
    t = time.perf_counter()
    mcts.choose(start)
    mcts_rate = round(300 / (time.perf_counter() - t))
    report = {
        "machine": f"{platform.processor() or platform.machine()}, Python {platform.python_version()}",
        "random_games": random_games(args.seconds),
        "legal_moves_start_us": per_call_us(start.legal_moves),
        "legal_moves_start_count": len(start.legal_moves()),
        "baseline_start_us": per_call_us(lambda: baseline_moves(start)),
        "legal_moves_1345_us": per_call_us(largest.legal_moves),
        "baseline_1345_us": per_call_us(lambda: baseline_moves(largest)),
        "mcts_playouts_per_second_start": mcts_rate,
        "load_average_1min": round(os.getloadavg()[0], 1),
    }
    report["speedup_start"] = round(report["baseline_start_us"] / report["legal_moves_start_us"], 1)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
