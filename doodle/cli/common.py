"""Helpers shared by the commands: JSON output and colour detection (atomic writes live in doodle.files)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from typing import Any, TextIO

import click

from doodle.files import write_atomic

__all__ = ["SEED", "echo_json", "input_stream", "interactive", "use_color", "write_atomic"]

SEED = click.IntRange(0, 2**63 - 1)
"""The seeds every command takes: the same seed gives the same game."""


def echo_json(data: Any) -> None:
    """One JSON object on one line (JSON lines when called repeatedly)."""
    click.echo(json.dumps(data, separators=(",", ":"), ensure_ascii=False))


def use_color(option: bool | None) -> bool:
    """Colour when asked, or by default when stdout is a terminal and NO_COLOR is not set."""
    if option is not None:
        return option
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def input_stream() -> TextIO:
    """Standard input for typed answers: an empty stream when there is none at all (file descriptor 0 closed),
    and a stray undecodable byte replaced rather than raised, so it reads as an unknown command."""
    stream = sys.stdin
    if stream is None:
        return io.StringIO()
    if isinstance(stream, io.TextIOWrapper) and stream.errors != "replace":
        with contextlib.suppress(io.UnsupportedOperation):  # already read from: it keeps its setting
            stream.reconfigure(errors="replace")
    return stream


def interactive() -> bool:
    """True when a person is at the keyboard: standard input and output are both terminals."""
    return sys.stdin is not None and sys.stdin.isatty() and sys.stdout.isatty()
