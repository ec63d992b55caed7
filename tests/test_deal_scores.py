"""The dealer's score pad: which typed scores it questions, and the corrections it understands."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doodle.cli.deal_scores import EMPTY, Entry, ScorePad, parse_entry
from doodle.quilt import MAX_ROUND_SCORE, POSSIBLE_ROUND_SCORES, SIZE, Quilt

scores = st.sampled_from(sorted(POSSIBLE_ROUND_SCORES))


@given(st.lists(scores, min_size=3, max_size=3).map(sorted))
def test_growing_possible_scores_raise_no_doubt(rounds):
    pad = ScorePad(["Ann"])
    for number, score in enumerate(rounds, start=1):
        assert pad.doubt("Ann", number, score) is None
        pad.rounds["Ann"][number - 1] = score


@given(st.integers(0, MAX_ROUND_SCORE))
def test_a_score_is_questioned_exactly_when_no_rectangle_makes_it(score):
    doubt = ScorePad(["Ann"]).doubt("Ann", 1, score)
    assert (doubt is None) == (score in POSSIBLE_ROUND_SCORES)
    # and a possible score is one a real quilt gives: a full quilt of some rectangle
    if doubt is None and score:
        assert any(Quilt.from_text("\n".join("#" * w + "." * (SIZE - w) if r < h else "." * SIZE
                                             for r in range(SIZE))).best_rectangle().score == score
                   for h in range(1, SIZE + 1) for w in range(1, SIZE + 1))


@given(st.integers(1, 3), st.integers(1, 3), scores, scores)
def test_a_round_lower_than_an_earlier_one_is_questioned_naming_both(first, second, a, b):
    pad = ScorePad(["Ann"])
    pad.rounds["Ann"][first - 1] = a
    doubt = pad.doubt("Ann", second, b)
    shrinks = (second > first and b < a) or (second < first and b > a)
    assert (doubt is not None) == shrinks
    if shrinks:
        (earlier, high), (later, low) = sorted([(first, a), (second, b)])
        assert f"round {later} score {low} is lower than round {earlier}'s {high}" in doubt


def test_totals_and_winners_wait_for_every_score():
    pad = ScorePad(["Ann", "Bob"])
    pad.rounds["Ann"] = [10, 20, 36]
    pad.rounds["Bob"] = [10, 20, 36]
    pad.empty["Ann"] = 3
    assert pad.total("Ann") == 63 and pad.total("Bob") is None and pad.winners() is None
    assert pad.missing("Bob") == ["empty cells"] and pad.missing("Bob", 2, final=False) == []
    pad.empty["Bob"] = 3
    assert pad.winners() == (["Ann", "Bob"], 63)


@pytest.mark.parametrize(("text", "entry"), [
    ("Ann 2 35", Entry("Ann", 2, 35)),
    ("  ann   1  0 ", Entry("Ann", 1, 0)),
    ("Player 2 1 17", Entry("Player 2", 1, 17)),
    ("2 1 17", Entry("Player 2", 1, 17)),
    ("Ann empty 4", Entry("Ann", EMPTY, 4)),
    ("Ann e 81", Entry("Ann", EMPTY, 81)),
    ("Ann 2 ?", Entry("Ann", 2, None)),
])
def test_corrections_people_type(text, entry):
    pad = ScorePad(["Ann", "Player 2"])
    assert parse_entry(text, pad, scored=3, final=True) == entry


@pytest.mark.parametrize("text", ["Ann 2 82", "Ann 4 3", "Ann 0 3", "Ann empty 82", "Ann 2 -1", "Ann 2 ³", "Zed 1 1",
                                  "3 1 1", "Ann 2"])
def test_corrections_that_cannot_be_right(text):
    with pytest.raises(ValueError):
        parse_entry(text, ScorePad(["Ann", "Player 2"]), scored=3, final=True)
