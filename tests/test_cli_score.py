import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from doodle.cli import main

QUILT = """
####.....
####.....
####.....
####.....
####.#...
.........
.........
.........
.........
"""


def test_text_quilt_score(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text(QUILT)
    result = CliRunner().invoke(main, ["score", "--no-color", str(path)])
    assert result.exit_code == 0, result.output
    assert "4 wide x 5 high at a1, scores 17" in result.output
    assert "empty cells: 60" in result.output
    assert "▓▓" in result.output  # the rectangle is highlighted


def test_text_quilt_json(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text(QUILT)
    data = json.loads(CliRunner().invoke(main, ["score", "--json", str(path)]).output)
    assert data["quilt"][0] == "####....." and len(data["quilt"]) == 9
    assert data["empty"] == 60
    assert data["rectangle"] == {"row": 0, "col": 0, "height": 5, "width": 4, "score": 17}


@pytest.mark.parametrize(
    ("content", "message"),
    [("###\n", "found 1 row"), ("#########\n" * 8 + "####o####\n", "unexpected 'o'")],
)
def test_bad_text_quilts(tmp_path, content, message):
    path = tmp_path / "q.txt"
    path.write_text(content)
    result = CliRunner().invoke(main, ["score", str(path)])
    assert result.exit_code == 1 and message in result.output
    assert isinstance(result.exception, SystemExit)


def test_missing_file(tmp_path):
    result = CliRunner().invoke(main, ["score", str(tmp_path / "none.txt")])
    assert result.exit_code != 0 and "does not exist" in result.output


def test_unwritable_annotation_is_a_clear_error_after_the_score(tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    photo = str(Path(__file__).resolve().parent / "photos" / "mild-2.jpg")
    result = CliRunner().invoke(main, ["score", "--no-ask", "--annotate", str(blocker / "out.png"), photo])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "cannot write" in result.output and "total:" in result.output
    # a directory given for one photo gets <stem>.annotated.png inside it
    result = CliRunner().invoke(main, ["score", "--no-ask", "--rounds", "0,4,4", "--annotate", str(tmp_path), photo])
    assert result.exit_code == 0 and (tmp_path / "mild-2.annotated.png").stat().st_size > 0


def test_text_quilt_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text(QUILT, encoding="utf-8-sig")
    assert json.loads(CliRunner().invoke(main, ["score", "--json", str(path)]).output)["empty"] == 60
