"""Patchwork bots: legal choices, the game left untouched, the evaluation terms against brute force."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doodle.patchwork import ADVANCE, Game
from doodle.patchwork.bots import GreedyBot, MctsBot, RandomBot, candidate_moves, first_fit, make_bot, play_game
from doodle.patchwork.evaluation import empty_perimeter, holes, move_value
from doodle.quilt import Quilt
from tests.strategies import quilts

EMPTY = "0" * 21


def neighbours_of(row: int, col: int) -> list[tuple[int, int]]:
    return [(row + dr, col + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]


@given(quilts())
def test_packing_terms_match_a_cell_by_cell_count(quilt: Quilt):
    empty = {(r, c) for r in range(9) for c in range(9) if not quilt.is_covered(r, c)}
    perimeter = sum(1 for cell in empty for n in neighbours_of(*cell) if n not in empty)
    isolated = sum(1 for cell in empty if not any(n in empty for n in neighbours_of(*cell)))
    assert empty_perimeter(quilt.bits) == perimeter
    assert holes(quilt.bits) == isolated


@given(quilts(), st.integers(0, 32))
def test_first_fit_finds_a_placement_exactly_when_one_fits(quilt: Quilt, number: int):
    from doodle.patchwork import PATCHES

    move = first_fit(number, quilt.bits)
    assert (move is not None) == quilt.can_place(PATCHES[number].shape)
    if move is not None:
        assert not move.mask & quilt.bits


@pytest.mark.parametrize("bot", [RandomBot(1), GreedyBot(), MctsBot(iterations=30, seed=1)], ids=lambda b: b.name)
def test_bots_choose_legal_moves_and_leave_the_game_alone(bot):
    game = Game.new(seed=7)
    for _ in range(12):
        before = (game.state_key(), game.move_stack)
        move = bot.choose(game)
        assert (game.state_key(), game.move_stack) == before
        assert move in game.legal_moves()
        game.play(move)


def test_greedy_takes_the_move_of_highest_static_value():
    game = Game.new(seed=3)
    move = GreedyBot().choose(game)
    assert move_value(game, move) == max(move_value(game, m) for m in game.legal_moves())


def test_the_search_candidates_are_legal_and_include_advance():
    game = Game.new(seed=5)
    candidates = candidate_moves(game, placements=2)
    assert ADVANCE in candidates
    assert all(game.is_legal(m) for m in candidates)
    per_patch = {m.patch for m in candidates if m.kind == "patch"}
    assert all(sum(m.patch == n for m in candidates) <= 2 for n in per_patch)


def test_mcts_finds_the_winning_move_at_the_end():
    # Player 0 trails by 3 (-160 to -157). Patch 1 (3 cells for 2 buttons, time 2) ends the game at -156 and
    # wins; advancing pays 2 buttons and loses at -158.
    game = Game.from_notation(f"current circle:1,0 p0:51/2/0/{EMPTY} p1:53/5/0/{EMPTY} top:0 bonus:- leather:- end:1")
    bot = MctsBot(iterations=200, seed=3)
    move = bot.choose(game)
    assert move.kind == "patch" and move.patch == 1
    game.play(move)
    assert game.is_over() and game.scores() == (-156, -157) and game.winner() == 0
    assert bot.last_iterations == 200


def test_mcts_budget_is_checked():
    with pytest.raises(ValueError, match="budget"):
        MctsBot(iterations=0)
    with pytest.raises(ValueError, match="game is over"):
        MctsBot(iterations=5).choose(
            Game.from_notation(f"current circle:0 p0:53/0/0/{EMPTY} p1:53/0/0/{EMPTY} top:0 bonus:- leather:- end:0")
        )


def test_make_bot_by_name_and_a_whole_bot_game_replays():
    with pytest.raises(ValueError, match="unknown bot 'alphago'"):
        make_bot("alphago")
    game = play_game((make_bot("random", seed=1), make_bot("greedy")), Game.new(seed=12, first=1))
    assert game.is_over() and game.winner() in (0, 1)
    assert Game.from_record(game.to_record()).state_key() == game.state_key()
