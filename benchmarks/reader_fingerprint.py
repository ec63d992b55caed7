"""A fingerprint of what the photo reader reads, to show that a change of its shape changes nothing it reads
(run by hand before and after a restructure; not a figure for the README).

    python3 benchmarks/reader_fingerprint.py --save /tmp/before.json      # before the change
    python3 benchmarks/reader_fingerprint.py --check /tmp/before.json     # after: every photo must match

About 40 photos: tests/photogen.py at mild, moderate and harsh, tests/photogen_styles.py (slash, scribble,
smudge, coffee ring, sharpened, mirrored, a second sheet) and tests/photogen_families.py (each family, two
markerless ones among them). Each photo's fingerprint hashes `ScanResult.to_dict()` with the uncertain list, every
confidence, every cell value and the threshold at full precision (or the refusal's message). The photos are made
once and kept in --cache (generating them is most of the time).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.photogen when run as a script

from doodle.sheet.scan import read_photo  # noqa: E402
from doodle.sheet.scan_errors import ScanError  # noqa: E402


def _photos() -> dict[str, Callable[[], bytes]]:
    from tests.photogen import make_photo
    from tests.photogen_families import family_photo
    from tests.photogen_styles import mirrored_photo, styled_photo, two_sheet_photo

    makers: dict[str, Callable[[], bytes]] = {}
    for level, seeds in (("mild", range(600, 606)), ("moderate", range(600, 608)), ("harsh", range(600, 610))):
        for seed in seeds:
            makers[f"{level}-{seed}"] = lambda seed=seed, level=level: make_photo(seed, level).jpeg
    for seed in (1, 2):
        makers[f"slash-{seed}"] = lambda seed=seed: styled_photo(seed, "mild", style="slash").jpeg
        makers[f"scribble-{seed}"] = lambda seed=seed: styled_photo(seed, "mild", style="loose scribble").jpeg
        makers[f"coffee-{seed}"] = lambda seed=seed: styled_photo(seed, "mild", distractor="coffee ring").jpeg
    makers["smudge-1"] = lambda: styled_photo(1, "mild", distractor="smudge").jpeg
    makers["sharpened-1"] = lambda: styled_photo(1, "moderate", sharpen=2.0).jpeg
    makers["mirrored-1"] = lambda: mirrored_photo(1, "mild").jpeg
    makers["second-sheet-1"] = lambda: two_sheet_photo(1, "mild", "beside").jpeg
    for family in ("curl", "lens", "sensor", "messaging", "light", "print", "mixed"):
        makers[f"{family}-3"] = lambda family=family: family_photo(3, family).jpeg
    for seed in (16, 18):  # a cut marker: read from the grid alone
        makers[f"framing-{seed}"] = lambda seed=seed: family_photo(seed, "framing").jpeg
    return makers


def fingerprint(jpeg: bytes) -> str:
    try:
        result = read_photo(jpeg)
    except ScanError as error:
        return "refused: " + str(error)
    data = result.to_dict()
    data["uncertain_read"] = [doubt.to_dict() | {"conf": repr(doubt.confidence)} for doubt in result.uncertain]
    data["cell_confidence"] = [[repr(c) for c in row] for row in result.cell_confidence]
    data["cell_values"] = [[repr(v) for v in row] for row in result.cell_values]
    data["threshold"] = repr(result.threshold)
    data["confidence_full"] = repr(result.confidence)
    data["markers_found"] = result.markers_found
    data["sheet_image"] = hashlib.sha256(result.sheet_image.tobytes()).hexdigest()
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="write the fingerprints here")
    parser.add_argument("--check", type=Path, help="compare with the fingerprints saved here")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/reader_fingerprint_photos"))
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    prints = {}
    for name, make in _photos().items():
        path = args.cache / f"{name}.jpg"
        if not path.exists():
            path.write_bytes(make())
        prints[name] = fingerprint(path.read_bytes())
    if args.save:
        args.save.write_text(json.dumps(prints, indent=1))
        print(f"{len(prints)} fingerprints saved to {args.save}")
    if args.check:
        saved = json.loads(args.check.read_text())
        differ = [name for name in saved if prints.get(name) != saved[name]]
        print(f"{len(saved) - len(differ)} of {len(saved)} photos read the same" + (f"; differ: {differ}" if differ
                                                                                       else ""))
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
