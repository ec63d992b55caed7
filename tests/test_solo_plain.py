"""`doodle solo --plain`: typed commands through whole games, saves and resume, bad input, corrupt files."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from doodle.cli import main
from doodle.game.deck import load_deck
from doodle.game.sheet import Special
from doodle.quilt import cell_name
from doodle.solo.plain import PlainGame
from doodle.solo.scores import ScoreBook
from doodle.solo.session import SoloSession, Stage
from doodle.tui.ghost import Ghost


def scripted_moves(seed: int, specials: bool = True) -> tuple[list[str], SoloSession]:
    """The commands of a whole game on `seed` by a simple player (the first place where the patch fits, the
    neighbour, a cut and single squares along the way), and the session that played them."""
    session = SoloSession.new(seed=seed, name="tester")
    game = PlainGame(session)
    commands: list[str] = []

    def run(command: str) -> str:
        commands.append(command)
        return game.handle(command)

    while session.stage != Stage.OVER:
        stage = session.stage
        if stage == Stage.SCORING:
            if specials and session.can_use(Special.SINGLE) and session.round == 3:
                free = next((r, c) for r in range(9) for c in range(9) if not session.quilt.is_covered(r, c))
                run(f"single {cell_name(*free)}")
            run("score")
            continue
        if specials and stage == Stage.TURN and session.turn == 2 and session.round == 1:
            run("neighbour after")
        if specials and stage == Stage.TURN and session.turn == 3 and session.round == 1:
            cuts = game.option().shape.cuts()
            if cuts:
                run(f"cut {'h' if cuts[0].axis == 'row' else 'v'}{cuts[0].index} 2")
        shape = game.shape()
        ghost = Ghost.centred(shape).next_fit(session.quilt) if shape else None
        if ghost is None:
            run("pass")
        else:
            answer = run(f"draw {cell_name(ghost.row, ghost.col)} {ghost.code}")
            assert answer.startswith("You drew"), answer
    return commands, session


@pytest.fixture()
def paths(tmp_path: Path) -> dict[str, Path]:
    return {"save": tmp_path / "data" / "save.json", "scores": tmp_path / "data" / "scores.sqlite3"}


def solo(paths: dict[str, Path], *args: str, input: str = "") -> object:
    runner = CliRunner()
    return runner.invoke(
        main, ["solo", "--plain", "--save", str(paths["save"]), "--scores", str(paths["scores"]), "--no-par", *args],
        input=input,
    )


def test_a_whole_game_typed_line_by_line(paths):
    commands, expected = scripted_moves(seed=11)
    assert [expected.uses(s) for s in (Special.NEIGHBOUR, Special.CUT, Special.SINGLE)] == [1, 1, 1]
    result = solo(paths, "--seed", "11", "--name", "tester", input="\n".join(commands) + "\n")
    assert result.exit_code == 0, result.output
    total = expected.total()
    assert f"Game over, tester: {total} points." in result.output
    rounds = " + ".join(map(str, expected.round_scores()))
    assert f"Rounds {rounds} = {sum(expected.round_scores())}" in result.output
    assert "High scores: you are #1 of 1." in result.output
    assert not paths["save"].exists(), "a finished game leaves no save behind"
    with ScoreBook(paths["scores"]) as book:
        [entry] = book.top()
    assert (entry.name, entry.total, entry.seed) == ("tester", total, 11)
    assert (entry.deck, entry.deck_id) == (load_deck().name, load_deck().fingerprint)
    shown = CliRunner().invoke(main, ["solo", "--high-scores", "--scores", str(paths["scores"])])
    assert shown.exit_code == 0 and "High scores (1 game recorded" in shown.output
    assert re.search(rf"1\.\s+{total}\s+tester", shown.output)


def test_end_of_input_saves_and_resume_continues_the_same_game(paths):
    commands, expected = scripted_moves(seed=5)
    half = len(commands) // 2
    first = solo(paths, "--seed", "5", "--name", "tester", input="\n".join(commands[:half]) + "\n")
    assert first.exit_code == 0, first.output
    assert "End of input: the game is saved" in first.output
    saved = json.loads(paths["save"].read_text())
    assert saved["record"]["seed"] == 5
    # a new game refuses to overwrite the one in progress
    refused = solo(paths, "--seed", "6")
    assert refused.exit_code == 2 and "--resume" in refused.output
    second = solo(paths, "--resume", input="\n".join(commands[half:]) + "\n")
    assert second.exit_code == 0, second.output
    assert f"Game over, tester: {expected.total()} points." in second.output


def test_quit_saves_and_new_discards(paths):
    result = solo(paths, "--seed", "3", input="quit\n")
    assert result.exit_code == 0 and "Saved" in result.output
    assert paths["save"].exists()
    fresh = solo(paths, "--seed", "4", "--new", input="quit\n")
    assert fresh.exit_code == 0, fresh.output
    assert json.loads(paths["save"].read_text())["record"]["seed"] == 4


def test_bad_commands_explain_and_never_break_the_game(paths):
    lines = ["", "frobnicate", "draw", "draw z9", "draw a1 r7", "pass", "single a1", "score", "choose 2",
             "neighbour sideways", "cut h9 1", "draw i9", "help", "show"]
    result = solo(paths, "--seed", "2", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Unknown command 'frobnicate'" in out
    assert "'z9' is not a cell" in out
    assert "'r7' is not an orientation" in out
    assert "the start card S" in out and "cannot be passed" in out
    assert "wrong phase: there is no scoring now" in out
    assert "off the grid" in out
    assert "Commands (cells are a column" in out
    assert "Traceback" not in out


def test_illegal_draw_names_the_covered_cells():
    session = SoloSession.new(seed=9)
    game = PlainGame(session)
    assert game.handle("draw a1").startswith("You drew")
    covered = sorted(session.quilt.cells)[0]
    answer = game.handle(f"draw {cell_name(*covered)} {cell_name(covered[0], covered[1] + 1)}")
    assert answer.startswith("Not allowed:"), answer
    assert session.stage == Stage.TURN and session.turn == 1  # nothing changed


def test_cut_and_neighbour_commands_use_the_specials():
    session = SoloSession.new(seed=21)
    game = PlainGame(session)
    game.handle("draw a1")
    listing = game.handle("cut")
    assert "Legal cuts" in listing or "no legal straight cut" in listing
    answer = game.handle("neighbour before")
    assert "neighbour before" in answer
    option = game.option()
    cuts = option.shape.cuts()
    if cuts:
        name = f"{'h' if cuts[0].axis == 'row' else 'v'}{cuts[0].index}"
        assert "piece" in game.handle(f"cut {name} 1")
    ghost = Ghost.centred(game.shape()).next_fit(session.quilt)
    assert game.handle(f"draw {cell_name(ghost.row, ghost.col)} {ghost.code}").startswith("You drew")
    assert session.uses(Special.NEIGHBOUR) == 1
    assert session.uses(Special.CUT) == (1 if cuts else 0)
    assert "special already used" not in game.handle("show")


def test_corrupt_save_is_set_aside_with_a_clear_message(paths):
    paths["save"].parent.mkdir(parents=True)
    paths["save"].write_text("{ this is not json")
    result = solo(paths, "--resume")
    assert result.exit_code == 1
    assert "cannot be used" in result.output and "moved to" in result.output
    assert "Traceback" not in result.output
    aside = list(paths["save"].parent.glob("save.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text() == "{ this is not json"
    # a save that parses but does not replay is set aside too, and a new game starts
    paths["save"].write_text(json.dumps({"format": "doodle-solo-save/1", "game_id": "x", "name": "n",
                                         "record": {"format": "doodle-game/1", "seed": 1, "players": 1,
                                                    "names": ["n"], "deck": "nope", "log": []}}))
    result = solo(paths, "--seed", "1", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "cannot be used" in result.output
    assert len(list(paths["save"].parent.glob("save.json.corrupt-*"))) == 2


def test_corrupt_score_database_is_set_aside_and_a_new_one_started(paths):
    paths["scores"].parent.mkdir(parents=True)
    paths["scores"].write_bytes(b"definitely not sqlite " * 100)
    commands, expected = scripted_moves(seed=11, specials=False)
    result = solo(paths, "--seed", "11", "--name", "tester", input="\n".join(commands) + "\n")
    assert result.exit_code == 0, result.output
    assert "score table was damaged" in result.output
    aside = list(paths["scores"].parent.glob("scores.sqlite3.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"definitely not sqlite")
    assert "High scores: you are #1 of 1." in result.output


def test_resume_without_a_save_and_conflicting_options(paths):
    result = solo(paths, "--resume")
    assert result.exit_code == 1 and "no saved game" in result.output
    assert solo(paths, "--seed", "1", "--daily").exit_code == 2
    assert solo(paths, "--json").exit_code == 2


def test_daily_seed_is_the_date(paths):
    result = solo(paths, "--daily", input="quit\n")
    assert result.exit_code == 0, result.output
    saved = json.loads(paths["save"].read_text())
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", saved["daily"])
    assert saved["record"]["seed"] == int(saved["daily"].replace("-", ""))


def test_ctrl_c_saves_and_exits_cleanly(paths, monkeypatch):
    def interrupt(self, line):
        raise KeyboardInterrupt

    monkeypatch.setattr(PlainGame, "handle", interrupt)
    result = solo(paths, "--seed", "8", input="draw a1\n")
    assert result.exit_code == 130
    assert "Interrupted: the game is saved" in result.output
    assert json.loads(paths["save"].read_text())["record"]["seed"] == 8


def test_par_and_the_quilts_side_by_side(paths, monkeypatch):
    import doodle.game.bots

    monkeypatch.setattr(doodle.game.bots, "BOT_NAMES", ("greedy",))  # the fast bot: par's plumbing, not strength
    commands, expected = scripted_moves(seed=11, specials=False)
    runner = CliRunner()
    result = runner.invoke(main, ["solo", "--plain", "--save", str(paths["save"]), "--scores", str(paths["scores"]),
                                  "--seed", "11", "--name", "tester"], input="\n".join(commands) + "\n")
    assert result.exit_code == 0, result.output
    match = re.search(r"Par on seed 11: (\d+) by the (\w+) bot", result.output)
    assert match, result.output
    assert re.search(rf"You: {expected.total()}\s+{match.group(2)} bot: {match.group(1)}", result.output)


def test_a_users_deck_is_kept_with_the_save_and_a_missing_deck_is_not_corruption(paths, tmp_path):
    from importlib import resources

    deck = tmp_path / "my deck.toml"
    deck.write_text(resources.files("doodle.data").joinpath("doodle_cards.toml").read_text(encoding="utf-8"))
    assert solo(paths, "--seed", "2", "--deck", str(deck), input="draw a1\nquit\n").exit_code == 0
    resumed = solo(paths, "--resume", input="show\nquit\n")
    assert resumed.exit_code == 0 and "Round 1, turn 1" in resumed.output
    deck.rename(tmp_path / "elsewhere.toml")
    missing = solo(paths, "--resume")
    assert missing.exit_code == 1 and "Put the deck file back" in missing.output
    assert paths["save"].exists() and not list(paths["save"].parent.glob("*.corrupt-*"))
    assert solo(paths, "--new", "--seed", "3", input="quit\n").exit_code == 0


def test_brief_answers_leave_out_the_drawings():
    game = PlainGame(SoloSession.new(seed=7))
    assert "Brief answers" in game.handle("brief on")
    answer = game.handle("draw a1")
    assert "You draw P" in answer and "rows top to bottom" in answer
    assert "a b c d e f g h i" not in answer  # no quilt drawing
    assert game.handle("quilt").startswith("   a b c d e f g h i")
    game.handle("brief off")
    assert "a b c d e f g h i" in game.handle("show")
    assert "brief on or brief off" in game.handle("brief maybe")


def test_a_finished_game_left_in_the_save_is_recorded_once(paths):
    commands, expected = scripted_moves(seed=11, specials=False)
    # the whole game but the last scoring, then the save as it would be after it, as if stopped while recording
    solo(paths, "--seed", "11", "--name", "tester", input="\n".join(commands[:-1]) + "\n")
    from doodle.solo.store import read_save, write_save

    save = read_save(paths["save"])
    game = save.game()
    session = SoloSession(game)
    session.end()  # the last scoring: the game is over, but nobody recorded it
    finished = replace(save, record=game.to_record())
    for _ in range(2):  # found twice (the same save written back): still one row
        write_save(paths["save"], finished)
        assert solo(paths, "--seed", "12", input="quit\n").exit_code == 0
        with ScoreBook(paths["scores"]) as book:
            assert [(e.name, e.total) for e in book.top()] == [("tester", expected.total())]


def test_bytes_that_are_not_text_are_an_unknown_command(paths):
    result = CliRunner().invoke(main, ["solo", "--plain", "--save", str(paths["save"]), "--scores",
                                       str(paths["scores"]), "--no-par", "--seed", "1"], input=b"\xff\xfe draw\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Unknown command" in result.output and "Saved" in result.output
