"""Helpers shared by the commands: JSON output and colour detection (atomic writes live in doodle.files)."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from doodle.files import write_atomic

__all__ = ["echo_json", "use_color", "write_atomic"]


def echo_json(data: Any) -> None:
    """One JSON object on one line (JSON lines when called repeatedly)."""
    click.echo(json.dumps(data, separators=(",", ":"), ensure_ascii=False))


def use_color(option: bool | None) -> bool:
    """Colour when asked, or by default when stdout is a terminal and NO_COLOR is not set."""
    if option is not None:
        return option
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
