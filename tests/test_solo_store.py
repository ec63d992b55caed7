"""Save files: round trip through the engine's replay, clear errors for damaged saves, setting files aside,
and the session's rules (drawing ends the turn, the save hook after every move). The command under faults: a
finished game whose score cannot be written (table locked, read-only, its folder not makeable, a device) is kept
and recorded on a later run; damaged tables, hostile saves and decks, devices and pipes, leftover temporaries,
control characters in names; resuming offered at a terminal."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from doodle.cli import main
from doodle.game.deck import load_deck
from doodle.game.sheet import IllegalAction
from doodle.solo import scores
from doodle.solo.scores import ScoreBook, ScoreEntry
from doodle.solo.session import SoloSession, Stage
from doodle.solo.store import (
    SaveError,
    SaveWriteError,
    SoloSave,
    finished_path,
    parse_save,
    read_save,
    set_aside,
    write_save,
)
from doodle.tui.ghost import Ghost


def play(session: SoloSession, moves: int) -> None:
    """`moves` moves of a simple player: the first place that fits, else pass; score at scorings."""
    for _ in range(moves):
        if session.stage == Stage.OVER:
            return
        if session.stage == Stage.SCORING:
            session.end()
            continue
        option = session.options()[0]
        ghost = Ghost.centred(option.shape).next_fit(session.quilt)
        if ghost is None:
            session.end()
        else:
            session.draw(option.card, ghost.cells)


@settings(max_examples=15)
@given(st.integers(0, 10**6), st.integers(0, 25))
def test_a_save_replays_to_the_same_game(seed, moves):
    session = SoloSession.new(seed=seed)
    play(session, moves)
    save = SoloSave(session.game.to_record(), "ann")
    again = SoloSession(parse_save(save.to_json()).game())
    assert again.quilt == session.quilt
    assert (again.stage, again.round, again.turn, again.roll) == (session.stage, session.round, session.turn,
                                                                   session.roll)
    assert again.options() == session.options()
    assert again.round_scores() == session.round_scores()


def test_the_save_hook_runs_after_every_accepted_move_only():
    records = []
    session = SoloSession.new(seed=3, on_change=lambda game: records.append(len(game.log)))
    with pytest.raises(IllegalAction):
        session.end()  # the start card cannot be passed
    assert records == []
    play(session, 1)
    assert len(records) == 1
    with pytest.raises(IllegalAction):
        session.draw(session.options()[0].card, {(0, 0)})
    assert len(records) == 1
    session.end()
    assert len(records) == 2 and session.turn == 2


def test_a_failed_save_keeps_the_move_and_says_why():
    def fail(game):
        raise SaveWriteError("the game could not be saved to /nowhere: no space left")

    session = SoloSession.new(seed=3, on_change=fail)
    play(session, 1)
    assert session.stage == Stage.TURN
    assert "no space left" in session.save_problem


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "not valid JSON"),
        ("[1, 2]", "not a doodle-solo-save/1 save"),
        ('{"format": "doodle-solo-save/1", "game_id": "g", "name": "n"}', "no game record"),
        ('{"format": "doodle-solo-save/1", "game_id": 5, "name": "n", "record": {}}', "should be text"),
        ('{"format": "doodle-solo-save/1", "name": "n", "record": {}}', "lacks the game id"),
    ],
)
def test_damaged_saves_are_named(text, reason):
    with pytest.raises(SaveError, match=reason):
        parse_save(text)


def test_a_record_that_does_not_replay_is_a_save_error():
    session = SoloSession.new(seed=4)
    play(session, 3)
    record = session.game.to_record()
    off_grid = {**record, "log": [record["log"][0], {"player": 0, "action": {"type": "single", "cell": [20, 20]}},
                                  *record["log"][1:]]}
    with pytest.raises(SaveError, match="entry 2 of its moves is a single square whose cell is not on the grid"):
        SoloSave(off_grid, "ann").game()
    start = record["log"][0]["action"]["cells"][0]  # a single square on a covered cell: well formed, not legal
    covered = {**record, "log": [*record["log"], {"player": 0, "action": {"type": "single", "cell": start}}]}
    with pytest.raises(SaveError, match="do not replay .*already covered.*edited or damaged"):
        SoloSave(covered, "ann").game()


def test_write_is_atomic_and_set_aside_keeps_the_file(tmp_path):
    path = tmp_path / "sub" / "save.json"
    save = SoloSave(SoloSession.new(seed=1).game.to_record(), "ann")
    write_save(path, save)
    assert read_save(path).game_id == save.game_id
    assert [p.name for p in path.parent.iterdir()] == ["save.json"]  # no temporary files left
    path.write_text("garbage")
    first = set_aside(path)
    path.write_text("garbage 2")
    second = set_aside(path)
    assert first != second and first.read_text() == "garbage" and second.read_text() == "garbage 2"
    assert first.name.startswith("save.json.corrupt-") and not path.exists()
    assert read_save(path) is None


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_place_raises_save_write_error(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(SaveWriteError, match="could not be saved"):
            write_save(locked / "save.json", SoloSave({}, "ann"))
    finally:
        locked.chmod(0o700)


# ----- the command under faults: nothing a player finished is ever lost -----

def run(paths: dict[str, Path], *args: str, input: str = "") -> Result:
    return CliRunner().invoke(main, ["solo", "--plain", "--save", str(paths["save"]), "--scores",
                                     str(paths["scores"]), "--no-par", *args], input=input)


@pytest.fixture()
def paths(tmp_path: Path) -> dict[str, Path]:
    return {"save": tmp_path / "data" / "save.json", "scores": tmp_path / "data" / "scores.sqlite3"}


def at_last_scoring(save_path: Path, seed: int = 11) -> int:
    """Save a game at its last scoring (`score` ends it) and return the total it will end with."""
    session = SoloSession.new(seed=seed, name="tester")
    while not (session.stage == Stage.SCORING and session.round == 3):
        play(session, 1)
    write_save(save_path, SoloSave(session.game.to_record(), "tester"))
    final = SoloSession(parse_save(save_path.read_text()).game())
    final.end()
    return final.total()


def kept_games(paths: dict[str, Path]) -> list[Path]:
    return sorted(paths["save"].parent.glob("save.json.finished-*.json"))


def recorded(paths: dict[str, Path]) -> list[tuple[str, int]]:
    with ScoreBook(paths["scores"]) as book:
        return [(entry.name, entry.total) for entry in book.top()]


def test_a_finished_game_is_kept_while_another_program_locks_the_table_and_recorded_next_run(paths, monkeypatch):
    monkeypatch.setattr(scores, "LOCK_TIMEOUT", 0.2)
    total = at_last_scoring(paths["save"])
    ScoreBook(paths["scores"]).close()
    other = sqlite3.connect(paths["scores"])
    other.execute("BEGIN IMMEDIATE")  # another program writing, for longer than doodle waits
    other.execute("INSERT INTO scores VALUES ('x', 'bo', 1, 1, NULL, '[1]', 0, NULL, NULL, '2026', NULL, NULL)")
    try:
        ended = run(paths, "--resume", input="score\n")
        assert ended.exit_code == 0, ended.output
        assert f"Game over, tester: {total} points." in ended.output
        assert "The score was not recorded" in ended.output and "in use by another program" in ended.output
        [kept] = kept_games(paths)
        assert f"Your finished game is kept in {kept} and will be recorded the next time" in ended.output
        assert not paths["save"].exists()  # the slot is free for a new game; the finished one waits beside it
        still = run(paths, "--high-scores")  # still locked: it waits on, and says so; the table can still be read
        assert still.exit_code == 0 and f"({total} points, seed 11) could not be recorded yet" in still.output
        assert "High scores (0 games recorded" in still.output
        assert kept_games(paths) == [kept]
    finally:
        other.rollback()
        other.close()
    shown = run(paths, "--high-scores")
    assert shown.exit_code == 0, shown.output
    assert "Recorded your finished game of" in shown.output and f"({total} points, seed 11)" in shown.output
    assert recorded(paths) == [("tester", total)] and kept_games(paths) == []


def read_only_connect(monkeypatch):
    """Open every score database read-only, as SQLite does for a file without write permission (chmod does not
    stop root, under which the tests may run: SQLite's own read-only mode gives the same failure)."""
    connect = sqlite3.connect

    def read_only(path, *args, **kwargs):
        return connect(f"file:{path}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(scores.sqlite3, "connect", read_only)


def test_a_finished_game_is_kept_when_the_table_is_read_only_and_recorded_once_it_is_writable(paths, monkeypatch):
    total = at_last_scoring(paths["save"])
    ScoreBook(paths["scores"]).close()
    with monkeypatch.context() as patch:
        read_only_connect(patch)
        ended = run(paths, "--resume", input="score\n")
        assert ended.exit_code == 0, ended.output
        assert "cannot be written: attempt to write a readonly database" in ended.output
        assert len(kept_games(paths)) == 1 and not paths["save"].exists()
    started = run(paths, "--seed", "3", input="quit\n")  # any later run records it first
    assert started.exit_code == 0, started.output
    assert "Recorded your finished game" in started.output
    assert recorded(paths) == [("tester", total)] and kept_games(paths) == []


def test_a_finished_game_is_kept_when_the_tables_folder_cannot_be_made(paths, tmp_path):
    total = at_last_scoring(paths["save"])
    blocker = tmp_path / "not a folder"
    blocker.write_text("a file where the table's folder should be")  # fails for root too, unlike chmod
    paths["scores"] = blocker / "scores.sqlite3"
    ended = run(paths, "--resume", input="score\n")
    assert ended.exit_code == 0, ended.output
    assert "The score was not recorded: cannot open the score database" in ended.output
    [kept] = kept_games(paths)
    assert json.loads(kept.read_text())["entry"]["total"] == total
    paths["scores"] = tmp_path / "elsewhere.sqlite3"  # another table: the game waits for its own
    assert run(paths, "--high-scores").output.startswith("No games recorded yet")
    assert kept_games(paths) == [kept]
    blocker.unlink()
    blocker.mkdir()
    paths["scores"] = blocker / "scores.sqlite3"
    assert "Recorded your finished game" in run(paths, "--high-scores").output
    assert recorded(paths) == [("tester", total)]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_finished_game_is_kept_when_the_tables_folder_is_read_only(paths, tmp_path):
    total = at_last_scoring(paths["save"])
    locked = tmp_path / "locked"
    locked.mkdir()
    paths["scores"] = locked / "scores.sqlite3"
    locked.chmod(0o500)
    try:
        ended = run(paths, "--resume", input="score\n")
        assert "The score was not recorded" in ended.output and len(kept_games(paths)) == 1
    finally:
        locked.chmod(0o700)
    assert "Recorded your finished game" in run(paths, "--high-scores").output
    assert recorded(paths) == [("tester", total)]


def test_when_the_game_cannot_be_kept_either_the_save_keeps_it_and_the_next_run_records_it(paths, monkeypatch):
    total = at_last_scoring(paths["save"])
    game_id = read_save(paths["save"]).game_id
    finished_path(paths["save"], game_id).mkdir()  # the place to keep it cannot take a file
    with monkeypatch.context() as patch:
        read_only_connect(patch)
        ended = run(paths, "--resume", input="score\n")
    assert ended.exit_code == 0, ended.output
    assert "could not be kept for later either" in ended.output
    assert f"it stays in {paths['save']}, from which the next doodle solo records it" in ended.output
    assert read_save(paths["save"]).game().is_over()
    finished_path(paths["save"], game_id).rmdir()
    again = run(paths, "--seed", "2", input="quit\n")
    assert again.exit_code == 0, again.output
    assert f"Recorded the finished game found in {paths['save']} ({total} points, seed 11)" in again.output
    assert recorded(paths) == [("tester", total)]


def test_a_row_that_cannot_be_read_does_not_make_a_recorded_game_look_lost(paths):
    total = at_last_scoring(paths["save"])
    ScoreBook(paths["scores"]).close()
    with sqlite3.connect(paths["scores"]) as db:
        db.execute("INSERT INTO scores VALUES ('hand-edited', 'bo', 200, 1, NULL, 'oops', 0, NULL, NULL, '2026', "
                   "NULL, NULL)")
        db.execute("INSERT INTO scores VALUES ('text-total', 'cy', 'lots', 1, NULL, '[1]', 0, NULL, NULL, '2026', "
                   "NULL, NULL)")
    db.close()
    ended = run(paths, "--resume", input="score\n")
    assert ended.exit_code == 0, ended.output
    assert "not recorded" not in ended.output
    assert "High scores: you are #1 of 1." in ended.output  # neither the text total nor the hidden 200 counts
    assert "2 rows of the table cannot be read (edited or damaged) and are left out." in ended.output
    assert re.search(rf"1\.\s+{total}\s+tester.*<- you", ended.output)
    shown = run(paths, "--high-scores")
    assert shown.exit_code == 0 and "2 rows of the table cannot be read" in shown.output


def damaged_schema(path: Path) -> None:
    """A score table with one byte of its schema's text damaged: Python's sqlite3 used to raise
    UnicodeDecodeError while reporting it."""
    with ScoreBook(path) as book:
        book.add(ScoreEntry("old", "ann", 50, 1, None, (10, 20, 30), 10, None, None, "2026-01-01"))
    data = bytearray(path.read_bytes())
    data[data.find(b"indexscores_seed") + len(b"index")] = 0xFF
    path.write_bytes(bytes(data))


def truncated(path: Path) -> None:
    ScoreBook(path).close()
    with sqlite3.connect(path) as db:  # 200 games in one transaction: several pages, of which the first is kept
        db.executemany("INSERT INTO scores VALUES (?, 'ann', ?, 1, NULL, '[1, 2, 3]', 4, NULL, NULL, '2026', NULL, "
                       "NULL)", [(f"g{number}", number) for number in range(200)])
    db.close()
    assert path.stat().st_size > 8192
    path.write_bytes(path.read_bytes()[:4096])


def garbage(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(range(256)) * 40)


@pytest.mark.parametrize("damage", [damaged_schema, truncated, garbage])
def test_a_damaged_table_is_set_aside_and_every_command_keeps_working(paths, damage):
    damage(paths["scores"])
    before = paths["scores"].read_bytes()
    shown = run(paths, "--high-scores")
    assert shown.exit_code == 0, shown.output
    assert "The score table was damaged" in shown.output and "none yet" in shown.output
    [aside] = paths["scores"].parent.glob("scores.sqlite3.corrupt-*")
    assert aside.read_bytes() == before
    damage(paths["scores"].with_name("fresh"))  # damage the new table too, then start, discard, and finish
    os.replace(paths["scores"].with_name("fresh"), paths["scores"])
    total = at_last_scoring(paths["save"])
    assert run(paths, "--new", "--seed", "4", input="quit\n").exit_code == 0
    at_last_scoring(paths["save"])
    ended = run(paths, "--resume", input="score\n")
    assert ended.exit_code == 0, ended.output
    assert "The score table was damaged" in ended.output and "High scores: you are #1 of 1." in ended.output
    assert recorded(paths) == [("tester", total)]
    assert "Traceback" not in shown.output + ended.output


# ----- hostile saves: set aside with what is wrong in a player's words; --new always works -----

def valid_save_data() -> dict:
    session = SoloSession.new(seed=5, name="tester")
    play(session, 6)
    return json.loads(SoloSave(session.game.to_record(), "tester").to_json())


def edited(change) -> str:
    data = valid_save_data()
    change(data)
    return json.dumps(data)


def first_roll(data: dict) -> dict:
    return next(entry for entry in data["record"]["log"] if "roll" in entry)


def first_draw(data: dict) -> dict:
    return next(entry for entry in data["record"]["log"]
                if entry.get("action", {}).get("type") == "draw" and entry["phase"] != "start")


HOSTILE_SAVES = {
    "nested 400,000 deep": ('{"format": "doodle-solo-save/1", "record": ' + "[" * 400_000 + "]" * 400_000 + "}",
                            "nested far deeper than a game is"),
    "nested a million deep": ("[" * 10**6 + "]" * 10**6, r"larger than 1 MB"),
    "a 5000-digit seed": (edited(lambda d: d["record"].update(seed=123)).replace(
        '"seed": 123', '"seed": ' + "7" * 5000), "a number thousands of digits long, which no game writes"),
    "a 4000-digit seed": (edited(lambda d: d["record"].update(seed=10**3999)),
                          "its seed is a number of about 3999 digits, not a whole number from 0 to"),
    "Infinity": (edited(lambda d: d["record"].update(seed=1.5)).replace("1.5", "Infinity"), "it holds Infinity"),
    "NaN roll": (edited(lambda d: first_roll(d).update(roll=1.5)).replace("1.5", "NaN"), "it holds NaN"),
    "an extra roll": (edited(lambda d: d["record"]["log"].insert(2, dict(first_roll(d)))),
                      "a die roll comes where a move is due"),
    "a roll written as text": (edited(lambda d: first_roll(d).update(roll=str(first_roll(d)["roll"]))),
                               r"entry 2 of its moves is a die roll written as text \('[123]'\); a roll is the "
                               "number 1, 2 or 3"),
    "an action written as text": (edited(lambda d: first_draw(d).update(action="draw")),
                                  "has the action 'draw', not a draw, a single square or the end of a turn"),
    "cells written as text": (edited(lambda d: first_draw(d)["action"].update(cells="a1")),
                              "draws cells that are not on the grid"),
    "two players": (edited(lambda d: d["record"].update(players=2)), "a game for 2 players, not a solo game"),
    "a move of a card that is not there": (edited(lambda d: first_draw(d)["action"].update(card="P99")),
                                           r"its moves do not replay \(not the current card: P99 is neither .*\): "
                                           "it was edited or damaged"),
    "a negative seed": (edited(lambda d: d["record"].update(seed=-1)), "its seed is -1"),
    "a seed of another game": (edited(lambda d: d["record"].update(seed=6)), "do not replay"),
    "a list": ("[]", "not a doodle-solo-save/1 save"),
    "not UTF-8": ("\udcff", "not text in UTF-8 or UTF-16"),
}


@pytest.mark.parametrize("case", HOSTILE_SAVES)
def test_a_hostile_save_is_set_aside_with_what_is_wrong_and_new_works(paths, case):
    text, reason = HOSTILE_SAVES[case]
    paths["save"].parent.mkdir(parents=True)
    paths["save"].write_bytes(text.encode("utf-8", "surrogateescape"))
    resumed = run(paths, "--resume")
    assert resumed.exit_code == 1, resumed.output
    assert re.search(reason, resumed.output), resumed.output
    assert "cannot be used" in resumed.output and "moved to" in resumed.output
    for internal in ("Traceback", "string indices", "where the record says", "Exception"):
        assert internal not in resumed.output
    [aside] = paths["save"].parent.glob("save.json.corrupt-*")
    assert aside.read_bytes() == text.encode("utf-8", "surrogateescape")
    paths["save"].write_bytes(aside.read_bytes())
    fresh = run(paths, "--new", "--seed", "3", input="quit\n")
    assert fresh.exit_code == 0, fresh.output
    assert read_save(paths["save"]).record["seed"] == 3


@pytest.mark.parametrize(("deck", "reason"), [
    ("name = 'broken'\n[[start]\n", "is not valid TOML"),
    ("cards = " + "[" * 100_000 + "]" * 100_000 + "\n", "cannot be loaded"),
    ("/dev/zero", "is not a regular file"),
])
def test_a_save_whose_deck_cannot_be_loaded_is_kept_and_new_still_works(paths, tmp_path, deck, reason):
    deck_path = Path(deck) if deck.startswith("/dev/") else tmp_path / "deck.toml"
    if not deck.startswith("/dev/"):
        deck_path.write_text(deck)
    data = valid_save_data()
    data["deck_path"] = str(deck_path)
    paths["save"].parent.mkdir(parents=True)
    paths["save"].write_text(json.dumps(data))
    resumed = run(paths, "--resume")
    assert resumed.exit_code == 1 and "Traceback" not in resumed.output
    assert "the saved game uses" in resumed.output and reason in resumed.output
    assert "Put the deck file back as it was to continue, or start over with --new" in resumed.output
    assert json.loads(paths["save"].read_text()) == data  # the game itself is sound: kept for the deck's return
    assert run(paths, "--new", "--seed", "3", input="quit\n").exit_code == 0


@pytest.mark.parametrize("options", [(), ("--resume",), ("--new",), ("--seed", "2")])
def test_a_device_or_a_pipe_as_the_save_is_refused_never_read_whole_nor_replaced(tmp_path, options):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for special in (Path("/dev/zero"), pipe):
        kind = special.stat().st_mode
        result = run({"save": special, "scores": tmp_path / "s.db"}, *options, input="quit\n")
        assert result.exit_code == 1, result.output
        assert f"{special} is not a regular file: give a file's path with --save" in result.output
        assert special.stat().st_mode == kind  # still the device or the pipe
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_device_as_the_score_table_is_refused_and_the_finished_game_kept(paths, tmp_path):
    total = at_last_scoring(paths["save"])
    paths["scores"] = Path("/dev/zero")
    shown = run(paths, "--high-scores")
    assert shown.exit_code == 1 and "/dev/zero is not a regular file: give a file's path with --scores" in shown.output
    ended = run(paths, "--resume", input="score\n")
    assert ended.exit_code == 0 and "The score was not recorded" in ended.output
    [kept] = kept_games(paths)
    assert json.loads(kept.read_text())["entry"]["total"] == total
    assert Path("/dev/zero").is_char_device() and not list(Path("/dev").glob("zero?*"))


def test_leftover_temporaries_of_a_killed_run_are_removed_at_the_next_start_only_old_ones_and_only_ours(paths):
    folder = paths["save"].parent
    folder.mkdir(parents=True)
    old = [folder / ".save.json.k1l2e3d4.tmp", folder / ".save.json.finished-0123456789abcdef.json.x_9z8y7w.tmp"]
    young = folder / ".save.json.abcdefgh.tmp"
    others = [folder / ".other.json.k1l2e3d4.tmp", folder / "save.json.k1l2e3d4.tmp", folder / ".save.json.tmp"]
    for path in [*old, young, *others]:
        path.write_text("half a save")
    an_hour_ago = time.time() - 2 * 3600
    for path in [*old, *others]:
        os.utime(path, (an_hour_ago, an_hour_ago))
    assert run(paths, "--seed", "1", input="quit\n").exit_code == 0
    assert not any(path.exists() for path in old)
    assert young.exists() and all(path.exists() for path in others)  # another run's write may be in flight


def test_control_characters_in_names_are_never_printed_raw(paths, tmp_path):
    from importlib import resources

    bundled = resources.files("doodle.data").joinpath("doodle_cards.toml").read_text(encoding="utf-8")
    deck = tmp_path / "deck.toml"
    deck.write_text(re.sub(r'(?m)^name = .*$', 'name = "\\\\u001b[2J\\\\u001b[31mEVIL\\\\u202e"', bundled, count=1)
                    + '\n[[patch]]\nid = "P99"\nshape = "##"\n')  # a card more: another deck than the bundled
    ScoreBook(paths["scores"]).close()
    with sqlite3.connect(paths["scores"]) as db:  # a row written by hand (or by an older doodle)
        db.execute("INSERT INTO scores VALUES ('x', ?, 99, 1, NULL, '[1, 2, 3]', 0, NULL, NULL, '2026-01-01', ?, 'f')",
                   ("\x1b]0;pwned\x07bo", "\x1b[5mblink"))
    db.close()
    session = SoloSession.new(seed=11, deck=load_deck(deck), name="x")
    while not (session.stage == Stage.SCORING and session.round == 3):
        play(session, 1)
    write_save(paths["save"], SoloSave(session.game.to_record(), "\x1b[31mann\r", deck_path=str(deck)))
    ended = run(paths, "--resume", input="score\n")
    assert ended.exit_code == 0, ended.output
    shown = run(paths, "--high-scores")
    assert shown.exit_code == 0, shown.output
    for output in (ended.output, shown.output):
        assert not any(char in output for char in "\x1b\x07\r\u202e"), repr(output)
    assert "?[31mann?" in shown.output and "deck ?[2J?[31mEVIL?" in shown.output and "?]0;pwned?bo" in shown.output
    with sqlite3.connect(paths["scores"]) as db:  # and what doodle writes is clean too
        written = db.execute("SELECT name, deck FROM scores WHERE game_id != 'x'").fetchone()
    db.close()
    assert written == ("?[31mann?", "?[2J?[31mEVIL?")


class Terminal:
    """`doodle solo` in a pseudo-terminal, as a player at a terminal sees it: read what it prints, type."""

    def __init__(self, *args: str) -> None:
        import pty
        import subprocess
        import sys

        self.master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "100", "LINES": "40"}
        self.process = subprocess.Popen([sys.executable, "-m", "doodle", "solo", *args], stdin=slave, stdout=slave,
                                        stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.seen = ""

    def wait_for(self, text: str, timeout: float = 60) -> str:
        import select

        deadline = time.monotonic() + timeout
        while text not in self.seen:
            ready, _, _ = select.select([self.master], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"{text!r} did not appear; the screen shows: {self.seen!r}")
            try:
                self.seen += os.read(self.master, 4096).decode("utf-8", "replace")
            except OSError:  # the program ended
                raise AssertionError(f"{text!r} did not appear; the screen shows: {self.seen!r}") from None
        return self.seen

    def type(self, line: str) -> None:
        os.write(self.master, f"{line}\r".encode())

    def close(self) -> int:
        code = self.process.wait(timeout=60)
        os.close(self.master)
        return code


@pytest.mark.parametrize(("answers", "seed", "code"), [(["y"], 5, 0), (["n", "y"], 7, 0), (["n", "n"], 5, 1),
                                                      ([""], 5, 0)])
def test_on_a_terminal_a_game_in_progress_is_offered_for_resuming(paths, answers, seed, code):
    assert run(paths, "--seed", "5", input="draw a1\nquit\n").exit_code == 0
    terminal = Terminal("--plain", "--no-par", "--save", str(paths["save"]), "--scores", str(paths["scores"]),
                        "--seed", "7")
    try:
        terminal.wait_for("(seed 5, round 1, turn 1). Resume it? [Y/n]")
        terminal.type(answers[0])
        if answers[0] == "n":
            terminal.wait_for("Start a new game instead, discarding the saved one? [y/N]")
            terminal.type(answers[1])
        if code == 0:
            terminal.wait_for(f"Patchwork Doodle solo, seed {seed}.")
            terminal.wait_for("> ")
            terminal.type("quit")
            terminal.wait_for("Saved")
        else:
            terminal.wait_for("the saved game is kept in")
    finally:
        assert terminal.close() == code
    assert read_save(paths["save"]).record["seed"] == seed
    assert "Traceback" not in terminal.seen


def test_without_a_terminal_a_game_in_progress_is_not_overwritten_and_the_message_says_what_to_type(paths):
    assert run(paths, "--seed", "5", input="quit\n").exit_code == 0
    refused = run(paths, "--seed", "6")
    assert refused.exit_code == 2
    assert "continue it with --resume, or start a new one with --new (discarding it)" in refused.output
    assert read_save(paths["save"]).record["seed"] == 5
