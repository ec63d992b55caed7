"""What `doodle score` reads: a photo or a text quilt from a file, a stream or standard input, told apart by
content (never by the file's name); and the game a sheet is checked against (`--previous`, `--record`)."""

from __future__ import annotations

import codecs
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from doodle.files import InputFileError, decode_text, read_limited, read_text_limited
from doodle.game.checks import CardsError, SheetChecks, dealt_events, round_cards
from doodle.game.dealer import MAX_PLAYERS, MIN_PLAYERS
from doodle.game.deck import bundled_deck
from doodle.quilt import Quilt, QuiltTextError

if TYPE_CHECKING:  # the photo reader imports OpenCV, which is slow to load: only when a photo is read
    import numpy as np

    from doodle.sheet.doubts import Uncertain
    from doodle.sheet.scan import ScanResult

STDIN = "-"
STDIN_NAME = "standard input"
MAX_INPUT_BYTES = 200_000_000  # more than any phone photo; the photo reader checks the pixels themselves
MAX_QUILT_TEXT = 64_000  # a text quilt is 90 characters; with comments or spaces, never more than this
MAX_RECORD_BYTES = 10_000_000  # a whole game's record is a few tens of kilobytes
# How image files begin (JPEG, PNG, GIF, BMP, TIFF both ways, WebP/RIFF, and the ISO boxes of HEIC/AVIF at 4).
IMAGE_STARTS = (b"\xff\xd8\xff", b"\x89PNG", b"GIF8", b"BM", b"II*\x00", b"MM\x00*", b"RIFF")
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".heic", ".heif"})
TEXT_CONTROLS = frozenset(b"\t\n\r\x0c")


@dataclass
class Reading:
    """One input's outcome: a text quilt, a photo's reading (perhaps corrected by the player), or an error."""

    source: str
    quilt: Quilt | None = None
    scan: ScanResult | None = None
    error: str | None = None
    rounds: tuple[int, ...] | None = None  # given with --rounds, for a text quilt
    problems: tuple[Uncertain, ...] = ()  # a text quilt's: what the checks found
    note: str | None = None

    @property
    def name(self) -> str:
        """How the input is called in messages and tables."""
        return STDIN_NAME if self.source == STDIN else self.source or '""'

    @property
    def uncertain(self) -> tuple[Uncertain, ...]:
        """Everything still to be checked: the photo's doubts, or what the checks found in a text quilt."""
        return self.scan.doubts if self.scan is not None else self.problems


def read_input(
    source: str, checks: SheetChecks, rounds: tuple[int, ...] | None, trace: dict[str, np.ndarray] | None = None
) -> Reading:
    """One input (a file, or `-` for standard input), read as a text quilt or a photo and checked; a photo's
    reading puts each stage's picture in `trace` when given (see `doodle.sheet.stages`)."""
    reading = Reading(source)
    if not source:
        reading.error = "an empty file name was given: name a photo or a text quilt (or - for standard input)"
        return reading
    try:
        data = _stdin_bytes() if source == STDIN else read_limited(source, MAX_INPUT_BYTES, source)
    except (InputFileError, click.ClickException) as error:
        reading.error = error.message if isinstance(error, click.ClickException) else str(error)
        return reading
    if not data:  # (standard input says so itself)
        reading.error = f"{source} is empty (0 bytes): copy the photo again from the phone, or write the text quilt"
        return reading
    text = as_text(data, reading.name)
    if text is not None:
        return _text_reading(reading, text, checks, rounds)
    from doodle.sheet.scan import ScanError, read_photo

    try:
        scan = read_photo(data, name=reading.name, checks=checks, trace=trace)
    except ScanError as error:
        reading.error = str(error) if error.names_the_file else f"{reading.name}: {error}"
        return reading
    if rounds is not None:  # given by the player but still checked: a mistyped score is flagged
        scan = scan.corrected(rounds=dict(enumerate(rounds, start=1)))
    reading.scan, reading.quilt = scan, scan.quilt
    return reading


def _text_reading(reading: Reading, text: _Text, checks: SheetChecks, rounds: tuple[int, ...] | None) -> Reading:
    from doodle.sheet.doubts import check_reading

    image_name = reading.source != STDIN and Path(reading.source).suffix.lower() in IMAGE_SUFFIXES
    try:
        quilt = Quilt.from_text(text.text)
    except QuiltTextError as error:
        if image_name:
            reading.error = (f"{reading.name} is not an image: it holds text, and no text quilt either ({error}); "
                             "give a JPEG or PNG photo of the sheet")
        elif text.latin1:
            reading.error = (f"{reading.name} is not UTF-8 text (read as Latin-1, it says: {error}): a text quilt is "
                             "9 lines of 9 '#' or '.'; save it as UTF-8")
        else:
            reading.error = f"{reading.name}: {error}"
        return reading
    if image_name:
        reading.note = f"{reading.name} holds a text quilt, not a photo: read as the text it is"
    reading.quilt, reading.rounds = quilt, rounds
    reading.problems = check_reading(quilt, (*(rounds or ()), None, None, None)[:3], None, checks)
    return reading


@dataclass(frozen=True)
class _Text:
    text: str
    latin1: bool = False


def as_text(data: bytes, name: str) -> _Text | None:
    """`data` as text, when it is text: UTF-8 (with or without a byte-order mark), UTF-16 (with its mark, or
    without one when every other byte is zero), or else Latin-1 text as old editors save it. None for an image
    or other binary data, which goes to the photo reader (that names the problem)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF8)):
        try:
            return _Text(decode_text(data, name))
        except InputFileError:
            return None
    if data.startswith(IMAGE_STARTS) or data[4:8] == b"ftyp":
        return None
    head = data[:4096]
    if b"\x00" in head:
        if len(data) % 2 == 0 and len(data) <= MAX_QUILT_TEXT:
            for zeros, encoding in ((head[1::2], "utf-16-le"), (head[0::2], "utf-16-be")):
                if not zeros.strip(b"\x00"):
                    try:
                        return _Text(data.decode(encoding))
                    except UnicodeDecodeError:
                        return None
        return None
    try:
        return _Text(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        if error.start < len(head) - 3 and any(b < 0x20 and b not in TEXT_CONTROLS for b in head):
            return None
    if len(data) <= MAX_QUILT_TEXT and not any(b < 0x20 and b not in TEXT_CONTROLS or 0x7F <= b < 0xA0 for b in data):
        return _Text(data.decode("latin-1"), latin1=True)
    return None


def _stdin_bytes() -> bytes:
    """Standard input's bytes (a photo or a text quilt piped in: `cat sheet.jpg | doodle score -`)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise click.ClickException(f"no {STDIN_NAME} to read: pipe a photo or a text quilt into the command")
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise click.ClickException(f"{STDIN_NAME} holds more than {MAX_INPUT_BYTES // 1_000_000} MB: that is no "
                                   "phone photo; give the file's name instead")
    if not data:
        raise click.ClickException(f"{STDIN_NAME} is empty: pipe a photo of the sheet or a text quilt into it")
    return data


# --- the game a sheet is checked against ------------------------------------------------------------------------
def sheet_checks(previous: str | None, record: str | None, scoring_round: int | None) -> SheetChecks:
    """The checks `--previous`, `--record` and `--round` ask for; click.UsageError names a bad option."""
    number = scoring_round or 3
    before = _previous_quilt(previous) if previous is not None else Quilt() if number == 1 else None
    cards = None
    if record is not None:
        if before is None:
            raise click.UsageError(f"--record checks the cells added in round {number}: give --previous with the quilt "
                                   f"confirmed at the scoring of round {number - 1} (or check round 1)")
        try:
            cards = round_cards(_record_events(record), number, bundled_deck())
        except (CardsError, InputFileError) as error:
            raise click.UsageError(f"--record {record}: {error}") from None
    return SheetChecks(number, before, cards)


def _previous_quilt(path: str) -> Quilt:
    try:
        return Quilt.from_text(read_text_limited(path, MAX_QUILT_TEXT, path))
    except (InputFileError, QuiltTextError) as error:
        raise click.UsageError(f"--previous {path}: {error} (give the previous quilt as 9 lines of 9 '#' or '.')"
                               ) from None


def _record_events(path: str) -> list[dict]:
    """The table's events of a game record: `doodle deal --auto --json` lines as they are, or a game record
    (`doodle-game/1`, a solo record) dealt again from its seed."""
    text = read_text_limited(path, MAX_RECORD_BYTES, path)
    try:
        first = json.loads(text)
    except RecursionError:
        raise CardsError("it is nested too deeply to be a game record") from None
    except ValueError:  # not one JSON document (JSON lines?), or a number too long for Python to read
        first = None
    if isinstance(first, dict) and "seed" in first:
        return _dealt_again(first)
    try:
        events = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (ValueError, RecursionError):  # ValueError: bad JSON, or a number thousands of digits long
        raise CardsError("it is neither JSON lines of `doodle deal --auto --json` nor a game record") from None
    if not all(isinstance(event, dict) for event in events):
        raise CardsError("its lines are not the events of `doodle deal --auto --json`")
    return events


def _dealt_again(record: dict) -> list[dict]:
    deck = bundled_deck()
    if record.get("deck", deck.name) != deck.name:
        raise CardsError(f"it was dealt with the deck {record['deck']!r}; only games of the bundled deck can be "
                         "checked")
    seed, players = record.get("seed"), record.get("players", 1)
    if type(seed) is not int or type(players) is not int or not 0 <= seed < 2**63 \
            or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CardsError("its seed or number of players is not a game's (a seed is a whole number, "
                         f"{MIN_PLAYERS} to {MAX_PLAYERS} players)")
    return dealt_events(seed, players, deck)
