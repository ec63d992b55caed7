"""`doodle score`: what it reads (streams, encodings, names), the checks against the sheet and the game
(--rounds, --previous, --record), the --ask prompt, and a batch that keeps going."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from doodle.cli import main
from doodle.cli.score import EXIT_UNCERTAIN
from doodle.game.checks import dealt_events
from doodle.game.deck import bundled_deck
from doodle.game.game import DoodleGame
from doodle.quilt import Quilt
from tests.test_game_checks import play
from tests.test_scan_cli import SURE, rounds_for

ROOT = Path(__file__).resolve().parent.parent
FULL = "#########\n" * 9
QUILT = "#########\n" * 8 + "#####....\n"


def run(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(main, ["score", *args], input=input)


# --- what is read ---------------------------------------------------------------------------------------------
def test_a_pipe_given_as_a_file_is_read_not_called_empty():
    """`doodle score <(cat q.txt)` names a /dev/fd path whose size stat says is 0."""
    read, write = os.pipe()
    os.write(write, QUILT.encode())
    os.close(write)
    try:
        result = run("--json", f"/dev/fd/{read}")
    finally:
        os.close(read)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["empty"] == 4


def test_a_fifo_is_read(tmp_path):
    fifo = tmp_path / "quilt.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(QUILT))
    writer.start()
    result = run("--json", str(fifo))
    writer.join()
    assert result.exit_code == 0 and json.loads(result.output)["empty"] == 4


def test_dev_stdin_is_read():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "doodle", "score", "--json", "/dev/stdin"], input=QUILT.encode(),
                          capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["empty"] == 4


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_text_quilts_in_utf16_are_text(tmp_path, encoding):
    path = tmp_path / "q.txt"
    path.write_bytes(QUILT.encode(encoding))
    result = run("--json", str(path))
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["empty"] == 4


def test_a_latin1_file_is_named_as_such_not_as_no_image(tmp_path):
    path = tmp_path / "q.txt"
    path.write_bytes(("#########\n" * 8 + "########é\n").encode("latin-1"))
    result = run(str(path))
    assert result.exit_code == 1
    assert "is not UTF-8 text (read as Latin-1" in result.output and "save it as UTF-8" in result.output
    assert "not an image" not in result.output


def test_an_empty_file_name_is_named():
    result = run("")
    assert result.exit_code == 1 and "an empty file name was given" in result.output
    assert "is a directory" not in result.output


def test_a_text_file_named_like_a_photo_is_told_by_its_content(tmp_path):
    quilt = tmp_path / "quilt.jpg"
    quilt.write_text(QUILT)
    result = run("--json", str(quilt))
    assert result.exit_code == 0 and json.loads(result.output)["empty"] == 4
    assert "holds a text quilt, not a photo" in json.loads(result.output)["notes"][0]
    notes = tmp_path / "notes.jpg"
    notes.write_text("remember the milk\n")
    result = run(str(notes))
    assert result.exit_code == 1 and "notes.jpg is not an image: it holds text" in result.output
    assert "Traceback" not in result.output


# --- round scores ---------------------------------------------------------------------------------------------
def test_a_round_not_read_is_a_doubt_not_ok():
    result = run("--no-ask", "--no-color", str(SURE))
    assert result.exit_code == EXIT_UNCERTAIN
    assert "round 1 score not read" in result.output


@pytest.mark.parametrize(("value", "message"), [
    ("¹⁷,35,60", "digits 0-9"),
    ("١٧,35,60", "digits 0-9"),
    ("1" * 5000 + ",1,1", "at most 81"),
])
def test_rounds_in_other_digits_or_too_long_are_refused_clearly(value, message):
    result = run("--rounds", value, str(SURE))
    assert result.exit_code == 2 and message in result.output
    assert not isinstance(result.exception, ValueError) and "Traceback" not in result.output


def test_given_round_scores_are_checked_like_read_ones(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text(FULL)
    result = run("--json", "--rounds", "70,25,81", str(path))
    assert result.exit_code == EXIT_UNCERTAIN
    reasons = [doubt["reason"] for doubt in json.loads(result.output)["uncertain"]]
    assert any("no rectangle scores 70" in reason for reason in reasons)
    assert any("round 2 score 25 is lower than round 1's 70" in reason for reason in reasons)
    assert run("--json", "--rounds", "25,49,81", str(path)).exit_code == 0
    wrong = run("--rounds", "25,49,64", str(path))
    assert wrong.exit_code == EXIT_UNCERTAIN
    assert "round 3 score 64 differs" in wrong.output and "scores 81" in wrong.output


def test_a_superscript_digit_at_the_prompt_is_asked_again_and_earlier_answers_kept():
    best = json.loads(SURE.with_suffix(".json").read_text())["rectangle"]["score"]
    result = run("--ask", "--json", str(SURE), input=f"0\n²\n{best}\n{best}\n")
    assert result.exit_code == 0, result.output
    assert "is not a round score" in result.output
    assert json.loads(result.output.strip().splitlines()[-1])["round_scores"] == [0, best, best]


# --- the previous quilt and the game's record ---------------------------------------------------------------------
def test_previous_names_every_cell_covered_before_and_read_empty_now(tmp_path):
    expected = Quilt.from_rows(json.loads(SURE.with_suffix(".json").read_text())["quilt"])
    previous = tmp_path / "round2.txt"
    previous.write_text(str(expected.place([(0, 0), (8, 8)])))
    result = run("--no-ask", "--json", "--rounds", rounds_for(SURE), "--previous", str(previous), str(SURE))
    assert result.exit_code == EXIT_UNCERTAIN, result.output
    doubts = json.loads(result.output)["uncertain"]
    assert [(d["kind"], d["name"], d["read"]) for d in doubts] == [("cell", "a1", False), ("cell", "i9", False)]
    assert all("covered in the previous quilt" in d["reason"] for d in doubts)
    # a player who confirms the cells settles them
    asked = run("--ask", "--json", "--rounds", rounds_for(SURE), "--previous", str(previous), str(SURE),
                input="y\ny\n")
    assert asked.exit_code == 0, asked.output
    data = json.loads(asked.output.strip().splitlines()[-1])
    assert data["uncertain"] == [] and data["quilt"][0][0] == "#" and data["quilt"][8][8] == "#"
    # the same check on a text quilt
    text = tmp_path / "now.txt"
    text.write_text(str(expected))
    assert "cell a1 covered in the previous quilt" in run("--previous", str(previous), str(text)).output


@pytest.mark.parametrize("text", ["9" * 5000 + "\n", '{"event": "setup", "seed": ' + "9" * 5000 + "}\n"])
def test_a_record_with_a_number_too_long_to_read_is_refused_with_a_message(tmp_path, text):
    record = tmp_path / "deal.jsonl"
    record.write_text(text)
    quilt = tmp_path / "q.txt"
    quilt.write_text(FULL)
    result = run("--record", str(record), "--round", "1", str(quilt))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "neither JSON lines of `doodle deal --auto --json` nor a game record" in result.output


def test_a_record_stands_for_the_cards_of_the_round(tmp_path):
    seed = 11
    quilts, crossed = play(seed, 5)
    record = tmp_path / "deal.jsonl"
    record.write_text("".join(json.dumps(event) + "\n" for event in dealt_events(seed, 1, bundled_deck())))
    game_record = tmp_path / "game.json"
    game_record.write_text(json.dumps(DoodleGame.new(1, seed).to_record()))
    round1, round2 = tmp_path / "r1.txt", tmp_path / "r2.txt"
    round1.write_text(str(quilts[0]))
    round2.write_text(str(quilts[1]))
    for source in (record, game_record):
        result = run("--json", "--record", str(source), "--round", "2", "--previous", str(round1), str(round2))
        assert result.exit_code == 0, result.output
    full = tmp_path / "full.txt"
    full.write_text(FULL)
    result = run("--json", "--record", str(record), "--round", "1", str(full))
    assert result.exit_code == EXIT_UNCERTAIN
    [doubt] = json.loads(result.output)["uncertain"]
    assert doubt["kind"] == "quilt" and "81 cells added in round 1, but its cards allow at most" in doubt["reason"]


@pytest.mark.parametrize(("args", "message"), [
    (["--record", "{record}", "--round", "2"], "give --previous"),
    (["--record", "{missing}", "--round", "1"], "does not exist"),
    (["--record", "{garbage}", "--round", "1"], "neither JSON lines"),
    (["--previous", "{garbage}"], "--previous"),
])
def test_bad_checks_options_are_usage_errors(tmp_path, args, message):
    record = tmp_path / "deal.jsonl"
    record.write_text("".join(json.dumps(event) + "\n" for event in dealt_events(1, 1, bundled_deck())))
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("{not json\n")
    quilt = tmp_path / "q.txt"
    quilt.write_text(QUILT)
    names = {"record": record, "missing": tmp_path / "missing.jsonl", "garbage": garbage}
    result = run(*[arg.format(**names) for arg in args], str(quilt))
    assert result.exit_code == 2 and message in result.output, result.output


# --- batches --------------------------------------------------------------------------------------------------
def test_a_file_the_reader_fails_on_does_not_lose_the_batch(tmp_path, monkeypatch):
    import doodle.cli.score as score_cli

    good = tmp_path / "good.txt"
    good.write_text(QUILT)
    real = score_cli.read_input

    def failing(source, checks, rounds, trace=None):
        if source.endswith("bad.jpg"):
            raise RuntimeError("the reader broke")
        return real(source, checks, rounds, trace=trace)

    monkeypatch.setattr(score_cli, "read_input", failing)
    result = run(str(good), str(tmp_path / "bad.jpg"), str(good))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert sum(line.startswith(str(good)) and line.endswith("ok") for line in lines) == 2
    assert any("bad.jpg: the reader failed on it (RuntimeError: the reader broke)" in line for line in lines)
    assert "1 of 3 files could not be read" in result.stdout


def test_ctrl_c_in_a_batch_shows_what_was_read(tmp_path, monkeypatch):
    import doodle.cli.score as score_cli

    good = tmp_path / "good.txt"
    good.write_text(QUILT)
    real = score_cli.read_input
    calls = []

    def interrupted(source, checks, rounds, trace=None):
        calls.append(source)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(source, checks, rounds, trace=trace)

    monkeypatch.setattr(score_cli, "read_input", interrupted)
    result = run(str(good), str(good), str(good))
    assert result.exit_code == 130
    assert any(line.startswith(str(good)) and line.endswith("ok") for line in result.stdout.splitlines())
    assert "interrupted: 2 more files were not read" in result.stdout


# --- at a terminal --------------------------------------------------------------------------------------------
def test_at_a_terminal_it_asks_and_a_superscript_digit_is_asked_again():
    """In a pseudo-terminal, as a player runs it: the round scores not read are asked for; '²' gets a message and
    the same question again; the answers give the total."""
    import pty
    import select

    best = json.loads(SURE.with_suffix(".json").read_text())["rectangle"]["score"]
    empty = json.loads(SURE.with_suffix(".json").read_text())["empty"]
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "120"}
    process = subprocess.Popen([sys.executable, "-m", "doodle", "score", str(SURE)], stdin=slave, stdout=slave,
                               stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen = b""

    def until(text: str) -> None:
        nonlocal seen
        while text.encode() not in seen:
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, f"no {text!r} in {seen.decode(errors='replace')!r}"
            seen += os.read(master, 4096)

    try:
        until("round 1 score read as not filled in")
        os.write(master, "²\r".encode())
        until("is not a round score")
        os.write(master, b"0\r")
        until("round 2 score read as")
        os.write(master, f"{best}\r".encode())
        until("round 3 score read as")
        os.write(master, f"{best}\r".encode())
        until(f"= {2 * best - empty}")
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
        os.close(master)
    assert seen.count(b"round 1 score read as") == 2  # asked again, the same question
    assert b"Traceback" not in seen


def test_a_sheet_photographed_at_an_earlier_scoring_takes_fewer_round_scores(tmp_path):
    path = tmp_path / "q.txt"
    path.write_text("####.....\n" * 4 + ".........\n" * 5)  # a 4x4 square: 16
    early = run("--json", "--round", "1", "--rounds", "16", str(path))
    assert early.exit_code == 0, early.output
    assert json.loads(early.output)["round_scores"] == [16, None, None] and json.loads(early.output)["total"] is None
    assert "differs from the best rectangle" in run("--round", "2", "--rounds", "9,10", str(path)).output


def test_a_quilt_the_cards_do_not_explain_is_asked_about_and_corrected_by_naming_cells():
    """The --ask prompt for what a check of the whole quilt found: the player names the cells read wrong."""
    import numpy as np

    from doodle.cli.score_ask import ask_about
    from doodle.cli.score_input import Reading
    from doodle.game.checks import RoundCards, SheetChecks, TurnCards
    from doodle.geometry import Polyomino
    from doodle.sheet.scan import ScanResult

    quilt = Quilt.from_rows(["###......", "#........", "....#...."] + ["........."] * 6)
    cards = RoundCards(1, (TurnCards(Polyomino.from_text("##/#.")),) * 6, start=(Polyomino.from_text("#"),))
    scan = ScanResult(quilt, ((1.0,) * 9,) * 9, ((0.0,) * 9,) * 9, 0.1, (), (2, None, None), (), "markers", 1.0, 4,
                      (), np.zeros((4, 4, 3), np.uint8)).checked(SheetChecks(1, Quilt(), cards))
    # a 4-cell L and a lone cell: no L-tromino and 1-cell start card fit; and round 1's 2 is not the quilt's 3
    assert [d.kind for d in scan.doubts] == ["round", "quilt"]
    reading = Reading("photo.jpg", quilt=quilt, scan=scan)
    with CliRunner().isolation(input="\nn\nc1\n") as streams:
        ask_about(reading)
    assert any("do not split into patches" in stream.getvalue().decode() for stream in streams)
    assert reading.scan.doubts == () and not reading.quilt.is_covered(0, 2)


def test_the_example_scores_the_commands_show_are_scores_a_rectangle_makes():
    # before: 'e.g. 17,35,60' and 'Ann 2 35': a player who typed the example was told no rectangle scores 35
    import re

    from doodle.quilt import POSSIBLE_ROUND_SCORES

    runner = CliRunner()
    said = " ".join([runner.invoke(main, ["score", "--help"], terminal_width=200).output,
                     runner.invoke(main, ["score", "--rounds", "x", "q.txt"]).output,
                     runner.invoke(main, ["deal", "--help"], terminal_width=200).output,
                     (ROOT / "README.md").read_text()])
    rounds = re.findall(r"(?:e\.g\. |--rounds )(\d+,\d+,\d+)", said)
    typed = re.findall(r"'Ann (\d) (\d+)'|`Ann (\d) (\d+)`", said)
    assert len(rounds) >= 3 and len(typed) >= 2
    for example in rounds:
        scores = [int(score) for score in example.split(",")]
        assert scores == sorted(scores) and set(scores) <= POSSIBLE_ROUND_SCORES, example
    for match in typed:
        assert int(match[1] or match[3]) in POSSIBLE_ROUND_SCORES, match
