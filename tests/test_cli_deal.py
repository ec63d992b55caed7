import json
import os
import shlex
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


def game_input(rounds, end):
    """What a group types through a whole game: Enter to start, Enter after each turn, at each scoring the
    `rounds[i]` lines (scores, answers, corrections, ending with the Enter that goes on), Enter to lay out the next
    round, and the `end` lines at the final scoring."""
    lines = [""]
    for number, answers in enumerate(rounds):
        lines += [""] * 6 + answers + ([""] if number < 2 else [])
    return "\n".join(lines + end) + "\n"


def deal_game(rounds, end, *names):
    result = run("deal", "--seed", "4", "--no-color", *(names or ("Ann", "Bob")), input=game_input(rounds, end))
    assert result.exit_code == 0, result.output
    return result.output


def test_interactive_game_with_scores_names_the_winner():
    output = deal_game([["20", "25", ""], ["20", "25", ""], ["36", "37", ""]], ["5", "5", ""])
    assert "Ann: S" in output and "Current patch" in output and "its mirror image" in output
    assert "final turn, no roll" in output
    assert "Ann  20 + 20 + 36 - 5 empty = 71" in output
    assert "Bob  25 + 25 + 37 - 5 empty = 82" in output
    assert "Bob wins with 82 points!" in output
    assert "doodle deal --seed 4 Ann Bob" in output


def table_rows(output, header):
    """The rows of the last running table whose header is `header` (name -> cells)."""
    lines = output.split("\n")
    start = max(i for i, line in enumerate(lines) if line.strip().startswith("round 1") and header in line)
    rows = {}
    for line in lines[start + 1:]:
        if not line.startswith("  ") or line.startswith("   "):
            break
        name, *cells = line.split()
        rows[name] = cells
    return rows


def test_after_each_scoring_a_table_shows_every_player_and_round_with_unknowns():
    output = deal_game([["20", "", "", ""], ["", "25", "", ""], ["", "", "", ""]], [""] * 11, "Ann", "Bob", "Cid")
    round_one = output[output.index("Intermediate scoring, round 1"):output.index("Round 2:")]
    assert table_rows(round_one, "round 1") == {"Ann": ["20"], "Bob": ["?"], "Cid": ["?"]}
    assert "Not known yet: Bob's round 1; Cid's round 1." in round_one
    round_two = output[output.index("Intermediate scoring, round 2"):output.index("Round 3:")]
    assert table_rows(round_two, "round 1  round 2") == {"Ann": ["20", "?"], "Bob": ["?", "25"], "Cid": ["?", "?"]}


def test_a_skipped_score_is_asked_again_at_the_end_with_everyones_empty_cells():
    # Bob skips round 1: at the end his round 1 and everyone's empty cells are asked, and he is not dropped
    output = deal_game([["20", "", ""], ["20", "25", ""], ["36", "37", ""]], ["5", "25", "5", ""])
    assert "Bob's score for round 1, not given yet (Enter to skip):" in output
    assert "Ann's empty cells" in output and "Bob's empty cells" in output
    assert "Bob  25 + 25 + 37 - 5 empty = 82" in output and "Bob wins with 82 points!" in output


def test_no_winner_while_a_total_is_unknown():
    # before: "Ann wins with 65 points!" although Bob's total was unknown
    output = deal_game([["20", "", ""], ["20", "25", ""], ["36", "37", ""]], ["5", "", "5", ""])
    assert " wins with" not in output
    assert "Not known yet: Bob's round 1." in output
    assert "No winner declared: Bob's total is not known: add it up on the sheet" in output
    assert table_rows(output, "empty    total") == {"Ann": ["20", "20", "36", "5", "71"],
                                                    "Bob": ["?", "25", "37", "5", "?"]}


def test_any_earlier_score_can_be_given_or_corrected_before_the_end():
    # round 1: Bob skipped, then given as 'bob 1 16' at round 2's table; Ann's round 1 corrected at the end,
    # and her empty cells too, by player number
    rounds = [["20", "", ""], ["20", "25", "bob 1 16", ""], ["36", "37", ""]]
    output = deal_game(rounds, ["5", "5", "Ann 1 17", "1 empty 4", ""])
    assert "Ann  17 + 20 + 36 - 4 empty = 69" in output
    assert "Bob  16 + 25 + 37 - 5 empty = 73" in output and "Bob wins with 73 points!" in output
    assert "Bob's score for round 1, not given yet" not in output


@pytest.mark.parametrize(("entry", "message"), [
    ("Dan 1 20", "'Dan' is not playing: give one of Ann, Bob (or a player's number, 1 to 2)"),
    ("Ann 3 20", "'3' is not a round scored so far: give round 1 to 2"),
    ("Ann empty 3", "the empty cells are counted at the end of the game"),
    ("Ann 1 ²", "'²' is not a whole number from 0 to 81"),
    ("Ann 1 " + "9" * 5000, "is not a whole number from 0 to 81"),
    ("Ann", "type a player, a round and a score, e.g. 'Ann 1 20'"),
])
def test_a_wrong_entry_says_what_to_type(entry, message):
    output = deal_game([["20", "25", ""], ["20", "25", entry, ""], ["36", "37", ""]], ["5", "5", ""])
    assert message in output and "Bob wins with 82 points!" in output


def test_a_score_no_rectangle_makes_is_questioned():
    # 70: no rectangle on a 9x9 grid scores 66 to 80; typed again as 64
    output = deal_game([["20", "25", ""], ["70", "64", "25", ""], ["70", "y", "70", "y", ""]], ["5", "5", ""])
    assert "Check Ann's sheet: round 2 score 70: no rectangle scores 70" in output
    assert "the possible scores nearest to it are 65 and 81" in output
    assert "Ann  20 + 64 + 70 - 5 empty = 149" in output  # kept when the group says so
    assert output.count("Keep 70 for round 3?") == 2


def test_a_round_scoring_less_than_the_one_before_is_questioned():
    # Enter at the doubt leaves Ann's round 2 unknown: asked again at the end, skipped again
    output = deal_game([["20", "25", ""], ["12", "", "25", ""], ["36", "36", "Ann 1 37", "y", ""]], ["", "5", "5", ""])
    assert "Check Ann's sheet: round 2 score 12 is lower than round 1's 20: a quilt only grows" in output
    assert "Check Ann's sheet: round 3 score 36 is lower than round 1's 37: a quilt only grows" in output
    assert "Ann's score for round 2, not given yet" in output
    assert table_rows(output, "empty    total")["Ann"] == ["37", "?", "36", "5", "?"]


def test_bad_score_is_asked_again_and_q_quits():
    typed = "abc\n99\n²\n" + "9" * 5000 + "\n"  # a superscript digit and 5000 digits: asked again, no traceback
    result = run("deal", "--seed", "4", "--players", "1", input="\n" + "\n" * 6 + typed + "q\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("please type a whole number from 0 to 81") == 4
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


def test_the_replay_hint_deals_the_same_game_with_its_deck(tmp_path):
    # before: the hint left out --deck, so following it dealt the bundled cards instead
    deck = tmp_path / "my cards's.toml"
    patches = "".join(f'[[patch]]\nid = "Q{i:02}"\nshape = "{"#" * (1 + i % 5)}"\n' for i in range(20))
    deck.write_text('[[start]]\nid = "A"\nshape = "###"\n[[start]]\nid = "B"\nshape = "##/##"\n' + patches)
    first = run("deal", "--auto", "--no-color", "--seed", "1", "--deck", str(deck), "--", "Ann", "-x")
    assert first.exit_code == 0, first.output
    hint = next(line for line in first.output.splitlines() if line.startswith("Replay this deal with: "))
    words = shlex.split(hint.removeprefix("Replay this deal with: "))
    assert words[:2] == ["doodle", "deal"] and "--deck" in words
    again = run("deal", "--auto", "--no-color", *words[2:])
    assert again.exit_code == 0, again.output
    assert again.output == first.output and "Q0" in again.output


def test_a_doubtful_correction_given_up_keeps_the_score_it_was_to_replace():
    # 'Ann 1 70' (meant 17), questioned, Enter: round 1 keeps its 20 rather than becoming unknown
    output = deal_game([["20", "25", "Ann 1 70", "", ""], ["20", "25", ""], ["36", "37", ""]], ["5", "5", ""])
    assert "Keep 70 for round 1? Type y to keep it, or the right score (Enter keeps 20)" in output
    assert "Ann  20 + 20 + 36 - 5 empty = 71" in output
