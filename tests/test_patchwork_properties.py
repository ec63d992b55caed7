"""Properties of the Patchwork engine over random games, checked against brute force."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from doodle.patchwork import PATCHES, Game
from doodle.quilt import Quilt

editions = st.sampled_from(["current", "original"])


def brute_force_moves(game: Game) -> set[tuple[str, int | None, frozenset]]:
    """The legal moves from the rules text: advance, or each affordable patch of the next three on each fitting
    placement (any orientation), or, while a leather patch waits, each empty cell."""
    p = game.current_player
    if p is None:
        return set()
    quilt = game.quilts[p]
    if game.pending_leather:
        return {("leather", None, frozenset([cell])) for cell in
                ((r, c) for r in range(9) for c in range(9)) if not quilt.is_covered(*cell)}  # fmt: skip
    moves = {("advance", None, frozenset())}
    for patch in game.choices():
        if patch.cost <= game.buttons[p]:
            moves |= {("patch", patch.number, frozenset(pl.cells)) for pl in Quilt(quilt.bits).placements(patch.shape)}
    return moves


@given(seed=st.integers(0, 10**6), edition=editions, picks=st.lists(st.integers(0, 10**6), min_size=60, max_size=60))
def test_random_games_keep_every_invariant(seed, edition, picks):
    game = Game.new(seed=seed, edition=edition)
    for pick in picks:
        if game.is_over():
            break
        moves = game.legal_moves()
        as_tuples = [(m.kind, m.patch, m.cells) for m in moves]
        assert len(set(as_tuples)) == len(moves), "legal moves are distinct"
        assert set(as_tuples) == brute_force_moves(game)
        move = moves[pick % len(moves)]
        p = game.current_player
        before = game.state_key()
        bits_before = game.quilts[p].bits
        game.play(move)
        assert not move.mask & bits_before, "a patch never overlaps the quilt"
        assert game.quilts[p].bits == bits_before | move.mask
        assert min(game.buttons) >= 0
        assert all(0 <= pos <= 53 for pos in game.positions)
        game.undo()
        assert game.state_key() == before, "undo restores the position exactly"
        game.play(move)


@given(seed=st.integers(0, 10**6), edition=editions, picks=st.lists(st.integers(0, 10**6), min_size=200, max_size=200))
def test_a_whole_game_replays_from_its_record_and_its_notation(seed, edition, picks):
    game = Game.new(seed=seed, edition=edition, first=seed % 2)
    positions = []
    for pick in picks:
        if game.is_over():
            break
        positions.append(game.notation())
        moves = game.legal_moves()
        game.play(moves[pick % len(moves)])
    record = game.to_record()
    again = Game.from_record(record)
    assert again.state_key() == game.state_key()
    assert again.move_stack == game.move_stack
    for text in positions:
        assert Game.from_notation(text).notation() == text
    assert Game.from_notation(game.notation()).state_key() == game.state_key()
    if game.is_over():
        a, b = game.scores()
        assert game.winner() == (0 if a > b else 1 if b > a else game.first_to_end)
        for p in (0, 1):
            bonus = 7 if game.bonus_owner == p else 0
            assert game.scores()[p] == game.buttons[p] - 2 * game.quilts[p].empty_count() + bonus


@given(seed=st.integers(0, 10**6), picks=st.lists(st.integers(0, 10**6), min_size=30, max_size=30))
def test_income_equals_the_buttons_on_the_patches_placed(seed, picks):
    game = Game.new(seed=seed)
    for pick in picks:
        if game.is_over():
            break
        moves = game.legal_moves()
        game.play(moves[pick % len(moves)])
    for p in (0, 1):
        placed = [m.patch for i, m in enumerate(game.move_stack) if m.kind == "patch" and _mover(game, i) == p]
        assert game.income[p] == sum(PATCHES[n].buttons for n in placed)


def _mover(game: Game, index: int) -> int:
    replay = Game(game.order, edition=game.edition, first=game.first)
    for move in game.move_stack[:index]:
        replay.play(move)
    return replay.current_player
