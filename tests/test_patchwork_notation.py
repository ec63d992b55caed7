"""Text forms of Patchwork: moves, one-line positions and JSON game records, and their error messages."""

from __future__ import annotations

import json

import pytest

from doodle.patchwork import ADVANCE, Game, MoveSyntaxError, NotationError, PatchworkRecordError, parse_move
from doodle.patchwork.moves import leather_move, orientation_placement

START = (
    "current circle:1,2,3,0 p0:0/5/0/000000000000000000000 p1:0/5/0/000000000000000000000 top:0 bonus:- leather:- end:-"
)


def test_move_text_round_trips():
    game = Game.new(seed=11)
    for move in game.legal_moves():
        assert parse_move(move.text()) == move
    assert parse_move("advance") == ADVANCE == parse_move(" A ")
    assert parse_move("leather E5") == leather_move(4, 4)
    assert parse_move("1 o1 a1").cells == frozenset({(0, 0), (1, 0), (2, 0)})
    assert parse_move("p1 c1, a1, b1") == orientation_placement(1, 0, 0, 0)


@pytest.mark.parametrize(("text", "message"), [
    ("", "the move is empty"),
    ("jump", "is not a move"),
    ("advance now", "takes nothing after it"),
    ("leather", "one cell"),
    ("leather z9", "is not a cell"),
    ("40 a1", "there is no patch 40"),
    ("1", "say where patch 1 goes"),
    ("1 a1 b2 c3", "not the shape of patch 1"),
    ("1 o9 a1", "orientations o0 to o1"),
    ("1 o0 h1", "must stay on the board"),
])  # fmt: skip
def test_malformed_moves_are_refused_with_a_clear_message(text, message):
    with pytest.raises(MoveSyntaxError, match=message):
        parse_move(text)


def test_the_start_position_notation():
    game = Game.new(order=[1, 2, 3, 0])
    assert game.notation() == START
    assert Game.from_notation(START).state_key() == game.state_key()
    assert repr(game) == f"Game.from_notation({START!r})"
    drawing = str(game)
    assert "patch 1" in drawing and "player 1 to move." in drawing and drawing.count("a b c d e f g h i") == 2


def test_a_pending_leather_patch_survives_the_notation():
    start = START.replace("circle:1,2,3,0", "circle:9,0").replace("p0:0/5", "p0:20/9").replace("p1:0/5", "p1:25/5")
    game = Game.from_notation(start)
    game.play(parse_move("9 o0 a1"))  # patch 9: cost 8, time 6, from 20 to 26 past the leather patch on 26
    text = game.notation()
    assert "leather:0x1" in text and "p0:26/4/3/" in text  # 9 - 8 + income 3 on the mark on 23
    again = Game.from_notation(text)
    assert again.state_key() == game.state_key() and again.current_player == 0
    assert again.legal_moves() == game.legal_moves()


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s.replace("current", "deluxe"), "unknown edition 'deluxe'"),
    (lambda s: s.replace(" end:-", ""), "a position has 8 fields"),
    (lambda s: s.replace("circle:1,2,3,0", "circle:1,1,0"), "patch 1 appears twice"),
    (lambda s: s.replace("circle:1,2,3,0", "circle:1,x"), "'x' is not a whole number"),
    (lambda s: s.replace("p0:0/5/0/", "p0:60/5/0/"), "position must be 0 to 53"),
    (lambda s: s.replace("p0:0/5/0/", "p0:0/5/"), "write position/buttons/income/quilt"),
    (lambda s: s.replace("p1:0/5/0/000000000000000000000", "p1:0/5/0/zz"), "not a hex number"),
    (lambda s: s.replace("p1:0/5/0/000000000000000000000", "p1:0/5/0/fffffffffffffffffffffff"), "beyond the 81"),
    (lambda s: s.replace("top:0", "top:2"), "the player is 0 or 1"),
    (lambda s: s.replace("top:0", "up:0"), "expected the field 'top:...'"),
    (lambda s: s.replace("bonus:-", "bonus:1"), "has no filled 7x7 square"),
    (lambda s: s.replace("end:-", "end:0"), "is not on space 53"),
    (lambda s: s.replace("leather:-", "leather:3"), "write '-' or PxN"),
])  # fmt: skip
def test_malformed_notation_is_refused_with_a_clear_message(change, message):
    with pytest.raises(NotationError, match=message):
        Game.from_notation(change(START))


def finished_game(seed: int) -> Game:
    game = Game.new(seed=seed)
    while not game.is_over():
        moves = game.legal_moves()
        game.play(moves[(len(game.move_stack) * 7919) % len(moves)])
    return game


def test_a_record_is_json_and_replays_to_the_same_game():
    game = finished_game(4)
    record = json.loads(json.dumps(game.to_record()))
    assert record["over"] is True and record["winner"] in (0, 1)
    again = Game.from_record(record)
    assert again.notation() == game.notation() and again.move_stack == game.move_stack


def test_a_record_from_a_position_replays():
    game = Game.from_notation(START)
    game.play(ADVANCE)
    game.play(parse_move("1 a1 b1 c1"))
    record = game.to_record()
    assert record["start"] == START
    assert Game.from_record(record).notation() == game.notation()


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r.update(format="chess"), "not a Patchwork record"),
    (lambda r: r.update(version=9), "version 9 is not supported"),
    (lambda r: r.pop("order"), "needs 'order'"),
    (lambda r: r.update(order=[1, 1]), "bad setup: patch 1 appears twice"),
    (lambda r: r.update(edition="deluxe"), "bad setup: unknown edition"),
    (lambda r: r["moves"].insert(0, "leather a1"), r"move 1 \('leather a1'\) does not replay: there is no leather"),
    (lambda r: r["moves"].__setitem__(2, "banana"), "move 3 .* is not a move"),
    (lambda r: r.update(scores=[1, 2]), "the record says scores"),
    (lambda r: r.update(moves="advance"), "'moves' must be a list"),
])  # fmt: skip
def test_a_bad_record_is_refused_with_a_clear_message(change, message):
    record = finished_game(8).to_record()
    change(record)
    with pytest.raises(PatchworkRecordError, match=message):
        Game.from_record(record)


def test_a_record_must_be_an_object():
    with pytest.raises(PatchworkRecordError, match="a JSON object"):
        Game.from_record(["advance"])
