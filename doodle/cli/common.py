"""Helpers shared by the commands: JSON output, colour detection and output streams that cannot fail on a drawing
character (atomic writes live in doodle.files)."""

from __future__ import annotations

import codecs
import contextlib
import io
import json
import os
import sys
import unicodedata
from typing import Any, TextIO

import click

from doodle.files import write_atomic

__all__ = ["SEED", "ascii_fallback_streams", "echo_json", "input_stream", "interactive", "use_color", "write_atomic"]

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


ASCII_FALLBACK = {
    "█": "#", "▓": "*", "▒": "o", "░": ":",  # as ascii_quilt draws: covered, the rectangle, a ghost that fits
    "▶": ">", "◀": "<", "→": ">", "←": "<", "↑": "^", "↓": "v",
    "·": ".", "×": "x", "–": "-", "—": "-", "…": "...", "✓": "ok",
    "⚀": "[1]", "⚁": "[2]", "⚂": "[3]", "⚃": "[4]", "⚄": "[5]", "⚅": "[6]",
}
"""ASCII for the drawing characters the commands print, one character for one where drawings are aligned."""

_ERRORS = "doodle-ascii"


def to_ascii(char: str) -> str:
    """ASCII that stands for `char`: the table above, box-drawing lines by their direction, other blocks as '#',
    letters without their accents (é -> e), and '?' for the rest."""
    if char in ASCII_FALLBACK:
        return ASCII_FALLBACK[char]
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        horizontal, vertical = "HORIZONTAL" in name, "VERTICAL" in name
        return "-" if horizontal and not vertical else "|" if vertical and not horizontal else "+"
    if "BLOCK" in name or "SHADE" in name:
        return "#"
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
    return plain or "?"


def _ascii_errors(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: what the encoding cannot hold is written as ASCII (see `to_ascii`)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(to_ascii(char) for char in error.object[error.start : error.end]), error.end


codecs.register_error(_ERRORS, _ascii_errors)

_DRAWING = "█▓▒━▶·"
"""What a stream must be able to write for the drawings to go out as they are."""


class _AsciiFallbackStream:
    """A text stream writing through `stream` with what its encoding cannot hold turned into ASCII.

    It hides the underlying `buffer`, so click writes through it rather than around it (click takes an ASCII
    stream for a misconfigured locale and would write UTF-8 bytes to its buffer)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._encoding = stream.encoding or "ascii"

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._stream.write(text.encode(self._encoding, _ERRORS).decode(self._encoding))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":
            raise AttributeError(name)
        return getattr(self._stream, name)


def _can_draw(stream: TextIO) -> bool:
    try:
        _DRAWING.encode(stream.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def ascii_fallback_streams() -> None:
    """Make standard output and error write ASCII drawings when their encoding cannot write the drawing characters
    (PYTHONIOENCODING=latin-1 or ascii, an old Windows console), instead of failing on the first one."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, _AsciiFallbackStream) and not _can_draw(stream):
            setattr(sys, name, _AsciiFallbackStream(stream))
