"""`doodle sheet -o FILE.pdf`: printable score sheets that `doodle score` can read from a photo."""

from __future__ import annotations

from pathlib import Path

import click

from doodle.cli.common import write_atomic
from doodle.files import ReadOnlyFileError
from doodle.sheet.layout import PAPERS
from doodle.sheet.pdf import MAX_COUNT, render_sheets

MAX_SHEET_ID = 99_999_999
"""The largest sheet number printed: 8 digits keep the QR code at its 21 modules (0.93 mm each, the size the
reader was made for; 12 digits would need 25) and the footer on its line."""


def _non_folder_ancestor(path: Path) -> Path | None:
    """The nearest existing ancestor of `path` when it is not a folder (so the file cannot be created there)."""
    for parent in path.absolute().parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


@click.command()
@click.option("-o", "--output", "output", required=True, type=click.Path(path_type=Path, dir_okay=False),
              help="The PDF file to write (replaced atomically if it exists, unless it is read-only; a symbolic "
                   "link is written through).")
@click.option("-n", "--count", default=1, show_default=True, type=int, help=f"Number of sheets (1-{MAX_COUNT}).")
@click.option("--paper", default="a4", show_default=True, type=click.Choice(sorted(PAPERS), case_sensitive=False),
              help="Paper size.")
@click.option("--two-up", is_flag=True, help="Two smaller sheets per landscape page (cells about 11 mm).")
@click.option("--first-id", default=1, show_default=True, type=int,
              help=f"Number of the first sheet (0-{MAX_SHEET_ID}); each sheet prints its number in the QR code and "
                   "the footer.")
def sheet(output: Path, count: int, paper: str, two_up: bool, first_id: int) -> None:
    """Write printable Patchwork Doodle score sheets as a PDF.

    Each sheet has the 9x9 quilt grid, the four special actions to cross off, the round scores with bubbles to
    fill (so a photo can read them), penalty and total boxes, and corner markers plus a QR code for
    `doodle score PHOTO`. Print at 100 % (no "fit to page").
    """
    if not 1 <= count <= MAX_COUNT:
        raise click.BadParameter(f"must be between 1 and {MAX_COUNT}, not {count}", param_hint="'--count'")
    if first_id < 0:
        raise click.BadParameter(f"must be 0 or more, not {first_id}", param_hint="'--first-id'")
    if first_id > MAX_SHEET_ID - count + 1:
        last = "it" if count == 1 else f"the last of {count} sheets"
        raise click.BadParameter(
            f"sheets are numbered up to {MAX_SHEET_ID} (8 digits, what the QR code and the footer hold), so "
            f"{last} cannot start at {first_id}: start at {MAX_SHEET_ID - count + 1} or lower",
            param_hint="'--first-id'")
    if output.is_dir():
        raise click.ClickException(f"{output} is a directory: give a file name such as {output / 'sheets.pdf'}")
    if output.suffix.lower() != ".pdf":
        raise click.BadParameter(f"{output} does not end in .pdf: name the file e.g. sheets.pdf", param_hint="'-o'")
    blocker = _non_folder_ancestor(output)
    if blocker is not None:
        raise click.ClickException(f"cannot write {output}: {blocker} is a file, not a folder")
    data = render_sheets(count, paper.lower(), 2 if two_up else 1, first_id)
    try:
        write_atomic(output, data)
    except ReadOnlyFileError:
        raise click.ClickException(f"{output} is read-only, so it was left as it is: make it writable, or choose "
                                   "another name") from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise click.ClickException(f"cannot write {output}: {reason}; choose a folder you can write to") from None
    pages = (count + 1) // 2 if two_up else count
    click.echo(f"wrote {output}: {count} sheet{'s' if count != 1 else ''} on {pages} {paper.lower()} "
               f"page{'s' if pages != 1 else ''}")
