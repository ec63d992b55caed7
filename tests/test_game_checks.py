"""The checks a score sheet and a game allow (doodle.game.checks): round scores, and quilts against the cards."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from doodle.game.checks import (
    ALL_SPECIALS,
    CardsError,
    RoundCards,
    TurnCards,
    dealt_events,
    explain_added,
    lost_cells,
    most_cells,
    quilt_problems,
    round_cards,
    round_score_problems,
)
from doodle.game.dealer import Phase
from doodle.game.deck import bundled_deck
from doodle.game.game import DoodleGame
from doodle.game.sheet import DrawPatch, EndTurn, IllegalAction, SingleSquare
from doodle.geometry import Polyomino
from doodle.quilt import POSSIBLE_ROUND_SCORES, Quilt, cells_of

DECK = bundled_deck()


# --- round scores -------------------------------------------------------------------------------------------------
def test_every_score_no_rectangle_makes_is_flagged_and_no_other():
    for score in range(82):
        problems = round_score_problems([score, None, None])
        assert bool(problems) == (score not in POSSIBLE_ROUND_SCORES), score
    assert "no rectangle scores 70 (the possible scores nearest to it are 65 and 81)" in round_score_problems(
        [None, 70, None])[0].message


def test_a_lower_score_than_the_round_before_names_both():
    [problem] = round_score_problems([25, 16, None])
    assert problem.round == 2 and "round 2 score 16 is lower than round 1's 25" in problem.message
    [problem] = round_score_problems([25, None, 16])  # against the last known round
    assert problem.round == 3 and "round 1's 25" in problem.message


def test_the_round_scored_now_equals_the_best_rectangle_of_the_quilt():
    quilt = Quilt.from_rows(["#####...."] * 4 + ["........."] * 5)  # 5x4: 17
    assert round_score_problems([9, 16, 17], quilt) == []
    [problem] = round_score_problems([9, 16, 20], quilt)
    assert problem.round == 3 and "round 3 score 20 differs" in problem.message and "scores 17" in problem.message
    [problem] = round_score_problems([9, 25, 25], quilt)[:1]
    assert problem.round == 2 and "more than the best rectangle of the quilt now (17)" in problem.message
    # a photo taken at the scoring of round 1: round 1 is its quilt's; a later round filled in is flagged
    assert round_score_problems([17, None, None], quilt, scoring_round=1) == []
    assert [p.round for p in round_score_problems([17, 17, None], quilt, scoring_round=1)] == [2]


# --- quilts against the game --------------------------------------------------------------------------------------
def play(seed: int, choices: int, specials: bool = True) -> tuple[list[Quilt], list[frozenset[str]]]:
    """A 1-player game with random legal moves: the quilt at each scoring, and the specials crossed by then."""
    rng = random.Random(choices)
    game = DoodleGame.new(1, seed, DECK)
    sheet = game.sheets[0]
    quilts, crossed = [], []
    start = DECK.card(sheet.start_card).shape
    game.apply(0, DrawPatch(sheet.start_card, rng.choice(Quilt().placements(start)).cells))
    while not game.is_over():
        offer = game.offer()
        if offer.phase in (Phase.TURN, Phase.FINAL):
            cards = list(offer.choices) or [offer.current] * 3 + (list(offer.neighbours) if specials else [])
            card = rng.choice(cards)
            shape = DECK.card(card).shape
            cut = specials and rng.random() < 0.2 and bool(shape.cut_pieces())
            if cut:
                shape = rng.choice(shape.cut_pieces())
            places = sheet.quilt.placements(shape)
            if places and rng.random() < 0.9:
                with contextlib.suppress(IllegalAction):  # a special already used: this turn is a pass
                    game.apply(0, DrawPatch(card, rng.choice(places).cells, cut))
        empty = [(r, c) for r in range(9) for c in range(9) if not sheet.quilt.is_covered(r, c)]
        if specials and empty and rng.random() < 0.1:
            with contextlib.suppress(IllegalAction):
                game.apply(0, SingleSquare(rng.choice(empty)))
        scoring = offer.phase == Phase.SCORING
        if scoring:
            quilts.append(sheet.quilt)
            crossed.append(frozenset(s.value for s in sheet.crossed_off()))
        game.apply(0, EndTurn())
    return quilts, crossed


def _cards(seed: int, number: int) -> RoundCards:
    return round_cards(dealt_events(seed, 1, DECK), number, DECK)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_a_quilt_grown_legally_passes_every_check(seed, choices):
    quilts, crossed = play(seed, choices)
    previous = Quilt()
    for number, (quilt, specials) in enumerate(zip(quilts, crossed, strict=True), start=1):
        cards = _cards(seed, number)
        assert quilt_problems(previous, quilt, cards, specials) == []
        added = cells_of(quilt.bits & ~previous.bits)
        assert len(added) <= most_cells(cards, specials)
        assert explain_added(added, cards, specials) != "not explained"
        previous = quilt


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.data())
def test_a_removed_cell_is_named(seed, choices, data):
    quilts, _ = play(seed, choices)
    number = data.draw(st.integers(2, 3))
    previous, quilt = quilts[number - 2], quilts[number - 1]
    gone = data.draw(st.sampled_from(sorted(previous.cells)))
    damaged = Quilt(quilt.bits & ~Quilt.from_cells([gone]).bits)
    assert lost_cells(previous, damaged) == {gone}
    [problem] = quilt_problems(previous, damaged, _cards(seed, number))
    assert problem.cells == {gone} and "read empty now" in problem.message


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.data())
def test_a_cell_no_card_of_the_round_gives_is_named(seed, choices, data):
    """Without specials, a lone added cell (no neighbour among the added cells) is no patch of any card (unless a
    1-cell card was the current card of a turn)."""
    quilts, _ = play(seed, choices, specials=False)
    number = data.draw(st.integers(1, 3))
    cards = _cards(seed, number)
    assume(all(shape.size > 1 for turn in cards.turns for shape in (*turn.choices, turn.current) if shape))
    previous, quilt = (quilts[number - 2] if number > 1 else Quilt()), quilts[number - 1]
    added = cells_of(quilt.bits & ~previous.bits)
    lone = [(r, c) for r in range(9) for c in range(9) if not quilt.is_covered(r, c)
            and not {(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)} & added]
    if not lone:
        return
    extra = data.draw(st.sampled_from(lone))
    damaged = quilt.place([extra])
    [problem] = quilt_problems(previous, damaged, cards, frozenset())
    assert extra in problem.cells and f"added in round {number}" in problem.message


def test_the_search_tells_cut_pieces_neighbours_and_singles_apart():
    l_tromino, domino = Polyomino.from_text("##/#."), Polyomino.from_text("##")
    cards = RoundCards(1, (TurnCards(l_tromino, (domino, domino)),))
    three = {(0, 0), (0, 1), (1, 0)}
    assert explain_added(three, cards, frozenset()) == "explained"
    assert explain_added({(0, 0), (0, 1)}, cards, frozenset()) == "not explained"  # a domino: neighbour or cut
    assert explain_added({(0, 0), (0, 1)}, cards, {"cut"}) == "explained"
    assert explain_added({(0, 0), (0, 1)}, cards, {"neighbour"}) == "explained"
    assert explain_added(three | {(5, 5)}, cards, {"single"}) == "explained"
    assert explain_added(three | {(5, 5), (7, 7)}, cards, {"single"}) == "not explained"
    assert explain_added(three | {(5, 5), (7, 7)}, cards, {"single", "twice"}) == "explained"
    assert most_cells(cards, frozenset()) == 3 and most_cells(cards, ALL_SPECIALS) == 5


def test_a_search_over_its_budget_is_undecided():
    cards = _cards(7, 2)
    shape = cards.turns[0].current
    added = max((p.cells for p in Quilt().placements(shape)), key=sorted)
    assert explain_added(added, cards, ALL_SPECIALS, node_budget=0) == "undecided"


def test_round_cards_from_a_deal_record_and_its_errors():
    events = dealt_events(3, 2, DECK)
    cards = round_cards(events, 1, DECK)
    assert len(cards.turns) == 6 and len(cards.start) == 2
    assert cards.turns[0].current == DECK.card(events[1]["card"]).shape
    final = round_cards(events, 3, DECK).turns[-1]
    assert final.current is None and len(final.choices) == 3
    with pytest.raises(CardsError, match="round 4 does not exist"):
        round_cards(events, 4, DECK)
    with pytest.raises(CardsError, match="does not have"):
        round_cards([{**e, "card": "X99"} if e["event"] == "turn" else e for e in events], 1, DECK)
    with pytest.raises(CardsError, match="turns of round 2"):
        round_cards(events[:10], 2, DECK)
