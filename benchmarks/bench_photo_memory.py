"""Peak memory of loading one very large image, per format (run by hand; figures go in the README).

    python3 benchmarks/bench_photo_memory.py                 # writes the images to a temporary folder
    python3 benchmarks/bench_photo_memory.py --keep /tmp/big # or keeps them there (reused when present)

Each image is written without ever holding it whole in memory where the format allows (PNG and TIFF are written
row by row), then loaded by `doodle.sheet.photo.load_photo` in a fresh Python process, whose peak resident size
(VmHWM, or resource.getrusage off Linux) is reported with what the load did: loaded (at what size) or refused (and
the message); a synthetic 12 MP photo of a sheet is also read whole (read_photo). The bare interpreter with the
reader's imports is measured the same way, as the baseline.
"""

from __future__ import annotations

import argparse
import json
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, resource, sys, time
from doodle.sheet.photo import load_photo
from doodle.sheet.scan import read_photo
from doodle.sheet.scan_errors import ScanError
start = time.perf_counter()
outcome = {}
if sys.argv[1] != "-":
    try:
        if sys.argv[2] == "read":
            outcome["read"] = read_photo(sys.argv[1]).quilt.rows()[0] + "..."
        else:
            image = load_photo(sys.argv[1])
            outcome["loaded"] = f"{image.shape[1]}x{image.shape[0]}"
    except ScanError as error:
        outcome["refused"] = str(error)
outcome["seconds"] = round(time.perf_counter() - start, 2)
try:  # this process's own high-water mark (getrusage also counts what the parent held before exec)
    peak_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM"))
except (OSError, StopIteration):
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
outcome["peak_mb"] = round(peak_kb / 1024)
print(json.dumps(outcome))
"""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path: Path, width: int, height: int, bit_depth: int, colour_type: int) -> None:
    """A PNG of a grey page with dark lines, written row by row (colour type 2: RGB, 0: grey)."""
    channels = 3 if colour_type == 2 else 1
    sample = bit_depth // 8
    compress = zlib.compressobj(6)
    paper = (b"\xd0" * sample) * channels
    ink = (b"\x30" * sample) * channels
    ruled = b"\x00" + (paper * 63 + ink) * (width // 64) + paper * (width % 64)
    with path.open("wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.write(_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)))
        for y in range(height):
            data = compress.compress(ruled if y % 64 else b"\x00" + ink * width)
            if data:
                out.write(_chunk(b"IDAT", data))
        out.write(_chunk(b"IDAT", compress.flush()))
        out.write(_chunk(b"IEND", b""))


def write_tiff(path: Path, width: int, height: int) -> None:
    """An uncompressed 8-bit RGB TIFF in one strip, written row by row."""
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 2),
               (273, 4, 1, 0), (277, 3, 1, 3), (278, 4, 1, height), (279, 4, 1, width * height * 3)]
    ifd_size = 2 + 12 * len(entries) + 4
    data_at = 8 + ifd_size
    with path.open("wb") as out:
        out.write(b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", len(entries)))
        for tag, kind, count, value in entries:
            value = data_at if tag == 273 else value
            packed = struct.pack("<H", value) + b"\x00\x00" if kind == 3 else struct.pack("<I", value)
            out.write(struct.pack("<HHI", tag, kind, count) + packed)
        out.write(struct.pack("<I", 0))
        row = bytes([0xD0]) * (width * 3)
        for _ in range(height):
            out.write(row)


def write_gif(path: Path, width: int, height: int) -> None:
    """A GIF (palette image: PIL holds it whole while writing, one byte a pixel)."""
    from PIL import Image, ImageDraw

    image = Image.new("P", (width, height), 1)
    image.putpalette([0, 0, 0, 208, 208, 208] + [0] * 762)
    draw = ImageDraw.Draw(image)
    for x in range(0, width, 64):
        draw.line([(x, 0), (x, height)], fill=0)
    image.save(path)


def write_jpeg(path: Path, width: int, height: int) -> None:
    import cv2
    import numpy as np

    image = np.full((height, width, 3), 208, np.uint8)
    image[:, ::64] = 48
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 85])


def write_photo(path: Path, width: int, height: int) -> None:
    """A synthetic phone photo of a filled sheet (tests/photogen.py) at width x height."""
    sys.path.insert(0, str(ROOT))
    from tests.photogen import level_conditions, make_photo

    photo = make_photo(0, level_conditions("moderate", megapixels=(width * height / 1e6,) * 2, name="memory"))
    path.write_bytes(photo.jpeg)


CASES = {  # name: (writer, (width, height), file suffix)
    "gif-149mp": (write_gif, (14100, 10560), ".gif"),
    "png16-144mp": (lambda p, w, h: write_png(p, w, h, 16, 2), (13856, 10392), ".png"),
    "png8-144mp": (lambda p, w, h: write_png(p, w, h, 8, 2), (13856, 10392), ".png"),
    "png16grey-144mp": (lambda p, w, h: write_png(p, w, h, 16, 0), (13856, 10392), ".png"),
    "tiff-120mp": (write_tiff, (12648, 9486), ".tif"),
    "jpeg-100mp": (write_jpeg, (11547, 8660), ".jpg"),
    "photo-12mp": (write_photo, (4000, 3000), ".jpg"),  # also read whole by read_photo
}


def measure(path: str, what: str = "load") -> dict:
    output = subprocess.run([sys.executable, "-c", CHILD, path, what], capture_output=True, text=True, check=True,
                            cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return json.loads(output.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", type=Path, help="folder to write the images into and keep them")
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of {', '.join(CASES)}")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="doodle-memory-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{'baseline (imports only)':24} {json.dumps(measure('-'))}", flush=True)
    for name in args.cases.split(","):
        write, (width, height), suffix = CASES[name]
        path = folder / (name + suffix)
        if not path.exists():
            write(path, width, height)
        size_mb = path.stat().st_size / 1e6
        print(f"{name:24} {width}x{height}, {size_mb:.0f} MB file: {json.dumps(measure(str(path)))}", flush=True)
        if name.startswith("photo"):
            print(f"{name + ' read':24} {json.dumps(measure(str(path), 'read'))}", flush=True)
        if args.keep is None:
            path.unlink()


if __name__ == "__main__":
    main()
