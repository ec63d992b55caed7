"""Hostile input thrown at the commands' file and option surfaces (the fast, in-suite form of
benchmarks/bench_reliability.py): damaged deck files, text quilts, previous quilts, game records, round scores,
sheet numbers, typed score-pad lines. Every run either does its job or stops with a message and a documented exit
status, never an exception. Patchwork's surfaces are fuzzed in test_patchwork_fuzz.py, output encodings and a
closed stdout in test_cli_output.py; the faults (a full disk) are at the end here."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doodle.cli import main
from doodle.game.deck import bundled_deck_text

ROOT = Path(__file__).parent.parent
QUILT = (ROOT / "examples" / "quilts" / "rulebook-4x5.txt").read_text()
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.function_scoped_fixture])

junk = st.sampled_from(["", "²", "٣", "１", "\x00", "\x1b[31m", "\u202e", "q̈", "9" * 5000, "-1", "NaN", "1e9",
                        "\ufeff", "\r", "[[[[", "💥"])  # fmt: skip


@st.composite
def damaged(draw, text: str) -> bytes:
    """`text` damaged as files get damaged: cut, bytes flipped, junk dropped in, re-encoded, nested, numbers huge."""
    data = text.encode()
    how = draw(st.sampled_from(["cut", "flip", "junk", "utf-16", "latin-1", "nest", "numbers", "bytes"]))
    if how == "cut":
        return data[: draw(st.integers(0, len(data)))]
    if how == "flip":
        flipped = bytearray(data)
        for at, byte in draw(st.lists(st.tuples(st.integers(0, len(data) - 1), st.integers(0, 255)), max_size=6)):
            flipped[at] = byte
        return bytes(flipped)
    if how == "junk":
        at = draw(st.integers(0, len(text)))
        return (text[:at] + draw(junk) + text[at:]).encode()
    if how == "utf-16":
        return text.encode("utf-16")
    if how == "latin-1":
        return (text + "é").encode("latin-1")
    if how == "nest":
        return draw(st.sampled_from(["[", "a=[", "x = {y = ", '{"a":'])).encode() * 50_000
    if how == "numbers":
        big = draw(st.sampled_from(["9" * 400, "-3", "1.5", "²"]))
        return "".join(big if c.isdigit() else c for c in text).encode()
    return draw(st.binary(max_size=200))


def run(args, input=None):
    return CliRunner().invoke(main, args, input=input)


def assert_clear(result, codes=(0, 1, 2, 3)):
    """Done, or stopped with a message and a documented status; never an exception."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in codes, result.output
    if result.exit_code:
        assert result.output.strip(), "a non-zero exit without a word"


@FUZZ
@given(deck=damaged(bundled_deck_text()))
def test_a_damaged_deck_file_is_played_or_refused_with_a_message(tmp_path, deck):
    path = tmp_path / "deck.toml"
    path.write_bytes(deck)
    assert_clear(run(["deck", "--check", str(path)]))
    assert_clear(run(["deal", "--auto", "--json", "--players", "2", "--seed", "1", "--deck", str(path)]))


@FUZZ
@given(quilt=damaged(QUILT), previous=damaged(QUILT), rounds=st.lists(junk | st.sampled_from(["17", "35", "60"]),
                                                                       min_size=1, max_size=4).map(",".join))
def test_damaged_text_quilts_and_round_scores_are_scored_or_refused_with_a_message(tmp_path, quilt, previous, rounds):
    path, before = tmp_path / "q.txt", tmp_path / "before.txt"
    path.write_bytes(quilt)
    before.write_bytes(previous)
    assert_clear(run(["score", "--no-ask", str(path)]))
    assert_clear(run(["score", "--no-ask", "-"], input=quilt))
    assert_clear(run(["score", "--no-ask", "--rounds", rounds, "--round", "2", "--previous", str(before), str(path)]))


DEALT = [json.loads(line) for line in run(["deal", "--auto", "--json", "--players", "1", "--seed", "5"]).output
         .splitlines()]
json_junk = st.sampled_from([None, [], {}, "", "x", -1, 0.0, 1.5, True, 10**30, float("inf"), "²", [[[[]]]]])


@FUZZ
@given(data=st.data(), scoring=st.sampled_from(["1", "2", "3"]))
def test_a_damaged_game_record_is_checked_against_or_refused_with_a_message(tmp_path, data, scoring):
    events = json.loads(json.dumps(DEALT))
    for _ in range(data.draw(st.integers(1, 3))):
        event = data.draw(st.sampled_from(events))
        key = data.draw(st.sampled_from(sorted(event)))
        event[key] = data.draw(json_junk)
    lines = [json.dumps(event) for event in events]
    if data.draw(st.booleans()):
        lines.insert(data.draw(st.integers(0, len(lines))), data.draw(damaged(json.dumps(DEALT[0]))).decode(
            "utf-8", "replace"))
    record = tmp_path / "deal.jsonl"
    record.write_text("\n".join(lines))
    quilt = tmp_path / "q.txt"
    quilt.write_text(QUILT)
    assert_clear(run(["score", "--no-ask", "--round", scoring, "--record", str(record), str(quilt)]))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=junk | st.sampled_from(["0", "99999999", "100000000", str(10**200)]),
       count=junk | st.sampled_from(["1", "0", "1001", str(10**40)]))
def test_sheet_numbers_and_counts_make_sheets_or_a_message(tmp_path, first, count):
    assert_clear(run(["sheet", "-o", str(tmp_path / "s.pdf"), "--first-id", first, "--count", count]))


@FUZZ
@given(lines=st.lists(junk | st.sampled_from(["", "q", "y", "n", "?", "Ann 2 35", "Bob 1 999", "Bob empty 4", "2",
                                              "Ann ² 3", "Cid 1 1"]), max_size=60))
def test_any_typed_line_at_the_score_pad_is_answered(lines):
    assert_clear(run(["deal", "Ann", "Bob", "--seed", "3"], input="\n".join(lines) + "\n"))


# --- a full disk: RLIMIT_FSIZE makes every write past the limit fail (EFBIG), as a full disk does (ENOSPC) ---

def doodle_on_a_full_disk(args, tmp_path, limit=1000):
    def full() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    env = {**os.environ, "PYTHONPATH": str(ROOT), "DOODLE_SOLO_SAVE": str(tmp_path / "save.json"),
           "DOODLE_SCORES": str(tmp_path / "s.db")}
    return subprocess.run([sys.executable, "-m", "doodle", *args], capture_output=True, stdin=subprocess.DEVNULL,
                          env=env, preexec_fn=full, timeout=120)


@pytest.mark.parametrize("command, name", [(["sheet", "--count", "3", "-o"], "mine.pdf"),
                                           (["deck", "--force", "--export"], "mine.toml")])
def test_a_full_disk_keeps_the_old_file_and_says_so(tmp_path, command, name):
    target = tmp_path / name
    target.write_bytes(b"the old file")
    result = doodle_on_a_full_disk([*command, str(target)], tmp_path)
    stderr = result.stderr.decode()
    assert result.returncode == 1 and "Traceback" not in stderr, stderr
    assert "File too large" in stderr or "space" in stderr
    assert target.read_bytes() == b"the old file"
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary file left beside it


def test_a_full_disk_under_a_patchwork_record_is_said_and_the_game_goes_on(tmp_path):
    record = tmp_path / "g.json"
    result = subprocess.run(
        [sys.executable, "-m", "doodle", "patchwork", "play", "--plain", "--vs", "human", "--seed", "2", "--record",
         str(record)], input=b"advance\nadvance\nquit\n", capture_output=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200)))
    stderr = result.stderr.decode()
    assert "Traceback" not in stderr, stderr
    assert result.returncode in (0, 1)
    assert (result.stdout + result.stderr).strip()
