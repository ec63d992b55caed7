"""`doodle score --ask`: ask the person at the terminal about each doubt, then apply the answers with
`ScanResult.corrected` (the same call the web table makes when a player taps a cell)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import click

from doodle.cli.score_input import Reading
from doodle.geometry import Cell
from doodle.quilt import MAX_ROUND_SCORE, Quilt, parse_cell_name
from doodle.render import ascii_quilt, plural
from doodle.sheet.doubts import Uncertain

CELLS_AT_ONCE = 5  # more cells in doubt than this are shown on a map and confirmed together first
MAX_PASSES = 3  # answers can raise new doubts (a corrected cell changes the best rectangle): ask again, this often


def ask_about(reading: Reading) -> None:
    """Ask about each doubt of a photo's reading and apply the answers to it.

    Many cells in doubt (a hard shadow across the grid) are first shown on a map of the quilt as read and
    confirmed with one answer; only when the map is wrong is each of them asked about. What is answered is
    settled; a doubt the answers raise (a corrected cell changes the best rectangle, which the round score must
    equal) is asked about in turn."""
    scan = reading.scan
    assert scan is not None
    click.echo(f"{reading.name}: {plural(len(scan.doubts), 'thing')} to check on the sheet:", err=True)
    asked: set[str] = set()
    for _ in range(MAX_PASSES):
        doubts = [doubt for doubt in scan.doubts if doubt.name not in asked]
        if not doubts:
            break
        answers = _Answers()
        _ask_cells(scan.quilt, [d for d in doubts if d.kind == "cell"], answers)
        for doubt in doubts:
            if doubt.kind == "special":
                answers.specials[doubt.special] = _confirm(  # type: ignore[index]
                    f"special action '{doubt.special}' looks {'crossed off' if doubt.read else 'unused'} "
                    f"(confidence {doubt.confidence:.2f}): is it crossed off?", doubt.read)
                answers.confirm.add(doubt.name)
        _ask_rounds(scan.round_scores, [d for d in doubts if d.kind in ("bubble", "round")], answers)
        for doubt in doubts:
            if doubt.kind == "quilt":
                _ask_quilt(scan.quilt, doubt, answers)
        asked |= {doubt.name for doubt in doubts}
        scan = scan.corrected(answers.cells, answers.specials, answers.rounds, confirm=answers.confirm)
    reading.scan, reading.quilt = scan, scan.quilt


@dataclass
class _Answers:
    """One pass's answers, in the form `ScanResult.corrected` takes, and the doubts the player settled."""

    cells: dict[Cell, bool] = field(default_factory=dict)
    specials: dict[str, bool] = field(default_factory=dict)
    rounds: dict[int, int | None] = field(default_factory=dict)
    confirm: set[str] = field(default_factory=set)


def _ask_cells(quilt: Quilt, cells: list[Uncertain], answers: _Answers) -> None:
    if len(cells) > CELLS_AT_ONCE:
        click.echo(ascii_quilt(quilt, doubted=[doubt.cell for doubt in cells]), err=True)  # type: ignore[misc]
        if _confirm(f"{len(cells)} cells are in doubt, marked X (read as shaded) and o (read as empty): does your "
                    "sheet match the map?", True):
            answers.cells.update((doubt.cell, doubt.read) for doubt in cells)  # type: ignore[misc]
            answers.confirm.update(doubt.name for doubt in cells)
            return
    for doubt in cells:
        why = doubt.reason or f"confidence {doubt.confidence:.2f}"
        answers.cells[doubt.cell] = _confirm(  # type: ignore[index]
            f"cell {doubt.name} looks {'shaded' if doubt.read else 'empty'} ({why}): is it shaded?", doubt.read)
        answers.confirm.add(doubt.name)


def _ask_rounds(scores: tuple[int | None, ...], doubts: list[Uncertain], answers: _Answers) -> None:
    by_round: dict[int, list[Uncertain]] = defaultdict(list)
    for doubt in doubts:
        by_round[doubt.round].append(doubt)  # type: ignore[index]
    for number in sorted(by_round):
        current = scores[number - 1]
        reasons = [doubt.reason for doubt in by_round[number] if doubt.reason]
        why = "; ".join(reasons) if reasons else "unsure of its bubbles"
        read = "not filled in" if current is None else str(current)
        answers.rounds[number] = click.prompt(
            f"  round {number} score read as {read} ({why}): the round score, or '-' if none",
            default="-" if current is None else str(current),
            value_proc=round_answer,
            err=True,
        )
        answers.confirm.add(f"round {number}")


def _ask_quilt(quilt: Quilt, doubt: Uncertain, answers: _Answers) -> None:
    click.echo(f"  the quilt as read: {doubt.reason}", err=True)
    if _confirm("is the quilt as read what your sheet shows?", False):
        answers.confirm.add(doubt.name)
        return
    changes = click.prompt("  the cells read wrong, to change (e.g. c4 d5), or Enter for none", default="",
                           show_default=False, value_proc=cell_list_answer, err=True)
    for cell in changes:
        answers.cells[cell] = not quilt.is_covered(*cell)


def round_answer(text: str) -> int | None:
    """A round score typed at the prompt: 0 to 81 in plain digits, or '-' for none; click asks again otherwise."""
    text = text.strip()
    if text == "-":
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 2) or int(text) > MAX_ROUND_SCORE:
        raise click.UsageError(f"{text[:20]!r} is not a round score: type 0 to {MAX_ROUND_SCORE} in digits 0-9, "
                               "or '-'")
    return int(text)


def cell_list_answer(text: str) -> list[Cell]:
    try:
        return [parse_cell_name(name) for name in text.replace(",", " ").split()]
    except ValueError as error:
        raise click.UsageError(str(error)) from None


def _confirm(question: str, default: bool) -> bool:
    return click.confirm(f"  {question}", default=default, err=True)
