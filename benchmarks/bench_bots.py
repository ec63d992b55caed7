"""Strength and speed of the Patchwork Doodle bots over fixed seeds (run by hand; figures go in the README).

    python3 benchmarks/bench_bots.py                 # 200 seeds (0..199), greedy and expert, 2 worker processes
    python3 benchmarks/bench_bots.py --games 20 --bots expert --jobs 1

Prints, for each bot, the mean, median, min and max total, the mean round scores and empty cells, the seconds
per game (wall time of one game inside its worker) and a text histogram of totals; then a Markdown table for the
README and how often each bot beat the other on the same seed. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from multiprocessing import Pool

from doodle.game.bots import BOT_NAMES, get_bot, play_solo


def play(job: tuple[str, int]) -> tuple[str, int, int, list[int], int, float]:
    name, seed = job
    started = time.perf_counter()
    game = play_solo(get_bot(name), seed)
    seconds = time.perf_counter() - started
    sheet = game.sheets[0]
    return name, seed, sheet.total(), list(sheet.round_scores), sheet.quilt.empty_count(), seconds


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def histogram(totals: list[int], width: int = 10, bar: int = 40) -> list[str]:
    low = min(totals) // width * width
    high = max(totals) // width * width
    counts = {start: 0 for start in range(low, high + width, width)}
    for total in totals:
        counts[total // width * width] += 1
    most = max(counts.values())
    return [f"  {start:4d}-{start + width - 1:<4d} {'#' * max(1, round(count * bar / most)) if count else '':<{bar}} "
            f"{count}" for start, count in counts.items()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="number of seeds (default 200)")
    parser.add_argument("--first-seed", type=int, default=0, help="the seeds are FIRST .. FIRST+GAMES-1")
    parser.add_argument("--bots", default=",".join(BOT_NAMES), help="comma-separated bot names")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args()
    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    for name in names:
        get_bot(name)  # a clear error for an unknown name before any work
    seeds = list(range(args.first_seed, args.first_seed + args.games))
    jobs = [(name, seed) for name in names for seed in seeds]
    results: dict[str, dict[int, tuple[int, list[int], int, float]]] = {name: {} for name in names}
    started = time.perf_counter()
    with Pool(args.jobs) as pool:
        for done, (name, seed, total, rounds, empty, seconds) in enumerate(pool.imap_unordered(play, jobs), 1):
            results[name][seed] = (total, rounds, empty, seconds)
            mine = [r[0] for r in results[name].values()]
            print(f"\r{done}/{len(jobs)} games  {name}: {len(mine)} played, mean {statistics.mean(mine):.1f}   ",
                  end="", file=sys.stderr, flush=True)
    wall = time.perf_counter() - started
    print(file=sys.stderr)

    print(f"Machine: {os.cpu_count()} cores ({cpu_model()}), Python {platform.python_version()}, "
          f"{args.jobs} worker process(es); seeds {seeds[0]}..{seeds[-1]}; wall time {wall:.0f} s")
    rows = []
    for name in names:
        played = [results[name][seed] for seed in seeds]
        totals = [p[0] for p in played]
        seconds = [p[3] for p in played]
        rounds = [statistics.mean(p[1][i] for p in played) for i in range(3)]
        empty = statistics.mean(p[2] for p in played)
        rows.append((name, totals, rounds, empty, seconds))
        print(f"\n{name}: mean {statistics.mean(totals):.1f}, median {statistics.median(totals):g}, "
              f"min {min(totals)}, max {max(totals)}, stdev {statistics.stdev(totals) if len(totals) > 1 else 0:.1f}; "
              f"rounds {' / '.join(f'{r:.1f}' for r in rounds)}, empty {empty:.1f}; "
              f"{statistics.mean(seconds):.2f} s per game (max {max(seconds):.2f})")
        print("\n".join(histogram(totals)))

    print("\n| bot | games | mean | median | min | max | round 1 / 2 / 3 | empty | s per game |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, totals, rounds, empty, seconds in rows:
        print(f"| {name} | {len(totals)} | {statistics.mean(totals):.1f} | {statistics.median(totals):g} | "
              f"{min(totals)} | {max(totals)} | {' / '.join(f'{r:.1f}' for r in rounds)} | {empty:.1f} | "
              f"{statistics.mean(seconds):.2f} |")
    for a in names:
        for b in names:
            if a < b:
                wins = sum(results[a][s][0] > results[b][s][0] for s in seeds)
                ties = sum(results[a][s][0] == results[b][s][0] for s in seeds)
                print(f"\n{a} beats {b} on {wins} of {len(seeds)} seeds ({ties} ties), "
                      f"{len(seeds) - wins - ties} losses")
    return 0


if __name__ == "__main__":
    sys.exit(main())
