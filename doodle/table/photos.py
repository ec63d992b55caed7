"""Photos of the players' sheets at the table: what an upload may be, reading it off the event loop, and each
phone's reading until the player confirms it.

An upload is bounded (bytes here, pixels before decoding) and its type is told by its first bytes before any
decoder sees it. The project's reader (`doodle.sheet.read_photo`) runs in a pool of 2 worker processes, once per
upload, with the game's checks (`doodle.game.checks`): the round's cards from the table's
events and the quilt this player confirmed at the scoring before. A reading is held per seat, shown to that
phone only, corrected by taps (`ScanResult.corrected`, which checks again, in the pool too) and confirmed into
the score. Processes, not threads: the checks' bounded search is pure Python (seconds on a round-1 quilt), and in a
thread it would hold the GIL the server's event loop needs, so the table would stall while a photo is read.

DECISION (HEIC): refused with a message saying how to send a JPEG. A file input with `capture` on an iPhone
hands the page a JPEG, so HEIC only arrives when a player picks a stored photo; reading it would need
pillow-heif (a native libheif build), which the package index this project installs from does not offer.
"""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import warnings
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, UnidentifiedImageError

from doodle.game.checks import CardsError, SheetChecks, round_cards
from doodle.game.deck import Deck
from doodle.quilt import Quilt, cell_name, parse_cell_name
from doodle.sheet.scan_errors import ScanError

MAX_UPLOAD_BYTES = 25 * 1024 * 1024  # a 50-megapixel phone JPEG is about 20 MB
MAX_UPLOAD_PIXELS = 60_000_000  # the largest phone cameras' full resolution is 50 MP
READERS = 2  # worker processes: the machine running the table is a laptop, a reading takes a core
HEIC_MESSAGE = ("this photo is in HEIC, an iPhone's High Efficiency format, which the table does not read: take "
                "the photo with the \"Photograph my sheet\" button (the iPhone then sends a JPEG), or set Settings > "
                "Camera > Formats > Most Compatible")
NOT_IMAGE_MESSAGE = "this file is not a photo (JPEG, PNG or WebP): photograph your sheet with the camera"
HEIC_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs", b"mif1", b"msf1", b"avif"}


class UploadError(ValueError):
    """An upload the table does not read; the message is for the player who sent it."""


def image_kind(data: bytes) -> str:
    """"jpeg", "png" or "webp" from the file's first bytes; UploadError (with what to do) for anything else."""
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[4:8] == b"ftyp" and data[8:12] in HEIC_BRANDS:
        raise UploadError(HEIC_MESSAGE)
    raise UploadError(NOT_IMAGE_MESSAGE)


def check_pixels(data: bytes) -> None:
    """Refuse a photo with more pixels than a phone camera takes, from its header (no pixel is decoded)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
        except (UnidentifiedImageError, Image.DecompressionBombError, OSError):
            raise UploadError(NOT_IMAGE_MESSAGE) from None
    if width * height > MAX_UPLOAD_PIXELS:
        raise UploadError(f"the photo has {width * height / 1e6:.0f} megapixels, more than the "
                          f"{MAX_UPLOAD_PIXELS / 1e6:.0f} the table reads: take it with the phone's usual camera")


def read_upload(data: bytes, checks: SheetChecks, earlier: list[int | None]) -> tuple[Any, frozenset[int]]:
    """The reader on one upload (run in a worker, after `image_kind` and `check_pixels`), the round scores the
    sheet leaves blank filled in from the table (`with_table_rounds`), then the game's checks, run once: the
    reading and the rounds filled in, or UploadError with the reader's message."""
    from doodle.sheet import read_photo  # loads OpenCV: only when a photo comes

    try:
        result = read_photo(data, name="the photo", checks=SheetChecks(scoring_round=checks.scoring_round))
    except ScanError as error:
        raise UploadError(str(error)) from None
    result, filled = with_table_rounds(result, checks.scoring_round, earlier)
    return result.checked(checks), filled


@dataclass
class Reading:
    """One phone's reading of its sheet at the scoring of `round`, as corrected so far."""

    round: int
    result: Any  # ScanResult
    filled: frozenset[int] = frozenset()  # rounds whose score the table filled in (the sheet's bubbles were empty)
    tapped: frozenset[str] = frozenset()  # cells the player corrected

    def view(self) -> dict[str, Any]:
        """What the phone shows: the quilt, the best rectangle and its score, the doubts with their cells."""
        result = self.result
        quilt: Quilt = result.quilt
        rectangle = quilt.best_rectangle()
        doubts = []
        for doubt in result.doubts:
            cells = sorted(doubt.cells) if doubt.cells else ([doubt.cell] if doubt.cell else [])
            doubts.append({"name": doubt.name, "kind": doubt.kind, "problem": doubt in result.problems,
                           "cells": [cell_name(*c) for c in cells], "reason": doubt.reason or doubt_words(doubt)})
        return {
            "round": self.round, "quilt": quilt.rows(), "score": quilt.score_rectangle(),
            "rectangle": rectangle.to_dict() if rectangle else None, "empty": quilt.empty_count(),
            "method": result.method, "confidence": round(result.confidence, 2), "notes": list(result.notes),
            "doubts": doubts, "tapped": sorted(self.tapped),
        }


def problem_words(doubt: Any) -> str:
    """A check a reading breaks, naming its cells or round: "a1: covered in the previous quilt, read empty now"."""
    if doubt.kind == "quilt":
        return str(doubt.reason)  # names its cells itself
    return f"{doubt.name}: {doubt.reason}" if doubt.reason else doubt.name


def doubt_words(doubt: Any) -> str:
    state = {"cell": "shaded" if doubt.read else "empty", "special": "crossed" if doubt.read else "not crossed",
             "bubble": "filled" if doubt.read else "empty"}.get(doubt.kind, "")
    return f"read {state}, not sure ({doubt.confidence:.0%})" if state else ""


def table_checks(events: list[dict], deck: Deck, round_number: int, previous: Quilt | None) -> SheetChecks:
    """The checks for a photo taken at the scoring of `round_number`: the round's cards as the table dealt them and
    the quilt confirmed at the scoring before (an empty quilt before round 1; None when it was typed, not read)."""
    try:
        cards = round_cards(events, round_number, deck)
    except CardsError:
        cards = None
    return SheetChecks(scoring_round=round_number, previous=previous, cards=cards)


def with_table_rounds(result: Any, round_number: int, earlier: list[int | None]) -> tuple[Any, frozenset[int]]:
    """The reading with the round scores the sheet leaves blank filled from the table: the earlier rounds' confirmed
    scores and this round's best rectangle. A score the sheet shows is kept, so the checks compare it."""
    known = {number: points for number, points in enumerate(earlier, start=1) if points is not None}
    known[round_number] = result.quilt.score_rectangle()
    fill = {number: points for number, points in known.items()
            if number <= len(result.round_scores) and result.round_scores[number - 1] is None}
    return (result.corrected(rounds=fill) if fill else result), frozenset(fill)


def tap(reading: Reading, cell: Any, shaded: Any) -> Reading:
    """The reading with one cell set by the player; the checks run again (and this round's filled-in score follows
    the new best rectangle)."""
    if not isinstance(cell, str) or not isinstance(shaded, bool):
        raise UploadError("a correction names a cell (like \"c4\") and whether it is shaded")
    try:
        where = parse_cell_name(cell)
    except ValueError as error:
        raise UploadError(str(error)) from None
    one = Quilt.from_cells([where]).bits
    quilt = Quilt(reading.result.quilt.bits | one if shaded else reading.result.quilt.bits & ~one)
    rounds = {reading.round: quilt.score_rectangle()} if reading.round in reading.filled else None
    result = reading.result.corrected(cells={where: shaded}, rounds=rounds)  # the checks run once
    return Reading(reading.round, result, reading.filled, reading.tapped | {cell_name(*where)})


@dataclass
class PhotoDesk:
    """The readings under way and read, per seat; the worker processes that read them (started at the first
    photo: spawned, not forked, as the server runs threads)."""

    readers: int = READERS
    pending: dict[int, Reading] = field(default_factory=dict)  # seat id -> reading shown on that phone
    busy: set[int] = field(default_factory=set)  # seats whose photo is being read
    reads: int = 0  # readings run (each upload once)
    _pool: ProcessPoolExecutor | None = None

    async def run(self, function: Any, *args: Any) -> Any:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.readers, mp_context=multiprocessing.get_context("spawn"))
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        except BrokenProcessPool:  # a reader died (out of memory, killed): the next photo gets fresh ones
            if self._pool is pool:  # not fresh ones another photo started meanwhile
                self._pool = None
            pool.shutdown(wait=True, cancel_futures=True)  # broken: its readers are gone already
            raise UploadError("the photo reader stopped while reading: send the photo again") from None

    async def read(self, seat_id: int, data: bytes, checks: SheetChecks,
                   earlier: list[int | None]) -> tuple[Any, frozenset[int]]:
        """Read one upload in the pool (`read_upload`); one at a time per seat."""
        if seat_id in self.busy:
            raise UploadError("your previous photo is still being read: wait a moment")
        self.busy.add(seat_id)
        try:
            self.reads += 1
            return await self.run(read_upload, data, checks, earlier)
        finally:
            self.busy.discard(seat_id)

    def close(self) -> None:
        """Stop the readers, waiting for a photo being read (under a second). A pool left running, or shut down
        without waiting, can write to its closed pipe as Python exits ("Exception ignored ... Bad file descriptor")."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=True, cancel_futures=True)
