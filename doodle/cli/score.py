"""`doodle score FILE...`: the score of a quilt, from a photo of a score sheet or from a text grid."""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from doodle.cli.common import echo_json, use_color, write_atomic
from doodle.quilt import MAX_ROUND_SCORE, Quilt, QuiltTextError, cell_name, parse_cell_name
from doodle.render import ascii_quilt, draw_quilt

if TYPE_CHECKING:  # the photo reader imports OpenCV, which is slow to load: only when a photo is read
    from doodle.sheet.scan import ScanResult

EXIT_ERROR = 1
EXIT_UNCERTAIN = 3


def _text_quilt(data: bytes, name: str) -> Quilt:
    try:
        text = data.decode("utf-8-sig")  # as Windows Notepad saves it, with a byte-order mark
    except UnicodeDecodeError:
        raise click.ClickException(
            f"{name} is neither a text quilt nor an image this command reads: write 9 lines of 9 '#' or '.'"
        ) from None
    try:
        return Quilt.from_text(text)
    except QuiltTextError as error:
        raise click.ClickException(f"{name}: {error}") from None


def quilt_report(quilt: Quilt) -> dict:
    rect = quilt.best_rectangle()
    return {"quilt": quilt.rows(), "empty": quilt.empty_count(), "rectangle": rect.to_dict() if rect else None}


TEXT_WINDOW = 4096  # bytes looked at to tell a text quilt from a photo
STDIN = "-"
STDIN_NAME = "standard input"
MAX_STDIN_BYTES = 200_000_000  # more than any phone photo; the photo reader checks the pixels themselves


def _is_stdin(path: Path) -> bool:
    return str(path) == STDIN


def _looks_like_text(head: bytes) -> bool:
    """A text quilt is small UTF-8 text (judged by its first TEXT_WINDOW bytes); anything else is handed to the
    photo reader (which names the problem)."""
    if b"\0" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start >= len(head) - 3  # a multi-byte character cut by the window
    return True


@dataclass
class Reading:
    """One input's outcome: a text quilt, a photo's scan (perhaps corrected by the user), or an error."""

    path: Path
    quilt: Quilt | None = None
    scan: ScanResult | None = None
    error: str | None = None

    @property
    def name(self) -> str:
        """How the input is called in messages and tables."""
        return STDIN_NAME if _is_stdin(self.path) else str(self.path)

    @property
    def uncertain(self) -> tuple:
        return self.scan.uncertain if self.scan is not None else ()


def _read(path: Path) -> Reading:
    """One input (a file, or `-` for standard input): a text quilt, or a photo handed to the photo reader."""
    name = Reading(path).name
    try:
        if _is_stdin(path):
            source: bytes | Path = _piped_bytes()
            head = source[:TEXT_WINDOW]
        else:
            source = _checked_file(path)
            with path.open("rb") as handle:
                head = handle.read(TEXT_WINDOW)
        if _looks_like_text(head):  # a text quilt is a few lines: read whole
            text = source if isinstance(source, bytes) else path.read_bytes()
            return Reading(path, quilt=_text_quilt(text, name))
    except click.ClickException as error:
        return Reading(path, error=error.message)
    except OSError as error:
        return Reading(path, error=f"cannot read {name}: {error.strerror}")
    from doodle.sheet.scan import ScanError, read_photo

    try:
        scan = read_photo(source, name=name)
    except ScanError as error:
        return Reading(path, error=str(error) if error.names_the_file else f"{name}: {error}")
    return Reading(path, quilt=scan.quilt, scan=scan)


def _checked_file(path: Path) -> Path:
    if not path.exists():
        raise click.ClickException(f"{path} does not exist")
    if path.is_dir():
        raise click.ClickException(f"{path} is a directory: give a photo or a text quilt")
    if path.stat().st_size == 0:
        raise click.ClickException(f"{path} is empty (0 bytes): give a photo of the sheet or a text quilt")
    return path


def _piped_bytes() -> bytes:
    """What is piped in for `-` (`cat sheet.jpg | doodle score -`)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise click.ClickException(f"no {STDIN_NAME} to read: pipe a photo or a text quilt into the command")
    data = stream.read(MAX_STDIN_BYTES + 1)
    if not data:
        raise click.ClickException(f"{STDIN_NAME} is empty: pipe a photo of the sheet or a text quilt into it")
    if len(data) > MAX_STDIN_BYTES:
        raise click.ClickException(f"{STDIN_NAME} holds more than {MAX_STDIN_BYTES // 1_000_000} MB: that is no "
                                   "phone photo; give the file's name instead")
    return data


def _parse_rounds(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, int, int] | None:
    if value is None:
        return None
    parts = [part.strip() for part in value.split(",")]
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        raise click.BadParameter(f"{value!r}: give the three round scores separated by commas, e.g. 17,35,60")
    scores = tuple(int(part) for part in parts)
    if any(score > MAX_ROUND_SCORE for score in scores):
        raise click.BadParameter(f"{value!r}: a round scores at most {MAX_ROUND_SCORE} (a full 9x9 quilt)")
    return scores  # type: ignore[return-value]


# --- asking about uncertain items ------------------------------------------------------------------------------
CELLS_AT_ONCE = 5  # more cells in doubt than this are shown on a map and confirmed together first


def _ask(reading: Reading) -> None:
    """Ask the person at the terminal about each uncertain item and apply the answers to the reading.

    Many cells in doubt (a hard shadow across the grid) are first shown on a map of the quilt as read and
    confirmed with one answer; only when the map is wrong is each of them asked about."""
    scan = reading.scan
    assert scan is not None
    quilt, specials, rounds = scan.quilt, list(scan.specials_used or ()), list(scan.round_scores)
    click.echo(f"{reading.name}: the reader is unsure of {len(scan.uncertain)} mark(s); check the sheet:", err=True)
    cells = [doubt for doubt in scan.uncertain if doubt.kind == "cell"]
    cells_settled = False
    if len(cells) > CELLS_AT_ONCE:
        click.echo(ascii_quilt(quilt, doubted=[parse_cell_name(doubt.name) for doubt in cells]), err=True)
        cells_settled = click.confirm(
            f"  {len(cells)} cells are in doubt, marked X (read as shaded) and o (read as empty): "
            "does your sheet match the map?",
            default=True,
            err=True,
        )
    asked_rounds = set()
    for doubt in scan.uncertain:
        if doubt.kind == "cell":
            if cells_settled:
                continue
            row, col = parse_cell_name(doubt.name)
            shaded = click.confirm(
                f"  cell {doubt.name} looks {'shaded' if doubt.read else 'empty'} "
                f"(confidence {doubt.confidence:.2f}): is it shaded?",
                default=doubt.read,
                err=True,
            )
            bit = 1 << (row * 9 + col)
            quilt = Quilt(quilt.bits | bit if shaded else quilt.bits & ~bit)
        elif doubt.kind == "special":
            crossed = click.confirm(
                f"  special action '{doubt.name}' looks {'crossed off' if doubt.read else 'unused'} "
                f"(confidence {doubt.confidence:.2f}): is it crossed off?",
                default=doubt.read,
                err=True,
            )
            specials = [s for s in specials if s != doubt.name] + ([doubt.name] if crossed else [])
        else:
            number = int(doubt.name.split()[1])
            if number in asked_rounds:
                continue
            asked_rounds.add(number)
            current = rounds[number - 1]
            rounds[number - 1] = click.prompt(
                f"  round {number} score read as {current if current is not None else 'not filled in'} "
                f"(unsure of its bubbles): the round score, or '-' if none",
                default="-" if current is None else str(current),
                value_proc=_round_answer,
                err=True,
            )
    from doodle.sheet.layout import SPECIAL_NAMES

    specials = [name for name in SPECIAL_NAMES if name in specials]
    reading.scan = dataclasses.replace(
        scan,
        quilt=quilt,
        specials_used=None if scan.specials_used is None else tuple(specials),
        round_scores=tuple(rounds),
        uncertain=(),
    )
    reading.quilt = quilt


def _round_answer(text: str) -> int | None:
    text = text.strip()
    if text == "-":
        return None
    if not text.isdigit() or int(text) > MAX_ROUND_SCORE:
        raise click.UsageError(f"{text!r} is not a round score: type 0 to {MAX_ROUND_SCORE}, or '-'")
    return int(text)


# --- output ------------------------------------------------------------------------------------------------------
def _report(reading: Reading, rounds: tuple[int, int, int] | None) -> dict:
    data: dict = {"file": str(reading.path)}
    if reading.error is not None:
        return {**data, "error": reading.error}
    if reading.scan is None:
        data.update(quilt_report(reading.quilt))  # type: ignore[arg-type]
        if rounds is not None:
            data.update(round_scores=list(rounds), total=sum(rounds) - reading.quilt.empty_count())
        return data
    data.update(reading.scan.to_dict())
    if rounds is not None:
        data.update(round_scores=list(rounds), total=reading.scan.total(rounds))
    return data


def _describe(reading: Reading, report: dict, color: bool) -> None:
    quilt = reading.quilt
    rect = quilt.best_rectangle()  # type: ignore[union-attr]
    scan = reading.scan
    if scan is None:
        click.echo(f"{reading.name}:")
    elif scan.method == "markers":
        click.echo(
            f"{reading.name}: {_sheet_name(scan)}, read with {scan.markers_found} of 4 corner markers, "
            f"confidence {report['confidence']:.2f}"
        )
    else:
        click.echo(f"{reading.name}: confidence {report['confidence']:.2f}")
    for note in report.get("notes", ()):
        click.echo(f"note: {note}")
    click.echo(draw_quilt(quilt, highlight=rect, color=color))  # type: ignore[arg-type]
    if rect:
        corner = cell_name(rect.row, rect.col)
        click.echo(f"best rectangle: {rect.width} wide x {rect.height} high at {corner}, scores {rect.score}")
    else:
        click.echo("best rectangle: none (the quilt is empty), scores 0")
    empty = report["empty"]
    click.echo(f"empty cells: {empty}" + (f" (penalty -{empty})" if empty else " (no penalty)"))
    if scan is not None and scan.method == "markers":
        used = report["specials_used"]
        click.echo(f"special actions used: {', '.join(used) if used else 'none'}")
    if "round_scores" in report:
        scores = report["round_scores"]
        click.echo("round scores: " + ", ".join("-" if s is None else str(s) for s in scores))
        if report["total"] is not None:
            click.echo(f"total: {' + '.join(map(str, scores))} - {report['empty']} = {report['total']}")
        else:
            click.echo("total: unknown (fill in every round's bubbles, or give --rounds 17,35,60)")
    if reading.uncertain:
        doubts = ", ".join(f"{_doubt_text(d)} ({d.confidence:.2f})" for d in reading.uncertain)
        click.echo(f"uncertain, please check: {doubts}")


def _sheet_name(scan: ScanResult) -> str:
    if scan.sheet_id is None:
        return f"sheet of layout {scan.layout} (its QR code could not be read)"
    return f"sheet {scan.sheet_id}, layout {scan.layout}"


def _same_sheet_warnings(readings: list[Reading]) -> list[str]:
    """One line per sheet id (of one layout) that several photos show: a player photographed the same sheet
    twice, or sheets were printed twice with the same ids (`doodle sheet --first-id` avoids it); either way a
    score may be counted twice."""
    photos: dict[tuple[str, str], list[str]] = {}
    for reading in readings:
        scan = reading.scan
        if scan is not None and scan.sheet_id is not None:
            photos.setdefault((scan.layout or "", scan.sheet_id), []).append(reading.name)
    return [
        f"warning: {', '.join(paths[:-1])} and {paths[-1]} show the same sheet {sheet_id} "
        f"(layout {version}): one sheet photographed more than once, or sheets printed with the same id; "
        "count each player's sheet once"
        for (version, sheet_id), paths in photos.items()
        if len(paths) > 1
    ]


def _doubt_text(doubt) -> str:
    state = {"cell": ("shaded", "empty"), "special": ("crossed", "unused"), "bubble": ("filled", "empty")}[doubt.kind]
    label = f"cell {doubt.name}" if doubt.kind == "cell" else doubt.name
    return f"{label} read as {state[0] if doubt.read else state[1]}"


def _summary(readings: list[Reading], reports: list[dict]) -> None:
    rows = [("file", "sheet", "empty", "rectangle", "specials", "rounds", "total", "conf", "status")]
    for reading, report in zip(readings, reports, strict=True):
        if reading.error is not None:
            rows.append((reading.name, "", "", "", "", "", "", "", f"error: {reading.error}"))
            continue
        rect = report["rectangle"]
        scores = report.get("round_scores")
        rows.append(
            (
                reading.name,
                "" if reading.scan is None or reading.scan.method != "markers" else reading.scan.sheet_id or "?",
                str(report["empty"]),
                f"{rect['width']}x{rect['height']}={rect['score']}" if rect else "-",
                "-" if report.get("specials_used") is None else str(len(report["specials_used"])),
                "/".join("-" if s is None else str(s) for s in scores) if scores else "",
                "" if report.get("total") is None else str(report["total"]),
                f"{report['confidence']:.2f}" if "confidence" in report else "",
                f"{len(reading.uncertain)} uncertain" if reading.uncertain else "ok",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())


def _annotate(readings: list[Reading], target: Path) -> None:
    from doodle.sheet.annotate import annotated_png

    photos = [r for r in readings if r.scan is not None]
    if not photos:
        click.echo("--annotate: nothing to draw (no photo was read; text quilts have no sheet to draw)", err=True)
        return
    for reading in photos:
        stem = "stdin" if _is_stdin(reading.path) else reading.path.stem
        path = target / f"{stem}.annotated.png" if len(readings) > 1 or target.is_dir() else target
        try:
            write_atomic(path, annotated_png(reading.scan))
        except OSError as error:
            raise click.ClickException(
                f"cannot write {path} ({error.strerror or error}): choose a file in a folder you can write to"
            ) from None


@click.command(epilog=f"Exit status: 0 all read, {EXIT_ERROR} a file could not be read, {EXIT_UNCERTAIN} some "
               "mark was uncertain and not confirmed (listed in the output), 2 bad usage.")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Write one JSON object per file (JSON lines).")
@click.option("--rounds", callback=_parse_rounds, metavar="R1,R2,R3",
              help="The three round scores (e.g. 17,35,60), instead of the bubbles read from the photo.")
@click.option("--annotate", "annotate_to", type=click.Path(path_type=Path), metavar="OUT.png",
              help="Write the flattened sheet with what was read drawn on it; to an existing directory, or with "
                   "several photos, as NAME.annotated.png in that directory (created if missing).")
@click.option("--ask/--no-ask", default=None,
              help="Ask about uncertain marks (default: when run on a terminal and the input is not `-`).")
@click.option("--color/--no-color", default=None, help="Colour the drawing (default: when on a terminal).")
def score(
    files: tuple[Path, ...],
    as_json: bool,
    rounds: tuple[int, int, int] | None,
    annotate_to: Path | None,
    ask: bool | None,
    color: bool | None,
) -> None:
    """Score quilts from photos of doodle score sheets or from text grids.

    A photo (JPEG, PNG, ...) of a sheet printed by `doodle sheet` is read from its four corner markers (three
    suffice); the photo of another 9x9 grid is read from its lines, less surely. The reader reports the quilt, the
    best rectangle, the empty cells, the special actions crossed off and the round scores filled in as bubbles,
    and the total when all three are known. Marks it is unsure of are listed; on a terminal it asks about them.

    A text quilt is 9 lines of 9 characters, '#' covered and '.' empty. `-` reads a photo or a text quilt from
    standard input.

    Several files: a progress bar, then one summary table (or JSON lines with --json).
    """
    piped = sum(_is_stdin(path) for path in files)
    if piped > 1:
        raise click.UsageError(f"{STDIN} (the photo or text quilt on standard input) can be given only once")
    if piped and ask:
        raise click.UsageError(f"--ask reads answers from standard input, which holds the input ({STDIN}): "
                               "give the photo's file name instead")
    if ask is None:
        ask = not piped and sys.stdin is not None and sys.stdin.isatty()
    many = len(files) > 1
    if annotate_to is not None and many and annotate_to.exists() and not annotate_to.is_dir():
        raise click.UsageError(f"--annotate {annotate_to}: with several files, give a directory")
    readings: list[Reading] = []
    with click.progressbar(files, label="reading", file=sys.stderr, hidden=not many) as bar:
        for path in bar:
            readings.append(_read(path))
    if not many and readings[0].error is not None:
        raise click.ClickException(readings[0].error)
    if ask:
        for reading in readings:
            if reading.uncertain:
                _ask(reading)
    reports = [_report(reading, rounds) for reading in readings]
    if as_json:
        for report in reports:
            echo_json(report)
    elif many:
        _summary(readings, reports)
    else:
        _describe(readings[0], reports[0], use_color(color))
    for warning in _same_sheet_warnings(readings):
        click.echo(warning, err=True)
    if annotate_to is not None:
        _annotate(readings, annotate_to)
    ctx = click.get_current_context()
    if any(reading.error is not None for reading in readings):
        ctx.exit(EXIT_ERROR)
    if any(reading.uncertain for reading in readings):
        ctx.exit(EXIT_UNCERTAIN)
