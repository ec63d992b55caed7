"""The photo reader on kinds of photo the project's own levels do not make (run by hand; figures in the report
or README): marking styles (outlined or not), distractors (smudges, tea and coffee rings, smears, a pencil or a
finger on the sheet, over the grid or the bubbles, a patch rubbed out), bubbles marked rather than filled in,
sharpening, a shaken phone, a second sheet in view, a mirrored photo (tests/photogen_styles.py).

    python3 benchmarks/bench_scan_styles.py --photos 24                 # seeds 0-23, the ones looked at
    python3 benchmarks/bench_scan_styles.py --photos 24 --held-out      # seeds 10000-10023, never looked at
    python3 benchmarks/bench_scan_styles.py --families slash,coffee-ring --photos 8
    python3 benchmarks/bench_scan_styles.py --photos 24 --first-seed 20000  # a set never run before

Per family: photos read exactly, photos with any doubt, photos with more than 5 cells in doubt, photos refused
(with the message), and photos with something read wrongly that is not itself among the doubts a player is asked
to check (the number that must be zero; boxes and rounds the reader says it did not read are not wrong, nor is
the sheet exact). A two-sheet photo is right when it reads one of the sheets its truth allows (the one on top).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.photogen_styles when run as a script

from benchmarks.bench_scan import flagged_items  # noqa: E402
from doodle.quilt import cell_name  # noqa: E402
from doodle.sheet.scan import read_photo  # noqa: E402
from doodle.sheet.scan_errors import ScanError  # noqa: E402
from tests.photogen_styles import HELD_OUT_FIRST_SEED, mirrored_photo, styled_photo, two_sheet_photo  # noqa: E402

FAMILIES = {
    "slash": lambda seed: _one(styled_photo(seed, "mild", style="slash")),
    "loose-scribble": lambda seed: _one(styled_photo(seed, "mild", style="loose scribble")),
    "smudge": lambda seed: _one(styled_photo(seed, "mild", distractor="smudge")),
    "coffee-ring": lambda seed: _one(styled_photo(seed, "mild", distractor="coffee ring")),
    "tea-ring": lambda seed: _one(styled_photo(seed, "mild", distractor="tea ring")),
    "hand-smear": lambda seed: _one(styled_photo(seed, "mild", distractor="hand smear")),
    "felt-tip": lambda seed: _one(styled_photo(seed, "mild", style="felt-tip")),
    "stray-line": lambda seed: _one(styled_photo(seed, "mild", distractor="stray line")),
    "pencil-on-sheet": lambda seed: _one(styled_photo(seed, "mild", distractor="pencil on sheet")),
    "finger-on-sheet": lambda seed: _one(styled_photo(seed, "mild", distractor="finger on sheet")),
    "pencil-over-bubbles": lambda seed: _one(styled_photo(seed, "mild", distractor="pencil on sheet", over="bubbles")),
    "finger-over-bubbles": lambda seed: _one(styled_photo(seed, "mild", distractor="finger on sheet", over="bubbles")),
    "erased": lambda seed: _one(styled_photo(seed, "mild", distractor="erased")),
    "slash-stray-line": lambda seed: _one(styled_photo(seed, "mild", style="slash", distractor="stray line")),
    "slash-outlined": lambda seed: _one(styled_photo(seed, "mild", style="slash", outlines="always")),
    "slash-partial-outline": lambda seed: _one(styled_photo(seed, "mild", style="slash", outlines="partial")),
    "scribble-outlined": lambda seed: _one(styled_photo(seed, "mild", style="loose scribble", outlines="always")),
    "sharpened": lambda seed: _one(styled_photo(seed, "moderate", sharpen=2.0)),
    "shaken": lambda seed: _one(styled_photo(seed, "mild", shake=0.006)),
    "shaken-hard": lambda seed: _one(styled_photo(seed, "mild", shake=0.015)),
    "bubble-marks": lambda seed: _one(styled_photo(seed, "mild", bubbles="any")),
    "mirrored": lambda seed: _one(mirrored_photo(seed, "mild")),
    "second-sheet-beside": lambda seed: _two(two_sheet_photo(seed, "mild", "beside")),
    "second-sheet-under": lambda seed: _two(two_sheet_photo(seed, "mild", "under")),
    "second-sheet-over": lambda seed: _two(two_sheet_photo(seed, "mild", "over")),
}


def _one(photo):
    return photo.jpeg, (photo.truth,)


def _two(photo):
    return photo.jpeg, photo.truths


def _wrong(result, truth) -> set[str]:
    wrong = {cell_name(r, c) for r in range(9) for c in range(9)
             if result.quilt.is_covered(r, c) != truth.quilt.is_covered(r, c)}
    if result.specials_used is not None:
        wrong |= set(result.specials_used) ^ set(truth.specials_used)
    if result.rounds_read:  # rounds the reader did not read (the markerless grid) are not wrong
        wrong |= {f"round {n}" for n, (a, b) in enumerate(zip(result.round_scores, truth.round_scores, strict=True),
                                                          1) if a != b}
    return wrong


def run(family: str, seeds: range) -> Counter:
    counts: Counter = Counter()
    for seed in seeds:
        jpeg, truths = FAMILIES[family](seed)
        counts["photos"] += 1
        try:
            result = read_photo(jpeg)
        except ScanError as error:
            counts["refused"] += 1
            counts[f"refused: {error}"] += 1
            continue
        flagged = flagged_items(result.doubts)  # what a player is asked to check: the reader's doubts and the checks'
        wrongs = [_wrong(result, truth) for truth in truths]
        all_read = result.specials_used is not None and result.rounds_read
        counts["exact"] += all_read and any(not w for w in wrongs)
        counts["doubted"] += bool(result.uncertain)
        counts["over 5 cells in doubt"] += sum(u.kind == "cell" for u in result.uncertain) > 5
        if not any(w <= flagged for w in wrongs):
            counts["wrong and not flagged"] += 1
            print(f"    {family} seed {seed}: not flagged {sorted(min(wrongs, key=len) - flagged)}", file=sys.stderr)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=24)
    parser.add_argument("--held-out", action="store_true", help=f"seeds from {HELD_OUT_FIRST_SEED} on")
    parser.add_argument("--first-seed", type=int, default=None, help="seeds from this one on (a set not yet seen)")
    parser.add_argument("--families", default=",".join(FAMILIES), help=f"comma-separated, of {', '.join(FAMILIES)}")
    args = parser.parse_args()
    first = args.first_seed if args.first_seed is not None else HELD_OUT_FIRST_SEED if args.held_out else 0
    seeds = range(first, first + args.photos)
    print(f"seeds {seeds.start}-{seeds.stop - 1}")
    print(f"{'family':22} {'photos':>6} {'exact':>6} {'doubted':>8} {'>5 cells':>8} {'refused':>8} "
          f"{'wrong unflagged':>16}")
    for family in args.families.split(","):
        start = time.perf_counter()
        c = run(family, seeds)
        print(f"{family:22} {c['photos']:6} {c['exact']:6} {c['doubted']:8} {c['over 5 cells in doubt']:8} "
              f"{c['refused']:8} {c['wrong and not flagged']:16}   ({time.perf_counter() - start:.0f} s)", flush=True)
        for key, n in sorted(c.items()):
            if key.startswith("refused: "):
                print(f"{'':24}{n} x {key}")


if __name__ == "__main__":
    main()
