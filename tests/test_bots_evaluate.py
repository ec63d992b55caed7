"""The bots' vectorised judgement agrees with the engine and with brute force on any quilt."""

from __future__ import annotations

import functools
import operator

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from doodle.game.bots.evaluate import best_rectangles, features, final_values
from doodle.game.bots.options import candidates, draw_options
from doodle.game.bots.tables import mask_vector, placement_table
from doodle.game.dealer import Offer, Phase
from doodle.game.deck import load_deck
from doodle.geometry import connected_components
from doodle.quilt import FULL, Quilt, cells_of

QUILTS = st.integers(min_value=0, max_value=FULL).map(Quilt)
DENSE = st.lists(st.integers(min_value=0, max_value=FULL), min_size=2, max_size=3).map(  # the union: fuller quilts
    lambda masks: Quilt(functools.reduce(operator.or_, masks)))
HARDNESS = (3.0, 1.5, 1.0, 0.75)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(QUILTS, DENSE), min_size=1, max_size=6))
def test_best_rectangle_matches_the_engine(quilts: list[Quilt]) -> None:
    empty = np.array([~mask_vector(q.bits) for q in quilts], dtype=np.float32)
    assert best_rectangles(empty, 0).tolist() == [q.score_rectangle() for q in quilts]


@settings(max_examples=40, deadline=None)
@given(st.one_of(QUILTS, DENSE), st.integers(min_value=0, max_value=2))
def test_final_value_is_the_best_use_of_the_single_squares_left(quilt: Quilt, singles: int) -> None:
    uses = (0, 2 - singles, 0) if singles < 2 else (0, 0, 0)  # (0, 0, 0) allows two (with Twice)
    got = final_values(mask_vector(quilt.bits).reshape(1, -1), [uses])[0]
    empties = sorted(cells_of(~quilt.bits & FULL))
    best = quilt.score_rectangle() - quilt.empty_count()
    for i, first in enumerate(empties if singles else []):
        one = quilt.place([first])
        best = max(best, one.score_rectangle() - one.empty_count())
        for second in empties[i + 1 :] if singles == 2 else []:
            two = one.place([second])
            best = max(best, two.score_rectangle() - two.empty_count())
    assert got == best


@settings(max_examples=60, deadline=None)
@given(st.one_of(QUILTS, DENSE))
def test_pocket_hardness_follows_the_size_of_each_empty_area(quilt: Quilt) -> None:
    f = features(mask_vector(quilt.bits).reshape(1, -1), HARDNESS, pocket_size=3)
    empty = cells_of(~quilt.bits & FULL)
    expected_hardness = np.zeros(81, dtype=np.float32)
    expected_pockets = np.zeros(81, dtype=np.float32)
    for area in connected_components(empty):
        for r, c in area:
            if len(area) <= len(HARDNESS):
                expected_hardness[r * 9 + c] = HARDNESS[len(area) - 1]
            if len(area) <= 3:
                expected_pockets[r * 9 + c] = 1 / len(area)
    assert np.allclose(f.hardness[0], expected_hardness)
    assert np.allclose(f.pockets[0], expected_pockets)
    assert f.empty_count[0] == quilt.empty_count()
    # the perimeter of the empty area: its cells' sides that face a covered cell or the border
    sides = sum((nr, nc) not in empty for r, c in empty for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))
    assert f.perimeter[0] == sides


@settings(max_examples=40, deadline=None)
@given(st.one_of(QUILTS, DENSE), st.sampled_from([c.id for c in load_deck().patch_cards]))
def test_candidates_are_exactly_the_legal_non_overlapping_placements(quilt: Quilt, card: str) -> None:
    deck = load_deck()
    offer = Offer(Phase.TURN, 1, 1, card, ())
    options = draw_options(offer, deck, (0, 0, 0), neighbour=False, cut=False)
    cands = candidates(quilt.bits, mask_vector(quilt.bits), options, (0, 0, 0))
    shape = deck.card(card).shape
    legal = {p.mask for p in quilt.placements(shape)}
    drawn = [m for m, i in zip(cands.masks, cands.option_index, strict=True) if cands.options[i] is not None]
    assert sorted(drawn) == sorted(legal) and all(not m & quilt.bits for m in drawn)
    assert len(placement_table(shape).masks) == len({p.mask for p in Quilt().placements(shape)})
    for row, mask in enumerate(cands.masks):
        assert np.array_equal(cands.after[row], mask_vector(quilt.bits | mask))
