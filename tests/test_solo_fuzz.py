"""Hostile saves and damaged score tables thrown at the solo game's persistence: every one ends in a clear
error (SaveError, ScoresError, a message and exit 1), never a traceback, and a finished game is never lost."""

from __future__ import annotations

import copy
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doodle.cli import main
from doodle.solo.finish import finish_game, record_entry, record_waiting
from doodle.solo.scores import ScoreBook, ScoreEntry, ScoresError
from doodle.solo.session import SoloSession, Stage
from doodle.solo.store import SaveError, SoloSave, finished_games, read_save
from tests.test_solo_store import play


def fuzz(examples: int) -> settings:
    """`examples` runs, no deadline (files and SQLite on 2 shared cores), per-test temporary folders."""
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@cache
def valid_saves() -> tuple[str, ...]:
    """Saves of games at several stages (the start, mid-game, the last scoring), as JSON text."""
    texts = []
    for seed, moves in ((1, 0), (2, 9), (3, 200)):
        session = SoloSession.new(seed=seed, name="tester")
        while moves and not (session.stage == Stage.SCORING and session.round == 3):
            play(session, 1)
            moves -= 1
        texts.append(SoloSave(session.game.to_record(), "tester").to_json())
    return tuple(texts)


HOSTILE_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10**30, max_value=10**4000),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12), st.just("1"), st.just([]), st.just({}),
    st.integers(1, 3).map(str), st.lists(st.integers(-3, 12), max_size=3),
    st.integers(1, 5000).map(lambda depth: json.loads("[" * depth + "]" * depth) if depth < 900 else []),
    st.just({"type": "draw", "card": "P01", "cells": [[0, 0]]}), st.just({"type": "single", "cell": [4, 4]}),
    st.just({"type": "end"}), st.just({"round": 1, "turn": 1, "roll": 2}),
)


def paths_in(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON tree, as a path of keys and indexes."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths_in(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths_in(value, (*prefix, index))
    return found


@st.composite
def hostile_saves(draw: st.DrawFn) -> bytes:
    """A valid save edited at random places (a value replaced, a key or entry removed, an entry repeated), or
    its text cut short, a byte flipped, or nested deep."""
    text = draw(st.sampled_from(valid_saves()))
    data = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        places = paths_in(data)
        place = draw(st.sampled_from(places[1:]))
        parent = data
        for key in place[:-1]:
            parent = parent[key]
        edit = draw(st.sampled_from(["replace", "remove", "repeat"]))
        if edit == "replace":
            parent[place[-1]] = copy.deepcopy(draw(HOSTILE_VALUES))  # st.just values are shared
        elif edit == "remove":
            del parent[place[-1]]
        elif isinstance(parent, list):
            parent.insert(place[-1], copy.deepcopy(parent[place[-1]]))
    raw = json.dumps(data, allow_nan=True).encode() if _dumpable(data) else text.encode()
    damage = draw(st.sampled_from(["none", "cut", "flip", "nest"]))
    if damage == "cut":
        raw = raw[:draw(st.integers(0, len(raw)))]
    elif damage == "flip":
        position = draw(st.integers(0, len(raw) - 1))
        raw = raw[:position] + bytes([draw(st.integers(0, 255))]) + raw[position + 1:]
    elif damage == "nest":
        depth = draw(st.integers(1000, 300_000))
        raw = raw.replace(b'"log": [', b'"log": [' + b"[" * depth + b"]" * depth + b",", 1)
    return raw


def _dumpable(data: Any) -> bool:
    try:
        json.dumps(data, allow_nan=True)
    except ValueError:  # an integer beyond Python's 4300 digits for str()
        return False
    return True


@fuzz(300)
@given(hostile_saves())
def test_a_hostile_save_replays_or_raises_save_error(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("save") / "save.json"
    path.write_bytes(raw)
    try:
        save = read_save(path)
        assert save is not None
        save.game()
    except SaveError as error:
        assert str(error) and "Traceback" not in str(error)


@fuzz(25)
@given(hostile_saves())
def test_the_command_sets_a_hostile_save_aside_or_plays_it_and_never_loses_it(tmp_path_factory, raw):
    folder = tmp_path_factory.mktemp("cli")
    save, scores = folder / "save.json", folder / "scores.sqlite3"
    save.write_bytes(raw)
    result = CliRunner().invoke(main, ["solo", "--plain", "--no-par", "--save", str(save), "--scores", str(scores),
                                       "--resume"], input="score\nquit\n")
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    aside = list(folder.glob("save.json.corrupt-*"))
    if result.exit_code == 1 and "Put the deck file back" in result.output:  # sound, but its deck file is not
        assert save.read_bytes() == raw and not aside
    elif result.exit_code == 1:
        assert aside and aside[0].read_bytes() == raw and "cannot be used" in result.output
    else:  # it replayed: it is played on (saved again) or, finished, recorded
        assert save.exists() or ScoreBook(scores).count() == 1


@cache
def table_bytes() -> bytes:
    """A small score table with a few games, as a file's bytes."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.db"
        with ScoreBook(path) as book:
            for number in range(40):
                book.add(ScoreEntry(f"g{number}", f"player {number}", number * 3, number % 5, None, (10, 20, number),
                                    number % 9, None, None, "2026-01-01", "Patchwork Doodle", "abc"))
        return path.read_bytes()


@st.composite
def damaged_tables(draw: st.DrawFn) -> bytes:
    data = bytearray(table_bytes())
    if draw(st.booleans()):
        del data[draw(st.integers(0, len(data))):]
    for _ in range(draw(st.integers(0, 6))):
        if data:
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    return bytes(data)


ENTRY = ScoreEntry("new-game", "tester", 77, 12, None, (20, 30, 40), 13, None, None, "2026-12-01T10:00:00",
                   "Patchwork Doodle", "abc")


@fuzz(150)
@given(damaged_tables())
def test_a_damaged_table_is_read_or_refused_with_scores_error(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("table") / "s.db"
    path.write_bytes(raw)
    try:
        with ScoreBook(path) as book:
            book.top()
            book.rank(50, seed=1, deck_id="abc")
            book.count()
    except ScoresError as error:
        assert str(error)


@fuzz(100)
@given(damaged_tables())
def test_recording_into_a_damaged_table_records_the_game_or_says_it_did_not(tmp_path_factory, raw):
    folder = tmp_path_factory.mktemp("record")
    path = folder / "s.db"
    path.write_bytes(raw)
    standing = record_entry(path, ENTRY)
    for aside in folder.glob("s.db.corrupt-*"):
        assert aside.read_bytes() == raw  # a damaged table is moved, never changed
    if standing.recorded:
        with ScoreBook(path) as book:
            assert book.get(ENTRY.game_id) == ENTRY
    else:
        assert standing.problem and "The score was not recorded" in standing.note


@fuzz(60)
@given(damaged_tables(), st.sampled_from(["ok", "locked-folder"]))
def test_a_finished_game_is_never_lost(tmp_path_factory, raw, fault):
    folder = tmp_path_factory.mktemp("finish")
    save_path, scores_path = folder / "save.json", folder / "s.db"
    if fault == "locked-folder":  # the table's folder cannot be made (a file is in the way): fails for root too
        (folder / "blocked").write_text("")
        scores_path = folder / "blocked" / "s.db"
    else:
        scores_path.write_bytes(raw)
    text = valid_saves()[2]
    save = SoloSave(**{key: value for key, value in json.loads(text).items() if key != "format"})
    session = SoloSession(save.game())
    session.end()
    save_path.write_text(text)
    standing = finish_game(save_path, scores_path, save, session, None)
    kept = finished_games(save_path, scores_path)
    if standing.recorded:
        with ScoreBook(scores_path) as book:
            assert book.get(save.game_id).total == session.total()
        assert not save_path.exists() and not kept
    else:
        [(_, entry)] = kept
        assert entry.total == session.total() and "will be recorded the next time" in standing.note
        if fault == "locked-folder":
            os.remove(folder / "blocked")
            (folder / "blocked").mkdir()
            assert any("Recorded your finished game" in note for note in record_waiting(save_path, scores_path))
            with ScoreBook(scores_path) as book:
                assert book.get(save.game_id).total == session.total()
