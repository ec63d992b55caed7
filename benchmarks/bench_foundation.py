"""Foundation speed: best_rectangle against checking every rectangle cell by cell, legal placements on a
half-full quilt, and a whole auto-dealt game. Run by hand: `python benchmarks/bench_foundation.py`."""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

from doodle.game.dealer import Dealer
from doodle.game.deck import load_deck
from doodle.game.table import table_events
from doodle.quilt import FULL, Quilt, placements_on_empty

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.oracles when run as a script
from tests.oracles import brute_force_best_score  # noqa: E402


def random_quilts(count: int, seed: int = 1) -> list[Quilt]:
    rng = random.Random(seed)
    quilts = []
    for _ in range(count):
        density = rng.choice([0.3, 0.5, 0.7, 0.85, 0.95])
        quilts.append(Quilt(sum(1 << i for i in range(81) if rng.random() < density) & FULL))
    return quilts


def progress(label: str, done: int, total: int) -> None:
    if done % max(1, total // 20) == 0 or done == total:
        print(f"\r{label}: {done}/{total}", end="", file=sys.stderr, flush=True)
        if done == total:
            print(file=sys.stderr)


def main() -> None:
    quilts = random_quilts(10_000)
    start = time.perf_counter()
    fast = [q.score_rectangle() for q in quilts]
    fast_seconds = time.perf_counter() - start
    start = time.perf_counter()
    slow = []
    for i, quilt in enumerate(quilts, 1):
        slow.append(brute_force_best_score(quilt))
        progress("brute force", i, len(quilts))
    slow_seconds = time.perf_counter() - start
    assert fast == slow, "best_rectangle disagrees with the brute force"
    print(f"best_rectangle over 10,000 random quilts: {fast_seconds * 1e6 / len(quilts):.1f} us/quilt; "
          f"brute force {slow_seconds * 1e6 / len(quilts):.0f} us/quilt; speed-up x{slow_seconds / fast_seconds:.0f}")

    deck = load_deck()
    rng = random.Random(2)
    half_full = []
    for _ in range(200):
        cells = rng.sample(range(81), 40)
        half_full.append(Quilt(sum(1 << c for c in cells)))
    shapes = [card.shape for card in deck.patch_cards + deck.start_cards]
    for shape in shapes:
        placements_on_empty(shape)  # warm the per-shape mask cache, as a running game has
    timings = []
    for quilt in half_full:
        for shape in shapes:
            start = time.perf_counter()
            quilt.placements(shape)
            timings.append(time.perf_counter() - start)
    print(f"legal placements of a patch on a half-full quilt: median {statistics.median(timings) * 1e6:.1f} us, "
          f"99th percentile {sorted(timings)[int(len(timings) * 0.99)] * 1e6:.1f} us "
          f"over {len(timings)} (quilt, patch) pairs")

    games = 200
    start = time.perf_counter()
    for seed in range(games):
        for _ in table_events(Dealer.new(6, seed, deck)):
            pass
    print(f"whole auto-dealt 6-player game: {(time.perf_counter() - start) / games * 1e3:.2f} ms/game over {games}")


if __name__ == "__main__":
    main()
