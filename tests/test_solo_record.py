"""Solo records replay and re-score exactly, and an edited record is refused with the field that differs."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doodle.game import DoodleGame
from doodle.game.bots import get_bot, play_solo
from doodle.game.solo_record import SoloRecordError, solo_record, verify_solo_record
from doodle.quilt import Quilt


@pytest.fixture(scope="module")
def greedy_record() -> dict:
    return json.loads(json.dumps(solo_record(play_solo(get_bot("greedy"), 2024), "greedy")))


def test_record_fields_tell_the_whole_game(greedy_record: dict) -> None:
    record = greedy_record
    assert record["seed"] == 2024 and record["bot"] == "greedy" and record["over"]
    assert [(t["round"], t["turn"]) for t in record["turns"]] == [(r, t) for r in (1, 2, 3) for t in range(1, 7)]
    assert record["turns"][-1]["roll"] is None and len(record["turns"][-1]["choices"]) == 3
    assert all(t["roll"] in (1, 2, 3) and t["card"] for t in record["turns"][:-1])
    assert len(record["round_quilts"]) == 3 and all(len(q) == 9 for q in record["round_quilts"])
    assert record["round_scores"] == [Quilt.from_rows(q).score_rectangle() for q in record["round_quilts"]]
    assert record["quilt"] == record["round_quilts"][-1] == record["scorings"][-1]["quilt"]
    assert [s["score"] for s in record["scorings"]] == record["round_scores"]
    assert record["empty"] == Quilt.from_rows(record["quilt"]).empty_count()
    assert record["total"] == sum(record["round_scores"]) - record["empty"]
    assert DoodleGame.replay(record["game"]).totals() == [record["total"]]


def test_each_quilt_grows_by_the_cells_drawn(greedy_record: dict) -> None:
    steps = greedy_record["turns"] + greedy_record["scorings"]
    steps.sort(key=lambda step: (step["round"], step.get("turn", 7)))
    previous = Quilt.from_rows(greedy_record["start"]["quilt"])
    for turn in steps:
        quilt = Quilt.from_rows(turn["quilt"])
        drawn = sum(len(a["cells"]) if a["type"] == "draw" else 1 for a in turn["actions"] if a["type"] != "end")
        assert quilt.bits & previous.bits == previous.bits
        assert quilt.covered_count() == previous.covered_count() + drawn
        previous = quilt


@pytest.mark.parametrize(("field", "change"), [
    ("total", lambda r: r["total"] + 1),
    ("empty", lambda r: r["empty"] - 1),
    ("round_scores", lambda r: [r["round_scores"][0] + 5, *r["round_scores"][1:]]),
    ("quilt", lambda r: ["#########"] * 9),
    ("seed", lambda r: r["seed"] + 1),
    ("turns", lambda r: [{**r["turns"][0], "roll": r["turns"][0]["roll"] % 3 + 1}, *r["turns"][1:]]),
    ("round_quilts", lambda r: [r["round_quilts"][1], *r["round_quilts"][1:]]),
])
def test_an_edited_record_is_refused_naming_the_field(greedy_record: dict, field: str, change) -> None:
    edited = json.loads(json.dumps(greedy_record))
    edited[field] = change(edited)
    with pytest.raises(SoloRecordError, match=field):
        verify_solo_record(edited)


def test_malformed_records_are_refused_clearly(greedy_record: dict) -> None:
    with pytest.raises(SoloRecordError, match="format"):
        verify_solo_record({"format": "something else"})
    partial = {k: v for k, v in greedy_record.items() if k != "turns"}
    with pytest.raises(SoloRecordError, match="turns"):
        verify_solo_record(partial)
    broken = json.loads(json.dumps(greedy_record))
    draw = next(e for e in broken["game"]["log"] if e.get("phase") == "turn" and e["action"]["type"] == "draw")
    draw["action"]["cells"] = [[0, 0]]  # not the card's shape
    with pytest.raises(SoloRecordError, match="does not replay"):
        verify_solo_record(broken)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**9))
def test_bot_records_replay_and_rescore_exactly(seed: int) -> None:
    record = json.loads(json.dumps(solo_record(play_solo(get_bot("greedy"), seed), "greedy")))
    game = verify_solo_record(record)
    assert game.totals() == [record["total"]]
    assert record["total"] == sum(record["round_scores"]) - record["empty"]


def test_an_unfinished_game_has_no_total_yet() -> None:
    game = DoodleGame.new(1, 3)
    bot = get_bot("greedy")
    for _ in range(4):
        for action in bot.act(game, 0):
            game.apply(0, action)
    record = solo_record(game, None)
    assert record["total"] is None and not record["over"] and len(record["turns"]) == 3
    verify_solo_record(json.loads(json.dumps(record)))
