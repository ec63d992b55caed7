"""How the photo reader reads the photos with a soft shadow in them (the shadow of a hand or a phone, a penumbra of
8-45 mm) among the light and mixed families of tests/photogen_families.py (run by hand; the figures go in the
README).

    python3 benchmarks/bench_soft_shadows.py --photos 48                      # seeds 0..47 of each family
    python3 benchmarks/bench_soft_shadows.py --photos 48 --first-seed 200000  # a held-out set

Of `--photos` seeds per family, only those with a soft shadow are read. Per family: how many, how many read
exactly, with more than 5 cells in doubt, the median of the cells in doubt, and what was read wrong without a doubt
on it (items, as benchmarks/bench_scan.py counts them), with the seeds of the photos that had any.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.photogen_families when run as a script

from benchmarks.bench_scan import MANY_DOUBTS, Outcome, Serial, machine, read_and_judge  # noqa: E402
from tests.photogen_families import family_photo  # noqa: E402


def read_one(task: tuple[str, int]) -> Outcome | None:
    """The photo read and judged; None when it has no soft shadow."""
    family, seed = task
    photo = family_photo(seed, family)
    if "soft shadow" not in photo.details.get("light", ()):
        return None
    return read_and_judge(photo.jpeg, photo.truth, Outcome(seed, details=photo.details))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=48, help="seeds per family (default 48)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--families", default="light,mixed", help="comma-separated, of light, mixed")
    parser.add_argument("--jobs", type=int, default=1, help="processes for generating and reading (default 1)")
    args = parser.parse_args()
    print(machine())
    print(f"{'family':8s} {'seeds':>15s} {'photos':>6s} {'exact':>5s} {'>5 cells':>8s} {'median':>6s} "
          f"{'unflagged':>9s}  seeds with unflagged items")
    for family in args.families.split(","):
        tasks = [(family, seed) for seed in range(args.first_seed, args.first_seed + args.photos)]
        outcomes: list[Outcome] = []
        start = time.perf_counter()
        with Pool(args.jobs) if args.jobs > 1 else Serial() as pool:
            for done, outcome in enumerate(pool.imap(read_one, tasks), start=1):
                if outcome is not None:
                    outcomes.append(outcome)
                print(f"\r  {family}: {done}/{len(tasks)} seeds, {len(outcomes)} with a soft shadow, "
                      f"{time.perf_counter() - start:.0f} s ", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        cells = [outcome.cells_in_doubt for outcome in outcomes]
        silent = [outcome for outcome in outcomes if outcome.unflagged]
        seeds = f"{args.first_seed}-{args.first_seed + args.photos - 1}"
        print(f"{family:8s} {seeds:>15s} {len(outcomes):6d} {sum(o.exact for o in outcomes):5d} "
              f"{sum(c > MANY_DOUBTS for c in cells):8d} {statistics.median(cells) if cells else 0:6.0f} "
              f"{sum(len(o.unflagged) for o in outcomes):9d}  {', '.join(str(o.seed) for o in silent) or '-'}")


if __name__ == "__main__":
    main()
