"""`doodle score FILE...`: the score of a quilt, from a photo of a score sheet or from a text grid."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from doodle.cli.common import echo_json, use_color, write_atomic
from doodle.cli.score_input import STDIN, Reading, read_input, sheet_checks
from doodle.game.checks import SheetChecks
from doodle.quilt import MAX_ROUND_SCORE, Quilt, cell_name
from doodle.render import draw_quilt

if TYPE_CHECKING:  # the photo reader imports OpenCV, which is slow to load: only when a photo is read
    import numpy as np

    from doodle.sheet.doubts import Uncertain
    from doodle.sheet.scan import ScanResult

EXIT_ERROR = 1
EXIT_UNCERTAIN = 3
EXAMPLE_ROUNDS = "17,36,64"
"""Round scores to show as an example: ones rectangles make (4x5, 6x6, 8x8), so following it raises no doubt."""


def quilt_report(quilt: Quilt) -> dict:
    rect = quilt.best_rectangle()
    return {"quilt": quilt.rows(), "empty": quilt.empty_count(), "rectangle": rect.to_dict() if rect else None}


def _parse_rounds(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, ...] | None:
    """One to three round scores, round 1 first (a photo taken at the scoring of round 1 or 2 has fewer)."""
    if value is None:
        return None
    parts = [part.strip() for part in value.split(",")]
    shown = value if len(value) <= 40 else value[:40] + "..."
    if not 1 <= len(parts) <= 3 or not all(part.isascii() and part.isdigit() for part in parts):
        raise click.BadParameter(f"{shown!r}: give the round scores in digits 0-9 separated by commas, round 1 "
                                 f"first, e.g. {EXAMPLE_ROUNDS}")
    if any(len(part) > 3 or int(part) > MAX_ROUND_SCORE for part in parts):
        raise click.BadParameter(f"{shown!r}: a round scores at most {MAX_ROUND_SCORE} (a full 9x9 quilt)")
    return tuple(int(part) for part in parts)


# --- output ------------------------------------------------------------------------------------------------------
def _report(reading: Reading) -> dict:
    data: dict = {"file": reading.source}
    if reading.error is not None:
        return {**data, "error": reading.error}
    if reading.scan is None:
        data.update(quilt_report(reading.quilt))  # type: ignore[arg-type]
        if reading.rounds is not None:
            scores = list(reading.rounds) + [None] * (3 - len(reading.rounds))
            known = len(reading.rounds) == 3
            data.update(round_scores=scores, total=sum(reading.rounds) - reading.quilt.empty_count() if known else None)
        if reading.note:  # a text quilt's JSON stays as it was unless there is something to say
            data["notes"] = [reading.note]
        if reading.problems:
            data["uncertain"] = [doubt.to_dict() for doubt in reading.problems]
        return data
    data.update(reading.scan.to_dict())
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
    if scan is not None and scan.specials_used is not None:
        used = report["specials_used"]
        click.echo(f"special actions used: {', '.join(used) if used else 'none'}")
    if "round_scores" in report:
        scores = report["round_scores"]
        click.echo("round scores: " + ", ".join("-" if s is None else str(s) for s in scores))
        if report["total"] is not None:
            click.echo(f"total: {' + '.join(map(str, scores))} - {report['empty']} = {report['total']}")
        else:
            click.echo(f"total: unknown (fill in every round's bubbles, or give --rounds {EXAMPLE_ROUNDS})")
    if reading.uncertain:
        click.echo("to check on the sheet:")
        unsure = [d for d in reading.uncertain if d.kind == "cell" and d.reason is None]
        if unsure:  # one wrapped line for the cells the reader is unsure of: a shadow can put dozens in doubt
            items = [f"{d.name} {'shaded' if d.read else 'empty'} {d.confidence:.2f}" for d in unsure]
            lines = [["  cells read unsure:"]]
            for item in items:
                if len(" ".join(lines[-1])) + len(item) > 98:
                    lines.append(["   "])
                lines[-1].append(item + ",")
            click.echo("\n".join(" ".join(line) for line in lines).rstrip(","))
        for doubt in reading.uncertain:
            if doubt not in unsure:
                click.echo(f"  {_doubt_text(doubt)}")


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


def _doubt_text(doubt: Uncertain) -> str:
    """One doubt as a line: what the reader read and how sure it is, or what a check found."""
    if doubt.reason is not None:  # a round's, the quilt's and the checks' reasons name what they are about
        named = {"cell": f"cell {doubt.name} ", "special": f"special box '{doubt.name}' "}.get(doubt.kind, "")
        return named + doubt.reason
    state = {"cell": ("shaded", "empty"), "special": ("crossed", "unused"), "bubble": ("filled", "empty")}[doubt.kind]
    label = f"cell {doubt.name}" if doubt.kind == "cell" else doubt.name
    return f"{label} read as {state[0] if doubt.read else state[1]} (confidence {doubt.confidence:.2f})"


def _summary(readings: list[Reading], reports: list[dict], interrupted: int = 0) -> None:
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
                f"{len(reading.uncertain)} to check" if reading.uncertain else "ok",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    failed = sum(reading.error is not None for reading in readings)
    if failed:
        click.echo(f"{failed} of {len(readings)} files could not be read (see 'error:' above)")
    if interrupted:
        click.echo(f"interrupted: {interrupted} more file{'s were' if interrupted > 1 else ' was'} not read")


def _annotate(readings: list[Reading], target: Path) -> None:
    from doodle.sheet.annotate import annotated_png

    photos = [r for r in readings if r.scan is not None]
    if not photos:
        click.echo("--annotate: nothing to draw (no photo was read; text quilts have no sheet to draw)", err=True)
        return
    for reading in photos:
        stem = _stem(reading.source)
        path = target / f"{stem}.annotated.png" if len(readings) > 1 or target.is_dir() else target
        _write_png(path, annotated_png(reading.scan))


def _stem(source: str) -> str:
    return "stdin" if source == STDIN else Path(source).stem


def _write_png(path: Path, data: bytes) -> None:
    try:
        write_atomic(path, data)
    except OSError as error:
        raise click.ClickException(
            f"cannot write {path} ({error.strerror or error}): choose a file in a folder you can write to"
        ) from None


def _trace_dir(target: Path) -> Path:
    """The --trace directory, made if missing, before anything is read (a photo's trace is written as it is
    read)."""
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise click.UsageError(f"--trace {target}: cannot make that directory ({error.strerror or error}); "
                               "give a directory you can write to") from None
    return target


def _write_trace(trace: dict[str, np.ndarray], target: Path, stem: str) -> None:
    """Each stage's picture as STEM.NN-NAME.png in `target`, numbered in the order the stages found them."""
    import cv2

    for number, (name, picture) in enumerate(trace.items(), start=1):
        ok, data = cv2.imencode(".png", picture)
        if ok:
            _write_png(target / f"{stem}.{number:02d}-{name}.png", data.tobytes())


def _read_all(files: tuple[str, ...], checks: SheetChecks, rounds: tuple[int, ...] | None,
              trace_to: Path | None = None) -> tuple[list[Reading], int]:
    """Every input read in turn, each failure kept as that input's error; on Ctrl-C, what was read so far and
    how many inputs were left. With `trace_to`, each photo's trace is written there as it is read."""
    readings: list[Reading] = []
    try:
        with click.progressbar(files, label="reading", file=sys.stderr, hidden=len(files) == 1) as bar:
            for source in bar:
                trace: dict[str, np.ndarray] | None = None if trace_to is None else {}
                readings.append(_read_one(source, checks, rounds, trace))
                if trace_to is not None and trace:
                    _write_trace(trace, trace_to, _stem(source))
    except KeyboardInterrupt:
        if len(files) == 1:
            raise
        return readings, len(files) - len(readings)
    return readings, 0


def _read_one(source: str, checks: SheetChecks, rounds: tuple[int, ...] | None,
              trace: dict[str, np.ndarray] | None = None) -> Reading:
    try:
        return read_input(source, checks, rounds, trace=trace)
    except Exception as error:  # noqa: BLE001 - the reader failing on one file must not lose the others' scores
        return Reading(source, error=f"{source}: the reader failed on it ({type(error).__name__}: {error}); please "
                                     "report it with the photo")


@click.command(epilog=f"Exit status: 0 all read, {EXIT_ERROR} a file could not be read, {EXIT_UNCERTAIN} something "
               "to check on a sheet was not confirmed (listed in the output), 2 bad usage, 130 interrupted.")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=str))
@click.option("--json", "as_json", is_flag=True, help="Write one JSON object per file (JSON lines).")
@click.option("--rounds", callback=_parse_rounds, metavar="R1,R2,R3",
              help=f"The round scores (e.g. {EXAMPLE_ROUNDS}; or 17 for round 1 alone), instead of the bubbles read "
                   "from the photo; they are checked like the bubbles.")
@click.option("--previous", metavar="QUILT.txt", help="The quilt confirmed at the scoring before (a text quilt): "
              "every cell covered in it but read empty now is to be checked.")
@click.option("--record", metavar="FILE", help="The game's record (`doodle deal --auto --json` output, or a game "
              "or solo record): the cells added in the round must be what its cards allow.")
@click.option("--round", "scoring_round", type=click.IntRange(1, 3), metavar="N",
              help="The scoring the photo was taken at (default 3, the end): later rounds are not expected.")
@click.option("--annotate", "annotate_to", type=click.Path(path_type=Path), metavar="OUT.png",
              help="Write the flattened sheet with what was read drawn on it; to an existing directory, or with "
                   "several photos, as NAME.annotated.png in that directory (created if missing).")
@click.option("--trace", "trace_to", type=click.Path(path_type=Path, file_okay=False), metavar="DIR",
              help="Write a picture of what each stage of the photo reader found (the paper, the shadows, the light, "
                   "the ink, the strokes, the cells, the boxes, the bubbles) as NAME.NN-STAGE.png in DIR (created if "
                   "missing): to see why a photo was read as it was.")
@click.option("--ask/--no-ask", default=None,
              help="Ask about uncertain marks (default: when run on a terminal and the input is not `-`).")
@click.option("--color/--no-color", default=None, help="Colour the drawing (default: when on a terminal).")
def score(
    files: tuple[str, ...],
    as_json: bool,
    rounds: tuple[int, ...] | None,
    previous: str | None,
    record: str | None,
    scoring_round: int | None,
    annotate_to: Path | None,
    trace_to: Path | None,
    ask: bool | None,
    color: bool | None,
) -> None:
    """Score quilts from photos of doodle score sheets or from text grids.

    A photo (JPEG, PNG, ...) of a sheet printed by `doodle sheet` is read from its four corner markers (three
    suffice); the photo of another 9x9 grid is read from its lines, less surely. The reader reports the quilt, the
    best rectangle, the empty cells, the special actions crossed off and the round scores filled in as bubbles,
    and the total when all three are known. Marks it is unsure of, and what the rules do not allow (a round score
    no rectangle makes, a lower score than the round before, a round 3 score other than the quilt's best
    rectangle), are listed; on a terminal it asks about them.

    A text quilt is 9 lines of 9 characters, '#' covered and '.' empty (what a file holds decides, not its name).
    `-` reads a photo or a text quilt from standard input.

    Several files: a progress bar, then one summary table (or JSON lines with --json); a file that cannot be read
    is reported in its row, and Ctrl-C shows what was read so far.
    """
    piped = sum(source == STDIN for source in files)
    if piped > 1:
        raise click.UsageError(f"{STDIN} (the photo or text quilt on standard input) can be given only once")
    if piped and ask:
        raise click.UsageError(f"--ask reads answers from standard input, which holds the input ({STDIN}): "
                               "give the photo's file name instead")
    checks = sheet_checks(previous, record, scoring_round)
    if ask is None:
        ask = not piped and sys.stdin is not None and sys.stdin.isatty()
    many = len(files) > 1
    if annotate_to is not None and many and annotate_to.exists() and not annotate_to.is_dir():
        raise click.UsageError(f"--annotate {annotate_to}: with several files, give a directory")
    if trace_to is not None:
        trace_to = _trace_dir(trace_to)
    readings, interrupted = _read_all(files, checks, rounds, trace_to)
    if not many and readings[0].error is not None:
        raise click.ClickException(readings[0].error)
    if ask and not interrupted:
        from doodle.cli.score_ask import ask_about

        for reading in readings:
            if reading.scan is not None and reading.uncertain:
                ask_about(reading)
    reports = [_report(reading) for reading in readings]
    if as_json:
        for report in reports:
            echo_json(report)
    elif many:
        _summary(readings, reports, interrupted)
    else:
        _describe(readings[0], reports[0], use_color(color))
    for warning in _same_sheet_warnings(readings):
        click.echo(warning, err=True)
    if annotate_to is not None:
        _annotate(readings, annotate_to)
    ctx = click.get_current_context()
    if interrupted:
        click.echo(f"interrupted: {interrupted} of {len(files)} files not read", err=True)
        ctx.exit(130)
    if any(reading.error is not None for reading in readings):
        ctx.exit(EXIT_ERROR)
    if any(reading.uncertain for reading in readings):
        ctx.exit(EXIT_UNCERTAIN)
