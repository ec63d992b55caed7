"""How often and how fast the photo reader reads the sheet's QR code (run by hand; figures go in the README).

    python3 benchmarks/bench_qr.py                     # 200 photos per level: mild, moderate, harsh
    python3 benchmarks/bench_qr.py --photos 40 --levels harsh
    python3 benchmarks/bench_qr.py --photos 20 --megapixels 12   # the time on 12-megapixel photos

Per level it generates photos with tests/photogen.py (seeds 0..N-1), loads each and finds its corner markers as
the reader does (not timed), then times `doodle.sheet.qr.read_sheet_code` (best of 3) and the whole
`read_photo` (once), and reports: the share of photos whose sheet id and layout were read, codes read WRONG
(must be zero), photos without a marker fit (not counted), and the time the code adds per photo, also as a
share of the whole read.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.photogen when run as a script

import cv2  # noqa: E402

from benchmarks.bench_scan import machine, timed  # noqa: E402
from doodle.sheet import layout  # noqa: E402
from doodle.sheet.markers import detect_markers, fit_markers  # noqa: E402
from doodle.sheet.photo import load_photo  # noqa: E402
from doodle.sheet.qr import read_sheet_code  # noqa: E402
from doodle.sheet.scan import read_photo  # noqa: E402
from doodle.sheet.scan_errors import ScanError  # noqa: E402
from tests.photogen import CONDITIONS, LEVELS, level_conditions, make_photo  # noqa: E402


def run_level(level: str, photos: int, megapixels: float | None) -> dict:
    conditions = CONDITIONS[level] if megapixels is None else level_conditions(
        level, megapixels=(megapixels, megapixels))
    read = wrong = unfit = 0
    code_times, read_times = [], []
    for seed in range(photos):
        photo = make_photo(seed, conditions)
        image = load_photo(photo.jpeg)  # as the reader loads it (large JPEGs decoded at a reduced scale)
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        fit = fit_markers(detect_markers(gray)).fit
        if fit is None:
            unfit += 1
            continue
        runs = [timed(lambda fit=fit, gray=gray: read_sheet_code(gray, fit.homography, fit.marks)) for _ in range(3)]
        code_times.append(min(seconds for seconds, _ in runs))
        code = runs[0][1]
        if code is not None:
            if (code.layout, code.sheet_id) == (layout.LAYOUT_VERSION, photo.truth.sheet_id):
                read += 1
            else:
                wrong += 1
        with contextlib.suppress(ScanError):  # a refusal is not a read to compare with
            read_times.append(timed(lambda jpeg=photo.jpeg: read_photo(jpeg))[0])
        print(f"\r  {level}: {seed + 1}/{photos}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    fitted = photos - unfit
    return {
        "level": level,
        "photos": photos,
        "fitted": fitted,
        "read": read / fitted if fitted else 0.0,
        "wrong": wrong,
        "median_ms": 1000 * statistics.median(code_times) if code_times else 0.0,
        "p95_ms": 1000 * sorted(code_times)[int(0.95 * (len(code_times) - 1))] if code_times else 0.0,
        "max_ms": 1000 * max(code_times, default=0.0),
        "share_of_read": sum(code_times) / sum(read_times) if read_times else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=200, help="photos per level (default 200)")
    parser.add_argument("--levels", default=",".join(("clean", *LEVELS)),
                        help=f"comma-separated, of {', '.join(CONDITIONS)}")
    parser.add_argument("--megapixels", type=float, help="every photo this size (default: the level's range)")
    args = parser.parse_args()
    levels = args.levels.split(",")
    unknown = [level for level in levels if level not in CONDITIONS]
    if unknown:
        parser.error(f"unknown level {unknown[0]!r}: choose from {', '.join(CONDITIONS)}")
    print(f"machine: {machine()}")
    print(f"layout {layout.LAYOUT_VERSION}, QR code {layout.QR_SIZE_MM} mm, {layout.QR_BORDER_MODULES}-module border")
    print("level      photos  sheet id read  wrong  QR time median / p95 / max   share of the whole read")
    for level in levels:
        r = run_level(level, args.photos, args.megapixels)
        print(f"{r['level']:<10} {r['fitted']:>6}  {100 * r['read']:>12.1f}%  {r['wrong']:>5}  "
              f"{r['median_ms']:>8.1f} / {r['p95_ms']:.1f} / {r['max_ms']:.1f} ms  {100 * r['share_of_read']:>10.1f}%")


if __name__ == "__main__":
    main()
