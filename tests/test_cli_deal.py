import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from doodle.cli import main


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_help_lists_working_commands():
    result = run("--help")
    assert result.exit_code == 0
    assert "deal" in result.output and "score" in result.output


def test_auto_json_contract():
    result = run("deal", "--auto", "--json", "--players", "4", "--seed", "9")
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.output.splitlines()]
    assert events[0]["event"] == "setup" and len(set(events[0]["start_cards"])) == 4
    turns = [e for e in events if e["event"] == "turn"]
    assert len(turns) == 18
    for event in turns:
        assert {"round", "turn", "roll", "circle"} <= set(event)
        assert ("card" in event) != ("choices" in event)
    assert turns[-1]["roll"] is None and len(turns[-1]["choices"]) == 3
    assert [e["round"] for e in events if e["event"] == "scoring"] == [1, 2, 3]
    assert run("deal", "--auto", "--json", "--players", "4", "--seed", "9").output == result.output


def test_interactive_game_with_scores_names_the_winner():
    # Enter after setup, after each of 18 turns, and at the 2 new rounds; then scores and empty counts
    enters = "\n" * 1
    lines = []
    for round_number in range(3):
        lines += [""] * 6
        lines += ["20", "25"] if round_number < 2 else ["30", "30"]
        if round_number < 2:
            lines += [""]
    lines += ["5", "5"]
    result = run("deal", "--seed", "4", "--no-color", "Ann", "Bob", input=enters + "\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "Ann: S" in result.output and "Current patch" in result.output and "its mirror image" in result.output
    assert "final turn, no roll" in result.output
    assert "Ann  20 + 20 + 30 - 5 empty = 65" in result.output
    assert "Bob  25 + 25 + 30 - 5 empty = 75" in result.output
    assert "Bob wins with 75 points!" in result.output
    assert "doodle deal --seed 4 Ann Bob" in result.output


def test_bad_score_is_asked_again_and_q_quits():
    result = run("deal", "--seed", "4", "--players", "1", input="\n" + "\n" * 6 + "abc\n99\nq\n")
    assert result.exit_code == 0
    assert result.output.count("please type a whole number from 0 to 81") == 2
    assert "Dealing stopped." in result.output


def test_names_are_asked_when_not_given():
    result = run("deal", "--seed", "1", input="Ann\nAnn\nBob\n\nq\n")
    assert result.exit_code == 0
    assert "Ann is already playing" in result.output and "Bob: S" in result.output


@pytest.mark.parametrize("players", ["0", "7"])
def test_player_count_out_of_range(players):
    result = run("deal", "--players", players)
    assert result.exit_code == 2
    assert "1 to 6 players" in result.output and "Traceback" not in result.output


def test_closed_stdin_is_a_clear_error():
    result = run("deal", "--players", "2", input="")
    assert result.exit_code == 1
    assert "input closed" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_broken_deck_file(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text('[[start]]\nid = "S1"\nshape = "#.#"\n')
    result = run("deal", "--auto", "--deck", str(deck))
    assert result.exit_code == 1 and "not connected" in result.output
    assert isinstance(result.exception, SystemExit)


def test_json_needs_auto():
    assert run("deal", "--json").exit_code == 2


def test_no_stdin_at_all_is_a_clear_error():
    result = subprocess.run([sys.executable, "-m", "doodle", "deal", "--players", "2", "--no-color"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, close_fds=True,
                            preexec_fn=lambda: os.close(0))
    assert result.returncode == 1
    assert "input closed" in result.stderr and "Traceback" not in result.stderr


def test_a_negative_seed_is_refused_like_everywhere_else():
    result = run("deal", "--auto", "--json", "--players", "2", "--seed", "-1")
    assert result.exit_code == 2
    assert "--seed" in result.output and "Traceback" not in result.output


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full (a device that is always full)")
@pytest.mark.parametrize("args", [["deal", "--auto", "--json", "--players", "3"], ["--help"], ["--version"]])
def test_a_full_disk_on_stdout_is_a_clear_error(args):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "doodle", *args], stdout=full, stderr=subprocess.PIPE,
                                text=True)
    assert result.returncode == 1
    assert "cannot write the output: No space left on device" in result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
