"""Helpers shared by the commands: JSON output, colour detection, atomic writes."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import click


def echo_json(data: Any) -> None:
    """One JSON object on one line (JSON lines when called repeatedly)."""
    click.echo(json.dumps(data, separators=(",", ":"), ensure_ascii=False))


def use_color(option: bool | None) -> bool:
    """Colour when asked, or by default when stdout is a terminal and NO_COLOR is not set."""
    if option is not None:
        return option
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write a file so that it is either the old one or the whole new one, never half written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
