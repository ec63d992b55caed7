"""Random and hostile input thrown at every surface of doodle.patchwork that takes it from outside: moves built
by hand, move texts, typed lines, position texts, game records (as values and as files). Each surface either
does its job or raises the package's documented error, and a game that accepted a move always replays."""

from __future__ import annotations

import contextlib
import json
import random

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doodle.cli import main
from doodle.patchwork import (
    Game,
    IllegalMoveError,
    Move,
    MoveSyntaxError,
    NotationError,
    PatchworkRecordError,
    parse_move,
)
from doodle.patchwork.moves import engine_move
from doodle.patchwork.plain import PlainMatch, Quit
from doodle.patchwork.seats import read_seats, read_seed

json_leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
json_values = st.recursive(json_leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=6), inner, max_size=4), max_leaves=12)  # fmt: skip
odd_numbers = st.integers(-3, 90) | st.sampled_from([True, False, 0.0, 1.5, None, "1", 10**40])
cells = st.tuples(odd_numbers, odd_numbers)
hostile_moves = st.builds(
    Move,
    kind=st.sampled_from(["advance", "patch", "leather", "jump", ""]),
    patch=st.none() | odd_numbers,
    cells=st.frozensets(cells, max_size=6) | st.frozensets(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=6),
    mask=st.integers(0, (1 << 82) - 1) | st.just(0),
)
words = st.sampled_from(["advance", "a", "leather", "l", "fits", "undo", "hint", "show", "12", "p3", "o1", "o²", "r1",
                         "m", "c4", "a1,b1", "²", "٣", "１", "9" * 30, "e5", "-", "?", "\x00", "q̈"])  # fmt: skip
typed_lines = st.lists(words, max_size=5).map(" ".join) | st.text(max_size=30)


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.lists(hostile_moves, min_size=1, max_size=30))
def test_hostile_moves_are_refused_or_played_as_the_engines_own_and_the_record_replays(seed, hostile):
    rng = random.Random(seed)
    game = Game.new(seed=seed)
    for move in hostile:
        if game.is_over():
            break
        before = game.notation()
        try:
            game.play(move)
        except IllegalMoveError:
            assert game.notation() == before
        else:
            assert game.move_stack[-1] is engine_move(move)
        if not game.is_over():
            game.play(rng.choice(game.legal_moves()))
    replayed = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert replayed.notation() == game.notation() and replayed.move_stack == game.move_stack


@given(st.text(max_size=40) | typed_lines)
def test_any_move_text_gives_a_well_formed_move_or_the_syntax_error(text):
    try:
        move = parse_move(text)
    except MoveSyntaxError:
        return
    assert engine_move(move) is move  # the parser hands out the engine's own moves
    assert parse_move(move.text()) == move


@settings(max_examples=40)
@given(st.integers(0, 1000), st.lists(typed_lines, max_size=8))
def test_any_typed_line_gets_an_answer(seed, lines):
    game = Game.new(seed=seed)
    changes: list[str] = []
    match = PlainMatch(game, [None, None], on_change=lambda g: changes.append(g.notation()))
    for line in lines:
        before = game.notation()
        try:
            answer = match.handle(line)
        except Quit:
            continue
        assert isinstance(answer, str) and answer
        if game.notation() != before:
            assert changes[-1] == game.notation()  # every change was handed on to be saved


def valid_notation(seed: int) -> str:
    game = Game.new(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(40)):
        if game.is_over():
            break
        game.play(rng.choice(game.legal_moves()))
    return game.notation()


@given(st.integers(0, 1000), st.integers(0, 200), st.text(max_size=12))
def test_any_position_text_reads_back_or_says_what_is_wrong(seed, at, insert):
    text = valid_notation(seed)
    assert Game.from_notation(text).notation() == text
    damaged = text[:at] + insert + text[at + len(insert) :]
    try:
        game = Game.from_notation(damaged)
    except NotationError:
        return
    assert Game.from_notation(game.notation()) == game


def record_of(seed: int) -> dict:
    game = Game.new(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(30)):
        game.play(rng.choice(game.legal_moves()))
    record = game.to_record()
    record["players"] = [{"kind": "human"}, {"kind": "bot", "bot": "mcts", "seconds": 1.0}]
    return record


RECORD_KEYS = ["format", "version", "edition", "order", "first", "start", "moves", "position", "scores", "winner",
               "players", "seed"]  # fmt: skip


@settings(max_examples=80)
@given(st.integers(0, 1000), st.sampled_from(RECORD_KEYS), json_values)
def test_a_record_with_any_field_replaced_replays_or_says_which(seed, key, value):
    record = record_of(seed)
    record[key] = value
    try:
        game = Game.from_record(record)
        read_seats(record)
        read_seed(record)
    except PatchworkRecordError:
        return
    assert Game.from_record(game.to_record()).notation() == game.notation()


@given(json_values)
def test_any_json_value_as_a_record_replays_or_says_why(value):
    with contextlib.suppress(PatchworkRecordError):
        Game.from_record(value)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode()))
def test_resume_of_any_file_ends_with_a_message_not_a_traceback(tmp_path, data):
    path = tmp_path / "g.json"
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["patchwork", "play", "--plain", "--resume", str(path)], input="quit\n")
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
