"""`doodle score PHOTO...`: output, options, exit codes, and a clear message for every kind of bad input."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from doodle.cli import main
from doodle.cli.score import EXIT_UNCERTAIN
from doodle.quilt import Quilt
from doodle.sheet import layout
from doodle.sheet.scan import read_photo
from tests.photogen import make_photo
from tests.photogen_families import family_photo
from tests.photogen_styles import styled_photo

EXAMPLES = Path(__file__).resolve().parent / "photos"  # layout 1 and 2 photos of random fills, read exactly
SURE = EXAMPLES / "moderate-5.jpg"  # read with no doubt


def rounds_for(photo: Path) -> str:
    """Round scores the sheet's quilt allows (0, then its best rectangle twice), given with --rounds so that the
    example's bubbles (random numbers) raise no doubt."""
    best = json.loads(photo.with_suffix(".json").read_text())["rectangle"]["score"]
    return f"0,{best},{best}"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, ["score", *args], input=input)


def write_jpeg(path: Path, image: np.ndarray) -> Path:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    path.write_bytes(data.tobytes())
    return path


@pytest.fixture(scope="module")
def photo():
    return make_photo(1, "mild", megapixels=2.0)


def test_photo_is_scored_like_a_text_quilt(tmp_path):
    expected = json.loads(SURE.with_suffix(".json").read_text())
    result = run("--no-ask", "--no-color", "--rounds", rounds_for(SURE), str(SURE))
    assert result.exit_code == 0, result.output
    assert "sheet 0004, layout 1, read with 4 of 4 corner markers" in result.output
    rect = expected["rectangle"]
    assert f"{rect['width']} wide x {rect['height']} high" in result.output
    assert f"scores {rect['score']}" in result.output
    assert f"empty cells: {expected['empty']}" in result.output
    assert "special actions used: single" in result.output
    assert f"total: 0 + {rect['score']} + {rect['score']} - {expected['empty']} = " in result.output


def test_json_and_rounds_option():
    expected = json.loads(SURE.with_suffix(".json").read_text())
    data = json.loads(run("--json", "--no-ask", str(SURE)).output)
    for key in ("quilt", "empty", "rectangle", "specials_used", "round_scores", "total"):
        assert data[key] == expected[key], key
    assert data["file"] == str(SURE) and data["method"] == "markers"
    assert {doubt["kind"] for doubt in data["uncertain"]} == {"round"}  # the example's bubbles are random numbers
    assert data["layout"] == "1" and data["sheet_id"] == "0004"  # a layout 1 sheet, told by its marker ids
    given = run("--json", "--no-ask", "--rounds", rounds_for(SURE), str(SURE))
    best = expected["rectangle"]["score"]
    assert given.exit_code == 0 and json.loads(given.output)["uncertain"] == []
    assert json.loads(given.output)["round_scores"] == [0, best, best]
    assert json.loads(given.output)["total"] == 2 * best - expected["empty"]


@pytest.mark.parametrize("value", ["17,35,60,81", "a,b,c", "17,35,99", ""])
def test_bad_rounds_option(value):
    result = run("--rounds", value, str(SURE))
    assert result.exit_code == 2 and "--rounds" in result.output


def test_text_quilt_with_rounds_gets_a_total(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text("#########\n" * 9)
    data = json.loads(run("--json", "--rounds", "81,81,81", str(path)).output)
    assert data["empty"] == 0 and data["total"] == 243


def test_annotate_writes_the_flattened_sheet(tmp_path):
    out = tmp_path / "seen.png"
    result = run("--no-ask", "--rounds", rounds_for(SURE), "--annotate", str(out), str(SURE))
    assert result.exit_code == 0, result.output
    image = cv2.imread(str(out))
    assert image is not None and image.shape[1] == 760 and image.shape[0] > 1048  # the sheet plus a caption band
    quilt = Quilt.from_rows(json.loads(SURE.with_suffix(".json").read_text())["quilt"])
    caption = 36  # the band above the sheet: 9 mm at 4 px/mm
    for row, col in {(r, c) for r in range(9) for c in range(9)} - quilt.cells:
        x0, y0, x1, y1 = layout.cell_rect(row, col).to_px(4.0)
        blue, green, red = image[caption + (y0 + y1) // 2, (x0 + x1) // 2].astype(int)
        assert red - max(green, blue) < 40, (row, col)  # a quiet grey ring, not a red dot that reads as an error
    legend = image[-130:]
    orange = (np.abs(legend.astype(int) - (0, 140, 255)).sum(axis=2) < 40).sum()
    assert orange > 50  # the legend's swatch for what is to be checked


def test_uncertain_marks_give_their_own_exit_code_or_are_asked(tmp_path):
    """Coffee-ring 4: a mug's rings over the sheet, the cells whose brown tint they may explain offered as empty: 6
    cells in doubt, each read right."""
    photo = styled_photo(4, "mild", distractor="coffee ring")
    path = tmp_path / "coffee-ring-4.jpg"
    path.write_bytes(photo.jpeg)
    truth = photo.truth.quilt
    best = truth.score_rectangle()
    rounds = f"0,{best},{best}"  # scores the quilt allows, so that the bubbles raise no doubt
    result = run("--no-ask", "--no-color", str(path))
    assert result.exit_code == EXIT_UNCERTAIN, result.output
    assert "to check on the sheet:\n  cells read unsure: " in result.output
    doubted = [doubt.cell for doubt in read_photo(path).uncertain if doubt.kind == "cell"]
    assert len(doubted) > 5
    # On a terminal it asks. Many cells in doubt are shown on a map first: one answer settles them all.
    asked = run("--ask", "--json", "--rounds", rounds, str(path), input="\n" * 100)
    assert asked.exit_code == 0, asked.output
    assert "does your sheet match the map?" in asked.output and "is it shaded?" not in asked.output
    data = json.loads(asked.output.strip().splitlines()[-1])
    assert data["uncertain"] == [] and data["quilt"] == truth.rows()
    # When the map is wrong, each cell is asked about; answering from the sheet gives the true quilt.
    answers = "n\n" + "".join("y\n" if truth.is_covered(*cell) else "n\n" for cell in doubted) + "\n" * 20
    one_by_one = run("--ask", "--json", "--rounds", rounds, str(path), input=answers)
    assert one_by_one.exit_code == 0, one_by_one.output
    assert "is it shaded?" in one_by_one.output
    assert json.loads(one_by_one.output.strip().splitlines()[-1])["quilt"] == truth.rows()


@pytest.mark.parametrize(("family", "seed", "line"), [
    ("framing", 3400005, "special box 'twice' not all in the photo, so it was not read: check it on the sheet"),
    ("light", 1000005, "special box 'cut' under glare: washed out to white, pencil may not show"),
])
def test_a_special_box_to_check_is_named(tmp_path, family, seed, line):
    """A box outside the photo (framing 3400005: the sheet's edge cut off past 'twice') or under a glare is named
    on its line: the glare's line was only "under glare: ...", which box left for the player to guess."""
    path = tmp_path / "sheet.jpg"
    path.write_bytes(family_photo(seed, family).jpeg)
    result = run("--no-ask", "--no-color", str(path))
    assert result.exit_code == EXIT_UNCERTAIN, result.output
    assert f"\n  {line}\n" in result.output


def test_several_photos_give_one_table_or_json_lines(tmp_path):
    files = [str(SURE), str(EXAMPLES / "mild-2.jpg"), str(tmp_path / "missing.jpg")]
    table = run("--no-ask", "--rounds", rounds_for(SURE), *files)
    assert table.exit_code == 1  # one file could not be read
    lines = table.stdout.strip().splitlines()  # the progress bar goes to stderr
    assert lines[0].split()[:4] == ["file", "sheet", "empty", "rectangle"]
    assert any(line.startswith(str(SURE)) and line.split()[1] == "0004" and line.rstrip().endswith("ok")
               for line in lines)
    assert any(line.startswith(str(EXAMPLES / "mild-2.jpg")) and line.rstrip().endswith("to check")
               for line in lines)  # its quilt's best rectangle is not SURE's: round 3 is in doubt
    assert any("missing.jpg does not exist" in line for line in lines)
    assert "1 of 3 files could not be read" in table.stdout
    jsonl = run("--no-ask", "--json", *files[:2])
    records = [json.loads(line) for line in jsonl.stdout.strip().splitlines()]
    assert [r["file"] for r in records] == files[:2] and jsonl.exit_code == EXIT_UNCERTAIN


def test_photos_of_the_same_sheet_in_one_batch_are_warned_about(tmp_path):
    again = tmp_path / "again.jpg"
    again.write_bytes(SURE.read_bytes())
    other = EXAMPLES / "harsh-8.jpg"  # sheet 0002
    result = run("--no-ask", str(SURE), str(other), str(again))
    assert result.exit_code == EXIT_UNCERTAIN, result.output  # the examples' bubbles are random numbers
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert warnings == [
        f"warning: {SURE} and {again} show the same sheet 0004 (layout 1): one sheet photographed more than once, "
        "or sheets printed with the same id; count each player's sheet once"
    ]
    assert "warning:" not in result.stdout  # the table (or JSON lines) stays clean
    jsonl = run("--no-ask", "--json", str(SURE), str(again))
    assert "show the same sheet 0004" in jsonl.stderr
    assert [json.loads(line)["sheet_id"] for line in jsonl.stdout.splitlines()] == ["0004", "0004"]
    different = run("--no-ask", str(SURE), str(other))
    assert "warning:" not in different.output


TRACE_PICTURES = ("sheet", "paper", "shadows", "light", "ink", "light-variation", "strokes", "cells", "specials",
                  "bubbles")


def test_trace_writes_each_stage_picture_without_changing_the_reading(tmp_path):
    out = tmp_path / "new" / "trace"  # made, parents and all
    shadowed = EXAMPLES / "harsh-1.jpg"  # a hard shadow across the grid
    traced = run("--json", "--trace", str(out), str(shadowed))
    assert traced.exit_code == EXIT_UNCERTAIN, traced.output
    assert traced.output == run("--json", str(shadowed)).output
    assert sorted(path.name for path in out.iterdir()) == [f"harsh-1.{number:02d}-{name}.png" for number, name
                                                            in enumerate(TRACE_PICTURES, start=1)]
    width, height = layout.canonical_size_px(4.0)
    for name in TRACE_PICTURES:
        image = cv2.imread(str(next(out.glob(f"*-{name}.png"))))
        assert image.shape == (height, width, 3), name
        assert int(image.max()) - int(image.min()) > 50, f"{name} is blank"
    # what the pictures show: the shadow taken out washed blue with its edge red (far more of both than the photo
    # itself shows), and the grid's empty cells that joined the paper framed green in the ink picture
    def reddish_and_bluish(name: str) -> tuple[int, int]:
        b, g, r = np.moveaxis(cv2.imread(str(out / f"harsh-1.{name}.png")).astype(int), 2, 0)
        return int(((r > b + 80) & (r > g + 80)).sum()), int((b > r + 40).sum())

    (red, blue), (red_before, blue_before) = reddish_and_bluish("03-shadows"), reddish_and_bluish("01-sheet")
    assert red > 3 * red_before and blue > 10 * blue_before
    ink = cv2.imread(str(out / "harsh-1.05-ink.png")).reshape(-1, 3)
    assert np.any(np.all(ink == (40, 170, 40), axis=1))


def test_trace_of_a_text_quilt_draws_nothing_and_a_file_is_no_directory(tmp_path):
    text = tmp_path / "quilt.txt"
    text.write_text("\n".join(["#########"] * 9) + "\n")
    out = tmp_path / "trace"
    assert run("--no-ask", "--trace", str(out), str(text)).exit_code in (0, EXIT_UNCERTAIN)  # read, not refused
    assert list(out.iterdir()) == []
    result = run("--no-ask", "--trace", str(text), str(SURE))
    assert result.exit_code == 2 and "--trace" in result.output and "Traceback" not in result.output


def test_trace_of_a_refused_photo_shows_as_far_as_the_reading_got(tmp_path):
    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), (cv2.imread(str(SURE)).astype(np.float32) * 0.14).astype(np.uint8))
    out = tmp_path / "trace"
    result = run("--no-ask", "--trace", str(out), str(dark))
    assert result.exit_code == 1 and "too dark" in result.output
    assert sorted(path.name for path in out.iterdir()) == ["dark.01-sheet.png", "dark.02-paper.png",
                                                            "dark.03-shadows.png"]


def test_no_trace_draws_nothing(monkeypatch):
    """The trace costs nothing when off: no picture is drawn."""
    from doodle.sheet import pictures

    def refuse(*args, **kwargs):
        raise AssertionError("a trace picture was drawn without a trace")

    for name in ("washed", "grey", "ink", "framed", "pasted"):
        monkeypatch.setattr(pictures, name, refuse)
    assert read_photo(SURE).quilt.bits
    with pytest.raises(AssertionError, match="without a trace"):
        read_photo(SURE, trace={})


def test_annotate_several_photos_into_a_directory(tmp_path):
    result = run("--no-ask", "--annotate", str(tmp_path), str(SURE), str(EXAMPLES / "mild-2.jpg"))
    assert result.exit_code == EXIT_UNCERTAIN, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mild-2.annotated.png", "moderate-5.annotated.png"]


def _png_header_only(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b"")


@pytest.mark.parametrize(
    ("name", "make", "message"),
    [
        ("garbage.jpg", lambda p, photo: p.write_bytes(bytes(range(256)) * 40), "is not an image this reader"),
        ("empty.jpg", lambda p, photo: p.write_bytes(b""), "is empty (0 bytes)"),
        ("cut.jpg", lambda p, photo: p.write_bytes(photo.jpeg[: len(photo.jpeg) // 2]), "cut short"),
        ("huge.png", lambda p, photo: p.write_bytes(_png_header_only(30000, 20000)), "megapixels the reader accepts"),
        ("tiny.png", lambda p, photo: cv2.imwrite(str(p), np.full((50, 80, 3), 200, np.uint8)), "only 80x50 pixels"),
        ("table.jpg", lambda p, photo: write_jpeg(p, cv2.GaussianBlur(
            np.random.default_rng(0).integers(0, 255, (1200, 1600, 3), dtype=np.uint8), (0, 0), 2)),
         "no score sheet found"),
        ("dark.jpg", lambda p, photo: write_jpeg(p, (photo.image * 0.08).astype(np.uint8)), "too dark"),
        ("blurred.jpg", lambda p, photo: write_jpeg(p, cv2.GaussianBlur(photo.image, (0, 0), 10)), "too blurred"),
    ],
)
def test_bad_input_gets_its_own_message(tmp_path, photo, name, make, message):
    path = tmp_path / name
    make(path, photo)
    result = run("--no-ask", str(path))
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback


def test_a_directory_is_refused(tmp_path):
    result = run(str(tmp_path))
    assert result.exit_code == 1 and "is a directory" in result.output


def test_a_motion_photo_with_a_video_after_the_jpeg_is_read(tmp_path):
    """Phones' "motion photos" carry a video after the JPEG's end marker: the photo is whole, not cut short."""
    path = tmp_path / "motion.jpg"
    path.write_bytes(SURE.read_bytes() + b"\x00\x00\x00\x18ftypmp42" + bytes(200_000))
    result = run("--no-ask", "--json", "--rounds", rounds_for(SURE), str(path))
    assert result.exit_code == 0, result.output
    expected = json.loads(SURE.with_suffix(".json").read_text())
    assert json.loads(result.output)["quilt"] == expected["quilt"]


def test_an_error_message_starting_like_the_file_name_still_names_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cv2.imwrite("the.jpg", np.zeros((600, 800, 3), np.uint8))
    Path("the.jpg").rename("the")  # a photo named like the start of "the photo is too dark"
    result = run("--no-ask", "the")
    assert result.exit_code == 1 and "the: the photo is too dark" in result.output


def test_a_photo_or_a_text_quilt_is_read_from_standard_input():
    piped = CliRunner().invoke(main, ["score", "-", "--json"], input=SURE.read_bytes())
    named = run(str(SURE), "--json")
    assert piped.exit_code == named.exit_code == EXIT_UNCERTAIN, piped.output
    assert {**json.loads(piped.output), "file": None} == {**json.loads(named.output), "file": None}
    assert json.loads(piped.output)["file"] == "-"
    described = CliRunner().invoke(main, ["score", "-"], input=SURE.read_bytes())
    assert described.output.startswith("standard input: sheet ")
    text = CliRunner().invoke(main, ["score", "-", "--json"], input="#########\n" * 8 + "########.\n")
    assert text.exit_code == 0 and json.loads(text.output)["empty"] == 1


@pytest.mark.parametrize(
    ("args", "data", "code", "message"),
    [
        (["-"], b"", 1, "standard input is empty"),
        (["-"], b"\xff\xd8\xff\xe0" + b"\0" * 40, 1, "Error: standard input is "),
        (["-"], "#########\n", 1, "standard input: a quilt needs 9 rows"),
        (["-", "-"], b"", 2, "can be given only once"),
        (["-", "--ask"], b"", 2, "--ask reads answers from standard input"),
    ],
)
def test_bad_standard_input_is_named(args, data, code, message):
    result = CliRunner().invoke(main, ["score", *args], input=data)
    assert result.exit_code == code
    assert message in result.output and "Traceback" not in result.output
