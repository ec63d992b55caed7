"""What every command does with an awkward standard output: an encoding that cannot write the drawing characters,
and no standard output at all. Run as people run them: the real command in a subprocess."""

import io
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doodle.cli.common import ascii_fallback_streams, to_ascii

QUILT = Path(__file__).parent.parent / "examples" / "quilts" / "rulebook-4x5.txt"

COMMANDS = {
    "deal": ["deal", "--auto", "--players", "3", "--seed", "1"],
    "score": ["score", str(QUILT)],
    "solo --bot": ["solo", "--bot", "greedy", "--seed", "3"],
}


def doodle(args, tmp_path, encoding=None, **options):
    env = {**os.environ, "DOODLE_SOLO_SAVE": str(tmp_path / "save.json"), "DOODLE_SCORES": str(tmp_path / "s.db")}
    env.pop("PYTHONIOENCODING", None)
    if encoding:
        env["PYTHONIOENCODING"] = encoding
    return subprocess.run([sys.executable, "-m", "doodle", *args], env=env, capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=120, **options)


@pytest.mark.parametrize("encoding", ["latin-1", "ascii", "cp1252"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_output_that_cannot_draw_gets_ascii_drawings(command, encoding, tmp_path):
    result = doodle(COMMANDS[command], tmp_path, encoding)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    assert b"Traceback" not in result.stderr
    text = result.stdout.decode(encoding)  # every byte is one the encoding holds (no UTF-8 slipped through)
    assert "##" in text  # the patches and quilts are still drawn
    assert not set(text) & set("█▓▒━▶")


def test_a_utf8_output_keeps_the_drawing_characters(tmp_path):
    result = doodle(COMMANDS["deal"], tmp_path, "utf-8")
    assert result.returncode == 0
    assert "████" in result.stdout.decode("utf-8") and "━━" in result.stdout.decode("utf-8")


def test_the_ascii_stand_ins_keep_drawings_aligned():
    for char in "█▓▒░━─│┃┌┐└┘├┼▀▄":
        assert len(to_ascii(char)) == 1 and to_ascii(char).isascii() and to_ascii(char) != "?"
    assert [to_ascii(char) for char in "━│┌é"] == ["-", "|", "+", "e"]
    assert to_ascii("⚂") == "[3]" and to_ascii("\u4e00") == "?"


@pytest.mark.parametrize("command", sorted(COMMANDS) + ["--help"])
def test_a_closed_standard_output_is_a_clear_error(command, tmp_path):
    args = COMMANDS.get(command, [command])
    result = doodle(args, tmp_path, close_fds=True, preexec_fn=lambda: os.close(1))
    stderr = result.stderr.decode()
    assert result.returncode == 1
    assert "standard output is closed" in stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr


@given(st.text(), st.sampled_from(["ascii", "latin-1", "cp1252", "cp437"]))
def test_any_text_goes_out_through_any_encoding(text, encoding):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding, errors="strict", newline="")
    with mock.patch.object(sys, "stdout", stream), mock.patch.object(sys, "stderr", stream):
        ascii_fallback_streams()
        print(text, end="")
        sys.stdout.flush()
    written = raw.getvalue().decode(encoding)
    assert all(char in written for char in text if char.isascii())
    assert len(written) >= len(text.encode(encoding, "ignore").decode(encoding))


HEAVY = ("cv2", "textual", "reportlab", "numpy", "PIL", "doodle.sheet", "doodle.patchwork", "doodle.solo")


@pytest.mark.parametrize("args", [["--help"], ["deal", "--help"], ["deal", "--auto", "--players", "2", "--seed", "1"]])
def test_help_and_deal_import_no_heavy_library(args):
    # before: `doodle --help` imported every command to list them, reportlab and the Patchwork tables included
    code = f"import sys\nfrom doodle.cli import main\ntry:\n    main({args!r})\nexcept SystemExit:\n    pass\n" \
        "print(' '.join(sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    loaded = result.stdout.splitlines()[-1].split()
    assert not [m for m in loaded if m in HEAVY or m.startswith(tuple(f"{name}." for name in HEAVY))], loaded


def test_the_command_list_says_what_each_command_says_of_itself():
    import click

    from doodle.cli import COMMANDS as LAZY
    from doodle.cli import SUMMARIES, main

    context = click.Context(main)
    assert set(SUMMARIES) == set(LAZY)
    for name in LAZY:
        command = main.get_command(context, name)
        assert command.help.startswith(SUMMARIES[name]), name
        for limit in (30, 45, 74, 200):
            listed = click.Command(name, help=SUMMARIES[name]).get_short_help_str(limit)
            assert listed == command.get_short_help_str(limit), name
