"""`doodle score FILE...`: the score of a quilt, from a text grid (photos: see doodle.sheet)."""

from __future__ import annotations

from pathlib import Path

import click

from doodle.cli.common import echo_json, use_color
from doodle.quilt import Quilt, QuiltTextError
from doodle.render import cell_name, draw_quilt


def read_text_quilt(path: Path) -> Quilt:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise click.ClickException(
            f"{path} is neither a text quilt nor an image this command reads: write 9 lines of 9 '#' or '.'"
        ) from None
    except OSError as error:
        raise click.ClickException(f"cannot read {path}: {error.strerror}") from None
    try:
        return Quilt.from_text(text)
    except QuiltTextError as error:
        raise click.ClickException(f"{path}: {error}") from None


def quilt_report(quilt: Quilt) -> dict:
    rect = quilt.best_rectangle()
    return {"quilt": quilt.rows(), "empty": quilt.empty_count(), "rectangle": rect.to_dict() if rect else None}


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Write one JSON object per file (JSON lines).")
@click.option("--color/--no-color", default=None, help="Colour the drawing (default: when on a terminal).")
def score(files: tuple[Path, ...], as_json: bool, color: bool | None) -> None:
    """Score a quilt written as text: 9 lines of 9 characters, '#' covered and '.' empty.

    Shows the quilt with its best rectangle highlighted, the rectangle's size and score, and the empty cells.
    """
    for path in files:
        if not path.exists():
            raise click.ClickException(f"{path} does not exist")
        quilt = read_text_quilt(path)
        report = quilt_report(quilt)
        if as_json:
            echo_json({"file": str(path), **report})
            continue
        rect = quilt.best_rectangle()
        click.echo(f"{path}:")
        click.echo(draw_quilt(quilt, highlight=rect, color=use_color(color)))
        if rect:
            corner = cell_name(rect.row, rect.col)
            click.echo(
                f"best rectangle: {rect.width} wide x {rect.height} high at {corner}, scores {rect.score}"
            )
        else:
            click.echo("best rectangle: none (the quilt is empty), scores 0")
        click.echo(f"empty cells: {report['empty']} (penalty -{report['empty']})")
