"""How the photo reader reads photos of the condition families of tests/photogen_families.py (run by hand; the
figures go in the README).

    python3 benchmarks/bench_families.py --photos 24 --jobs 1                     # tuning seeds 0..23
    python3 benchmarks/bench_families.py --photos 24 --jobs 1 --first-seed 100000  # the held-out seeds
    python3 benchmarks/bench_families.py --families curl,light --photos 8 --json /tmp/families.json

Seeds from 100000 on are held out: nobody tunes the reader on them (tests/photogen_families.py says why). Each
failure is reproducible with `python3 -m tests.photogen_families OUT_DIR FAMILY:SEED`.

Per family: the share of photos read exactly (quilt, special boxes and round scores all right; and, where some
photos have a glare, the count without it: the target leaves glare out), of photos with any doubt, of photos with
more than 5 cells in doubt (close to useless to a player), the photos refused with a message, what was read wrong
without a doubt on it, counted item by item (cells, special boxes, round scores) as benchmarks/bench_scan.py counts
it, and the special boxes and round scores the reader said it did not read.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.photogen_families when run as a script

from benchmarks.bench_scan import (  # noqa: E402
    MANY_DOUBTS,
    Outcome,
    Serial,
    machine,
    not_read_counts,
    read_and_judge,
    reader,
)
from doodle.sheet.layout import SPECIAL_NAMES  # noqa: E402
from tests.photogen_families import FAMILIES, HELD_OUT_FIRST_SEED, family_photo  # noqa: E402


def read_one(task: tuple[str, int]) -> Outcome:
    family, seed = task
    photo = family_photo(seed, family)
    return read_and_judge(photo.jpeg, photo.truth, Outcome(seed, details=photo.details))


def unflagged_by_kind(outcome: Outcome) -> dict[str, int]:
    """The items read wrongly without a doubt on them, as cells, special boxes and round scores."""
    kinds = {"cells": 0, "specials": 0, "rounds": 0}
    for item in outcome.unflagged:
        kinds["specials" if item in SPECIAL_NAMES else "rounds" if item.startswith("round") else "cells"] += 1
    return kinds


def run_family(family: str, photos: int, jobs: int, first_seed: int) -> list[Outcome]:
    tasks = [(family, seed) for seed in range(first_seed, first_seed + photos)]
    outcomes: list[Outcome] = []
    start = time.perf_counter()
    with Pool(jobs) if jobs > 1 else Serial() as pool:
        for outcome in pool.imap(read_one, tasks):
            outcomes.append(outcome)
            exact = sum(o.exact for o in outcomes)
            print(f"\r  {family}: {len(outcomes)}/{photos} photos, {exact} exact, "
                  f"{time.perf_counter() - start:.0f} s ", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return outcomes


def summarise(family: str, outcomes: list[Outcome]) -> dict:
    n = len(outcomes)
    read = [o for o in outcomes if not o.refused]
    unflagged = {"cells": 0, "specials": 0, "rounds": 0}
    for outcome in outcomes:
        for kind, count in unflagged_by_kind(outcome).items():
            unflagged[kind] += count
    doubting = [o.cells_in_doubt for o in read if o.uncertain]
    # The target for exact quilts leaves glare out (a glare that saturates the paper cannot be read): the
    # photos without it, alone.
    unglared = [o for o in outcomes if "glare" not in o.details.get("light", ())]
    return {
        "family": family,
        "photos": n,
        "exact_rate": sum(o.exact for o in outcomes) / n,
        "without_glare": {"photos": len(unglared), "exact": sum(o.exact for o in unglared),
                          "many_doubts": sum(o.cells_in_doubt > MANY_DOUBTS for o in unglared if not o.refused)},
        "doubt_rate": sum(o.uncertain > 0 for o in read) / n,
        "many_doubts_rate": sum(o.cells_in_doubt > MANY_DOUBTS for o in read) / n,
        "median_cells_in_doubt_when_in_doubt": statistics.median(doubting) if doubting else 0,
        "refused": n - len(read),
        "photos_wrong_unflagged": sum(o.silent_wrong for o in outcomes),
        "unflagged": unflagged,
        "not_read": not_read_counts(outcomes),
        "median_read_seconds": statistics.median(o.seconds for o in outcomes),
        "failures": [
            {"seed": o.seed, "refused": o.refused or None, "uncertain": o.uncertain,
             "cells_in_doubt": o.cells_in_doubt, "wrong": o.wrong, "unflagged": o.unflagged, "not_read": o.not_read,
             "conditions": o.details}
            for o in outcomes if not o.exact or o.cells_in_doubt > MANY_DOUBTS
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=24, help="photos per family (default 24)")
    parser.add_argument("--families", default=",".join(FAMILIES), help=f"comma-separated, of {', '.join(FAMILIES)}")
    parser.add_argument("--first-seed", type=int, default=0,
                        help=f"first seed (default 0; from {HELD_OUT_FIRST_SEED} on: the held-out set)")
    parser.add_argument("--jobs", type=int, default=1, help="processes for generating and reading (default 1)")
    parser.add_argument("--json", type=Path, help="also write all figures (and every failure) to this file")
    args = parser.parse_args()
    families = [name.strip() for name in args.families.split(",") if name.strip()]
    unknown = [name for name in families if name not in FAMILIES]
    if unknown:
        parser.error(f"unknown famil{'ies' if len(unknown) > 1 else 'y'} {', '.join(unknown)}: "
                     f"choose from {', '.join(FAMILIES)}")
    if args.photos < 1:
        parser.error("--photos must be at least 1")
    try:
        reader()
    except ImportError as error:
        sys.exit(f"the photo reader is not available ({error}): doodle.sheet.scan.read_photo is needed")

    held_out = args.first_seed >= HELD_OUT_FIRST_SEED
    report: dict = {"machine": machine(), "command": " ".join(["python3", *sys.argv]),
                    "seeds": [args.first_seed, args.first_seed + args.photos - 1], "held_out": held_out,
                    "families": []}
    print(f"machine: {report['machine']}")
    print(f"seeds {args.first_seed}-{args.first_seed + args.photos - 1} ({'held out' if held_out else 'tuning'})")
    print(f"{'family':<11}{'photos':>7}{'exact':>8}{'doubts':>8}{'>5 cells':>10}{'refused':>9}"
          f"{'unflagged photos / cells / boxes / rounds':>44}{'not read boxes / rounds':>26}")
    for family in families:
        summary = summarise(family, run_family(family, args.photos, args.jobs, args.first_seed))
        report["families"].append(summary)
        u = summary["unflagged"]
        print(f"{family:<11}{summary['photos']:>7}{100 * summary['exact_rate']:>7.0f}%"
              f"{100 * summary['doubt_rate']:>7.0f}%{100 * summary['many_doubts_rate']:>9.0f}%"
              f"{summary['refused']:>9}{summary['photos_wrong_unflagged']:>17} / {u['cells']} / {u['specials']}"
              f" / {u['rounds']}{summary['not_read']['specials']:>19} / {summary['not_read']['rounds']}")
        clear = summary["without_glare"]
        if clear["photos"] < summary["photos"]:
            print(f"    without glare: {clear['photos']} photos, {clear['exact']} exact, "
                  f"{clear['many_doubts']} with more than {MANY_DOUBTS} cells in doubt")
        for failure in summary["failures"][:6]:
            what = failure["refused"] or "; ".join(failure["wrong"]) or (
                f"{len(failure['not_read'])} items not read" if failure["not_read"] else "") or \
                f"{failure['cells_in_doubt']} cells in doubt"
            flag = "refused" if failure["refused"] else ("SILENT" if failure["unflagged"] else "flagged")
            print(f"    seed {failure['seed']} [{flag}]: {what[:140]}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
