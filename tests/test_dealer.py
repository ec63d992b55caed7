from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doodle.game.dealer import Dealer, DealerError, Phase
from doodle.game.table import table_events


def play_out(dealer: Dealer) -> list[dict]:
    return list(table_events(dealer))


@given(st.integers(1, 6), st.integers(0, 2**32))
def test_deal_invariants(players, seed):
    dealer = Dealer.new(players, seed)
    events = play_out(dealer)
    setup = events[0]
    assert setup["event"] == "setup" and len(setup["circle"]) == 8
    assert len(set(setup["start_cards"])) == players
    turns = [e for e in events if e["event"] == "turn"]
    assert len(turns) == 18
    seen = set()
    previous_circle = None
    for event in events[1:]:
        if event["event"] == "round":
            # the two cards left come next after the token, then six new ones
            assert event["circle"][:2] == previous_circle and len(event["circle"]) == 8
            assert not set(event["circle"][2:]) & seen
            previous_circle = None
            continue
        if event["event"] != "turn":
            continue
        circle = event["circle"]
        assert len(circle) == 8 - (event["turn"] - 1)
        if previous_circle is not None:
            assert circle == previous_circle
        if event["roll"] is None:
            assert (event["round"], event["turn"]) == (3, 6) and event["choices"] == circle and len(circle) == 3
            seen.update(circle)
            continue
        assert event["roll"] in (1, 2, 3)
        # the token moves clockwise onto the card it lands on
        index = event["roll"] - 1
        assert event["card"] == circle[index]
        assert event["neighbours"] == [circle[index - 1], circle[(index + 1) % len(circle)]]
        seen.update(circle)
        # the token stays in the gap the discarded card left
        previous_circle = circle[index + 1 :] + circle[:index]
        if event["turn"] == 6:
            assert len(previous_circle) == 2
    assert len(seen) == 20


def test_same_seed_same_game_and_seeds_differ():
    assert play_out(Dealer.new(3, 42)) == play_out(Dealer.new(3, 42))
    assert play_out(Dealer.new(3, 42)) != play_out(Dealer.new(3, 43))


def test_die_is_fair():
    dealer = Dealer.new(1, 0)
    assert dealer.chance_outcomes() == [(1, Fraction(1, 3)), (2, Fraction(1, 3)), (3, Fraction(1, 3))]
    counts = Counter(e["roll"] for seed in range(400) for e in play_out(Dealer.new(1, seed)) if e.get("roll"))
    total = sum(counts.values())
    assert set(counts) == {1, 2, 3}
    for face in (1, 2, 3):  # 6800 rolls: a fair die lands each face within 4% of 1/3 (over 8 sigma)
        assert abs(counts[face] / total - 1 / 3) < 0.04


def test_token_gap_is_random():
    first_cards = {Dealer.new(1, seed).token_gap for seed in range(200)}
    assert first_cards == set(range(8))


def test_phases_are_enforced():
    dealer = Dealer.new(2, 1)
    with pytest.raises(DealerError):
        dealer.end_turn()
    with pytest.raises(ValueError):
        dealer.roll(4)
    dealer.roll(2)
    with pytest.raises(DealerError):
        dealer.roll()
    assert dealer.phase == Phase.TURN


@pytest.mark.parametrize("players", [0, 7])
def test_player_count_limits(players):
    with pytest.raises(ValueError, match="1 to 6 players"):
        Dealer.new(players)
