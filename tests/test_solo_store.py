"""Save files: round trip through the engine's replay, clear errors for damaged saves, setting files aside,
and the session's rules (drawing ends the turn, the save hook after every move)."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doodle.game.sheet import IllegalAction
from doodle.solo.session import SoloSession, Stage
from doodle.solo.store import (
    SaveError,
    SaveWriteError,
    SoloSave,
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
