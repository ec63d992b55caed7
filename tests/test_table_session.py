"""The table's state machine: it deals exactly what `doodle deal` deals, refuses what it must without changing
anything, keeps scores until the end, and its save and record replay through the engine."""

import copy
import json

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from doodle.cli import main
from doodle.game.deck import load_deck
from doodle.table.save import check_record, game_record
from doodle.table.session import MAX_NAME, Stage, TableError, TableSession, clean_name

DECK = load_deck()


def dealt(players=3, seed=4, names=("Ann", "Bob", "Cid"), auto_roll=True):
    session = TableSession.new(DECK, players=0, seed=seed, auto_roll=auto_roll)
    for name in names[:players]:
        session.join(name)
    session.start()
    return session


def play_to_the_end(session, score=lambda seat, round_number: 10):
    """Every player done at every turn, every score given, the host moving on from each scoring."""
    while session.stage != Stage.OVER:
        if session.stage == Stage.SCORING:
            for seat in session.seats:
                last = session.round == 3
                session.set_score(seat.id, session.round, score(seat, session.round), 4 if last else None)
            session.advance(session.step)
        elif session.stage == Stage.ROUND:
            session.advance(session.step)
        else:
            for seat in session.seats:
                session.set_done(seat.id, session.step)
            if session.stage in (Stage.START, Stage.TURN, Stage.FINAL) and not session.auto_roll:
                session.advance(session.step)


@pytest.mark.parametrize("players,seed", [(1, 0), (3, 9), (6, 123456789)])
def test_a_table_game_deals_what_doodle_deal_deals(players, seed):
    session = dealt(players, seed, names=("A", "B", "C", "D", "E", "F"))
    play_to_the_end(session)
    output = CliRunner().invoke(main, ["deal", "--auto", "--json", "--players", str(players), "--seed", str(seed)])
    assert output.exit_code == 0
    assert session.events == [json.loads(line) for line in output.output.splitlines()]
    check_record(game_record(session), DECK)


def test_auto_roll_off_waits_for_the_host_and_the_same_game_comes_out():
    manual = dealt(auto_roll=False)
    manual.set_done(manual.seats[0].id, manual.step)
    for seat in manual.seats:
        manual.set_done(seat.id, manual.step)
    assert manual.stage == Stage.START and manual.next_step() == "Roll"
    play_to_the_end(manual)
    automatic = dealt()
    play_to_the_end(automatic)
    assert manual.events == automatic.events


def test_no_page_learns_the_seed_before_the_end():
    session = dealt(seed=424242)
    assert "424242" not in json.dumps(session.table_view())  # with it, anyone could work out every roll to come
    play_to_the_end(session)
    assert session.table_view()["seed"] == 424242  # to deal the same game again


def test_a_late_or_repeated_message_never_acts_on_the_next_step():
    session = dealt()
    step = session.step
    for seat in session.seats:
        session.set_done(seat.id, step)
    assert session.stage == Stage.TURN and session.step == step + 1  # the last "done" rolled
    with pytest.raises(TableError, match="moved on"):
        session.set_done(session.seats[0].id, step)
    with pytest.raises(TableError, match="moved on"):
        session.advance(step)
    assert not session.done


def test_scores_are_checked_kept_and_correctable_until_the_end():
    session = dealt(players=2)
    ann, bob = (seat.id for seat in session.seats)
    with pytest.raises(TableError, match="not been scored"):
        session.set_score(ann, 1, 10)
    while session.stage != Stage.SCORING:
        for seat in session.seats:
            session.set_done(seat.id, session.step)
    assert session.next_step() == "Lay out round 2"
    with pytest.raises(TableError, match="no rectangle"):
        session.set_score(ann, 1, 70)  # 66 to 80 are no rectangle's score
    with pytest.raises(TableError, match="after round 3"):
        session.set_score(ann, 1, 10, empty=3)
    session.set_score(ann, 1, 10)
    assert [s.id for s in session.waiting_for()] == [bob]
    session.advance(session.step)  # the host may go on without Bob's score...
    session.set_score(bob, 1, 17, by="host")  # ...and give it later
    play_to_the_end(session, score=lambda seat, r: 20)
    session.set_score(ann, 2, 36)  # a correction after the end
    assert session.totals() == {ann: 10 + 36 + 20 - 4, bob: 17 + 20 + 20 - 4}
    assert session.winners() == [ann]
    session.set_score(bob, 1, 26)
    assert session.winners() == [ann, bob]  # a tie is shared


def test_the_lobby():
    session = TableSession.new(DECK, players=2)
    assert [s.name for s in session.seats] == ["Player 1", "Player 2"]
    ann, _ = session.join("  Ann   Lee ")
    assert ann.name == "Ann Lee" and ann is session.seats[0]  # the first phone takes the first laid seat
    with pytest.raises(TableError, match="joined already"):
        session.join("ann lee")
    session.add_player("Gran")
    for name in ("Dan", "Eve", "Fay", "Guy"):
        session.join(name)
    assert [s.name for s in session.seats] == ["Ann Lee", "Dan", "Gran", "Eve", "Fay", "Guy"]
    with pytest.raises(TableError, match="full"):
        session.join("Hal")
    session.remove(session.seats[-1].id)
    with pytest.raises(TableError, match="no such player"):
        session.rename(999, "X")
    session.start()
    assert len(session.dealer.start_cards) == 5
    with pytest.raises(TableError, match="started"):
        session.join("Zed")
    gran = session.join("GRAN")[0]  # after the deal, a phone takes a seat without a phone by its name
    assert gran.name == "GRAN" and gran.has_phone


def test_seats_laid_with_players_are_taken_by_phones_after_the_deal_too():
    session = TableSession.new(DECK, players=2)
    session.start()
    ann, _ = session.join("Ann")
    assert ann is session.seats[0] and ann.name == "Ann"
    bob, _ = session.join("Bob")
    assert [s.name for s in session.seats] == ["Ann", "Bob"]
    with pytest.raises(TableError, match="every seat has a phone"):
        session.join("Cid")


@pytest.mark.parametrize("name", ["", "   ", "x" * (MAX_NAME + 1), "a\x00b", "tab\u200bhidden", 7, None])
def test_bad_names_are_refused(name):
    with pytest.raises(TableError):
        clean_name(name)


ACTIONS = st.lists(st.tuples(
    st.sampled_from(["join", "add", "remove", "rename", "free", "start", "done", "undone", "advance", "score",
                     "auto"]),
    st.integers(0, 7), st.integers(-1, 90), st.booleans()), max_size=80)


@given(ACTIONS, st.integers(0, 10**6))
def test_any_requests_keep_the_deal_the_engines_and_refusals_change_nothing(actions, seed):
    session = TableSession.new(DECK, players=1, seed=seed)
    for kind, who, number, flag in actions:
        seat_id = session.seats[who % len(session.seats)].id if session.seats and who < 6 else who
        step = session.step - (not flag)  # sometimes a stale step
        before = json.dumps(session.to_json(), sort_keys=True)
        try:
            if kind == "join":
                session.join(f"P{number % 9}")
            elif kind == "add":
                session.add_player(f"Q{number % 9}")
            elif kind == "remove":
                session.remove(seat_id)
            elif kind == "rename":
                session.rename(seat_id, f"R{number % 9}")
            elif kind == "free":
                session.free(seat_id)
            elif kind == "start":
                session.start()
            elif kind in ("done", "undone"):
                session.set_done(seat_id, step, kind == "done")
            elif kind == "advance":
                session.advance(step)
            elif kind == "score":
                session.set_score(seat_id, who % 4, number, number if flag else None)
            else:
                session.set_auto_roll(flag)
        except TableError:
            assert json.dumps(session.to_json(), sort_keys=True) == before, kind
        if session.started:
            record = game_record(session)
            check_record(record, DECK)  # every step is the engine's
            again = TableSession.from_json(json.loads(json.dumps(session.to_json())), DECK)
            assert again.table_view() | {"version": 0} == session.table_view() | {"version": 0}


def test_a_tampered_save_or_record_does_not_replay():
    session = dealt()
    play_to_the_end(session)
    record = game_record(session)
    changed = copy.deepcopy(record)
    turn = next(e for e in changed["events"] if e["event"] == "turn")
    turn["roll"] = 1 if turn["roll"] != 1 else 2
    with pytest.raises(ValueError, match="step"):
        check_record(changed, DECK)
    saved = session.to_json()
    saved["events"][3]["circle"].reverse()
    with pytest.raises(ValueError, match="not what seed"):
        TableSession.from_json(saved, DECK)
    saved = session.to_json()
    saved["deck_fingerprint"] = "0" * 12
    with pytest.raises(ValueError, match="another deck"):
        TableSession.from_json(saved, DECK)
