"""Printable score sheets and their photos: `layout` (where everything is, in mm), `pdf` (the printable PDF), and
the photo reader's entry point `read_photo` with its `ScanResult`, its doubts (`Uncertain`) and its `ScanError`.

The reader's names are imported on first use: they load OpenCV, which writing a PDF does not need.
"""

from typing import Any

__all__ = ["ScanError", "ScanResult", "Uncertain", "read_photo"]


def __getattr__(name: str) -> Any:
    if name in ("ScanResult", "read_photo"):
        from doodle.sheet import scan

        return getattr(scan, name)
    if name == "ScanError":
        from doodle.sheet.scan_errors import ScanError

        return ScanError
    if name == "Uncertain":
        from doodle.sheet.doubts import Uncertain

        return Uncertain
    raise AttributeError(f"module 'doodle.sheet' has no attribute {name!r}")
