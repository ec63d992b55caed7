"""How well and how fast the photo reader reads synthetic phone photos (run by hand; figures go in the README).

    python3 benchmarks/bench_scan.py                      # 200 photos per level: mild, moderate, harsh + timing
    python3 benchmarks/bench_scan.py --photos 50 --levels harsh --jobs 2 --no-timing
    python3 benchmarks/bench_scan.py --timing-only --timing-photos 10
    python3 benchmarks/bench_scan.py --photos 40 --levels moderate,harsh --shadowed --jobs 2 --no-timing

Per level it generates photos with tests/photogen.py (seeds 0..N-1, so every failure is reproducible with
`python3 -m tests.photogen /tmp/out LEVEL:SEED`), reads each with doodle's reader and reports:
exact-sheet rate (quilt, specials and round scores all right), cell accuracy, special accuracy, round-score
accuracy (over the items read), the share of photos flagged uncertain, photos refused with a message, photos read
WRONG WITHOUT a doubt on the wrong item (the number that must be zero: the doubts a player is asked to check,
`result.doubts`, the reader's and the checks'), and the special boxes / round scores the reader said it did not
read (the markerless grid: neither right nor wrong, and the sheet is not exact).

Timing: photos of 12 megapixels; per photo the reader's time on the JPEG bytes (decoding included) against
OpenCV decoding the same bytes (best of 3 each), reported as seconds and as a ratio measured in the same run.

The reader's interface this needs: `doodle.sheet.scan.read_photo(image_or_path_or_bytes)` returning an object
with `.quilt` (doodle.Quilt), `.specials_used` (names, None when not read), `.round_scores` (3 ints or None),
`.rounds_read` (False when the bubbles were not read), `.uncertain` (the reader's doubts, empty when sure) and
`.doubts` (those and what the checks found); refusals raise `doodle.sheet.scan_errors.ScanError`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.photogen when run as a script

import cv2  # noqa: E402

from doodle.quilt import cell_name  # noqa: E402
from doodle.sheet.layout import SPECIAL_NAMES as SPECIALS  # noqa: E402
from tests.photogen import CONDITIONS, LEVELS, level_conditions, make_photo  # noqa: E402

SHADOW_SEARCH = 10  # with --shadowed, seeds looked at at most per photo wanted
MANY_DOUBTS = 5  # cells in doubt above which a photo is close to useless to a player (issue 15)


def reader():
    from doodle.sheet.scan import read_photo
    from doodle.sheet.scan_errors import ScanError

    return read_photo, ScanError


@dataclass
class Outcome:
    seed: int
    exact: bool = False
    refused: str = ""
    cells_right: int = 0
    specials_right: int = 0
    rounds_right: int = 0
    uncertain: int = 0
    cells_in_doubt: int = 0
    seconds: float = 0.0
    wrong: list[str] = field(default_factory=list)
    details: dict = field(default_factory=dict)

    unflagged: list[str] = field(default_factory=list)  # read wrongly and not among the doubts
    not_read: list[str] = field(default_factory=list)  # special boxes and rounds the reader says it did not read

    @property
    def silent_wrong(self) -> bool:
        """Something read wrongly that the reader did not list as uncertain (item by item, not just 'the photo
        had some doubt')."""
        return bool(self.unflagged)


def read_one(task: tuple[str, int, bool]) -> Outcome | None:
    """Read one photo; None when only shadowed photos are wanted and this one has no hard shadow."""
    level, seed, shadowed_only = task
    photo = make_photo(seed, level)
    if shadowed_only and "shadow" not in photo.details:
        return None
    return read_and_judge(photo.jpeg, photo.truth, Outcome(seed, details=photo.details))


def read_and_judge(jpeg: bytes, truth, outcome: Outcome) -> Outcome:
    """Read `jpeg` with doodle's reader and fill `outcome` with what it got right, wrong, and wrong without a
    doubt, item by item, against `truth` (a tests.photogen.Truth).

    An item the reader says it did not read (every special box when `specials_used` is None, every round when
    the result says its bubbles were not read: the markerless grid) is neither right nor wrong: it is counted in
    `not_read`, and keeps the sheet from being exact. A round read as None (no bubble filled in) while the sheet
    has a score was read, wrongly. "Flagged" is what a player is asked to check: the reader's doubts and what
    the checks of the reading found (`result.doubts`), a bubble's doubt standing for its round and the quilt's
    for its cells."""
    read_photo, scan_error = reader()
    start = time.perf_counter()
    try:
        result = read_photo(jpeg)
    except scan_error as error:
        outcome.seconds = time.perf_counter() - start
        outcome.refused = str(error)
        return outcome
    outcome.seconds = time.perf_counter() - start
    specials_read = result.specials_used is not None
    rounds_read = result.rounds_read
    outcome.not_read = ([] if specials_read else list(SPECIALS)) + \
        ([] if rounds_read else [f"round {n}" for n in range(1, len(truth.round_scores) + 1)])
    outcome.cells_right = sum(
        result.quilt.is_covered(r, c) == truth.quilt.is_covered(r, c) for r in range(9) for c in range(9)
    )
    used = set(result.specials_used or ())
    outcome.specials_right = sum((name in used) == (name in truth.specials_used) for name in SPECIALS) \
        if specials_read else 0
    read_scores = tuple(result.round_scores)
    outcome.rounds_right = sum(a == b for a, b in zip(read_scores, truth.round_scores, strict=True)) \
        if rounds_read else 0
    doubts = result.doubts
    outcome.uncertain = len(result.uncertain)
    outcome.cells_in_doubt = sum(d.kind == "cell" for d in result.uncertain)
    outcome.exact = outcome.cells_right == 81 and outcome.specials_right == 4 and outcome.rounds_right == 3
    wrong_cells = [(r, c) for r in range(9) for c in range(9)
                   if result.quilt.is_covered(r, c) != truth.quilt.is_covered(r, c)]
    if wrong_cells:
        outcome.wrong.append("cells " + " ".join(
            f"{cell_name(r, c)}({truth.styles.get((r, c), 'empty')})" for r, c in wrong_cells))
    wrong_items = [cell_name(r, c) for r, c in wrong_cells]
    if specials_read and used != set(truth.specials_used):
        outcome.wrong.append(f"specials {sorted(used)} != {list(truth.specials_used)}")
        wrong_items += sorted(used ^ set(truth.specials_used))
    if rounds_read and outcome.rounds_right != 3:
        outcome.wrong.append(f"rounds {list(read_scores)} != {list(truth.round_scores)}")
        wrong_items += [f"round {n}" for n, (a, b) in enumerate(zip(read_scores, truth.round_scores, strict=True), 1)
                        if a != b]
    flagged = flagged_items(doubts)
    outcome.unflagged = [item for item in wrong_items if item not in flagged]
    return outcome


def flagged_items(doubts) -> set[str]:
    """The items a player is asked to check: cells, boxes and rounds by name (a bubble's doubt stands for its
    round, a doubt about the whole quilt or part of it for each of its cells)."""
    flagged = set()
    for doubt in doubts:
        if doubt.kind == "bubble":
            flagged.add(" ".join(doubt.name.split()[:2]))
        elif doubt.kind == "quilt":
            flagged |= {cell_name(*cell) for cell in doubt.cells}
        else:
            flagged.add(doubt.name)
    return flagged


def run_level(level: str, photos: int, jobs: int, first_seed: int, shadowed_only: bool = False) -> list[Outcome]:
    """`photos` photos of the level from `first_seed` on (with `shadowed_only`, the first `photos` of them that
    have a hard shadow)."""
    if shadowed_only and not CONDITIONS[level].shadow_probability:
        return []
    last = first_seed + (photos * SHADOW_SEARCH if shadowed_only else photos)
    tasks = [(level, seed, shadowed_only) for seed in range(first_seed, last)]
    outcomes: list[Outcome] = []
    start = time.perf_counter()
    with Pool(jobs) if jobs > 1 else Serial() as pool:
        for outcome in pool.imap(read_one, tasks):
            if outcome is None:
                continue
            outcomes.append(outcome)
            index = len(outcomes)
            if index % 10 == 0 or index == photos:
                exact = sum(o.exact for o in outcomes)
                rate = index / (time.perf_counter() - start)
                print(f"\r  {level}: {index}/{photos} photos, {exact} exact, {rate:.1f} photos/s ", end="",
                      file=sys.stderr, flush=True)
            if index == photos:
                break
    print(file=sys.stderr)
    return outcomes


class Serial:
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    @staticmethod
    def imap(function, items):
        return map(function, items)


def summarise(level: str, outcomes: list[Outcome]) -> dict:
    n = len(outcomes)
    read = [o for o in outcomes if not o.refused]
    return {
        "level": level,
        "photos": n,
        "exact_sheet_rate": sum(o.exact for o in outcomes) / n,
        "cell_accuracy": sum(o.cells_right for o in read) / (81 * len(read)) if read else None,
        "special_accuracy": _accuracy(read, "specials_right", 4, "neighbour"),
        "round_score_accuracy": _accuracy(read, "rounds_right", 3, "round 1"),
        "uncertain_flag_rate": sum(o.uncertain > 0 for o in read) / n,
        # the measure of a photo close to useless to a player: more than 5 cells to check
        "many_doubts_rate": sum(o.cells_in_doubt > MANY_DOUBTS for o in read) / n,
        "refused": sum(bool(o.refused) for o in outcomes),
        "silent_wrong": sum(o.silent_wrong for o in outcomes),
        "not_read": not_read_counts(outcomes),
        "median_read_seconds": statistics.median(o.seconds for o in outcomes),
        "failures": [
            {"seed": o.seed, "refused": o.refused or None, "uncertain": o.uncertain, "wrong": o.wrong,
             "unflagged": o.unflagged, "conditions": o.details}
            for o in outcomes if not o.exact
        ],
    }


def _accuracy(read: list[Outcome], right: str, items: int, sample: str) -> float | None:
    """The share of items read right, over the photos where the reader read them."""
    read = [o for o in read if sample not in o.not_read]
    return sum(getattr(o, right) for o in read) / (items * len(read)) if read else None


def not_read_counts(outcomes: list[Outcome]) -> dict[str, int]:
    """The special boxes and round scores the reader said it did not read (neither right nor wrong)."""
    items = [item for o in outcomes for item in o.not_read]
    return {"specials": sum(not item.startswith("round") for item in items),
            "rounds": sum(item.startswith("round") for item in items)}


def timing(photos: int) -> dict:
    read_photo, scan_error = reader()
    conditions = level_conditions("moderate", megapixels=(12.0, 12.0), name="moderate-12mp")
    decode, scan = [], []
    for seed in range(photos):
        jpeg = make_photo(seed, conditions).jpeg
        decode.append(min(timed(lambda jpeg=jpeg: cv2.imdecode(_bytes(jpeg), cv2.IMREAD_COLOR))[0] for _ in range(3)))
        scan.append(min(timed(lambda jpeg=jpeg: _try_read(read_photo, scan_error, jpeg))[0] for _ in range(3)))
        print(f"\r  timing: {seed + 1}/{photos} photos of 12 MP ", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    ratios = [s / d for s, d in zip(scan, decode, strict=True)]
    return {
        "photos": photos,
        "megapixels": 12.0,
        "median_read_seconds": statistics.median(scan),
        "max_read_seconds": max(scan),
        "median_decode_seconds": statistics.median(decode),
        "median_ratio_to_decode": statistics.median(ratios),
    }


def _bytes(jpeg: bytes):
    import numpy as np

    return np.frombuffer(jpeg, np.uint8)


def _try_read(read_photo, scan_error, jpeg: bytes) -> None:
    with contextlib.suppress(scan_error):  # a refusal costs time too; what is read is measured elsewhere
        read_photo(jpeg)


def timed(function) -> tuple[float, object]:
    """Seconds `function()` took, and what it returned."""
    start = time.perf_counter()
    value = function()
    return time.perf_counter() - start, value


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}, OpenCV {cv2.__version__}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=200, help="photos per level (default 200)")
    parser.add_argument("--levels", default=",".join(LEVELS), help=f"comma-separated, of {', '.join(CONDITIONS)}")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes for generating and reading (default 1)")
    parser.add_argument("--timing-photos", type=int, default=10, help="12-megapixel photos to time (default 10)")
    parser.add_argument("--no-timing", action="store_true")
    parser.add_argument("--timing-only", action="store_true")
    parser.add_argument("--shadowed", action="store_true",
                        help="only photos with a hard shadow (the first --photos of them from --first-seed on)")
    parser.add_argument("--json", type=Path, help="also write all figures (and every failure) to this file")
    args = parser.parse_args()
    levels = [name.strip() for name in args.levels.split(",") if name.strip()]
    unknown = [name for name in levels if name not in CONDITIONS]
    if unknown:
        parser.error(f"unknown level(s) {', '.join(unknown)}: choose from {', '.join(CONDITIONS)}")
    try:
        reader()
    except ImportError as error:
        sys.exit(f"the photo reader is not available ({error}): doodle.sheet.scan.read_photo is needed")

    report: dict = {"machine": machine(), "command": " ".join(["python3", *sys.argv]), "levels": []}
    print(f"machine: {report['machine']}")
    if not args.timing_only:
        print(f"{'level':<10}{'photos':>7}{'exact':>9}{'cells':>9}{'specials':>10}{'rounds':>9}"
              f"{'flagged':>9}{'>5 cells':>9}{'refused':>9}{'silent wrong':>14}{'not read':>10}{'s/photo':>9}")
        for level in levels:
            outcomes = run_level(level, args.photos, args.jobs, args.first_seed, args.shadowed)
            if not outcomes:
                print(f"{level:<10} no photo with a hard shadow at this level")
                continue
            summary = summarise(level, outcomes)
            report["levels"].append(summary)

            def pct(value: float | None) -> str:
                return "-" if value is None else f"{100 * value:.2f}%"

            print(f"{level:<10}{summary['photos']:>7}{pct(summary['exact_sheet_rate']):>9}"
                  f"{pct(summary['cell_accuracy']):>9}{pct(summary['special_accuracy']):>10}"
                  f"{pct(summary['round_score_accuracy']):>9}{pct(summary['uncertain_flag_rate']):>9}"
                  f"{pct(summary['many_doubts_rate']):>9}"
                  f"{summary['refused']:>9}{summary['silent_wrong']:>14}"
                  f"{'{specials}/{rounds}'.format(**summary['not_read']):>10}{summary['median_read_seconds']:>9.3f}")
            for failure in summary["failures"][:8]:
                what = failure["refused"] or "; ".join(failure["wrong"])
                flag = "refused" if failure["refused"] else ("SILENT" if failure["unflagged"] else "flagged")
                print(f"    seed {failure['seed']} [{flag}]: {what[:150]}")
    if not (args.no_timing or args.timing_photos <= 0):
        report["timing"] = timing(args.timing_photos)
        t = report["timing"]
        print(f"12 MP photo: read {t['median_read_seconds']:.3f} s median (max {t['max_read_seconds']:.3f} s), "
              f"OpenCV decode {t['median_decode_seconds']:.3f} s, ratio {t['median_ratio_to_decode']:.1f}x "
              f"over {t['photos']} photos")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
