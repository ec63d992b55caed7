"""Bad input to the Patchwork Doodle engine gets its documented error, never a TypeError or AttributeError: ill-typed
players and actions (fuzzed), errors under one root, and faces (repr) that say what a thing is in one line."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doodle.game import DealerError, DoodleGame, DrawPatch, EndTurn, IllegalAction, Phase, RecordError, SingleSquare
from doodle.game.bots import get_bot
from doodle.game.dealer import Dealer
from doodle.game.deck import DeckError
from doodle.game.errors import GameError
from doodle.game.sheet import action_from_json
from doodle.quilt import PlacementError, Quilt

junk = st.one_of(st.none(), st.booleans(), st.integers(-10, 100), st.floats(allow_nan=True), st.text(max_size=3),
                 st.binary(max_size=2), st.just(object()), st.lists(st.integers(0, 8), max_size=3))
cells = st.one_of(st.tuples(st.integers(-2, 10), st.integers(-2, 10)), st.tuples(junk, junk), junk,
                  st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(0, 8)))


@st.composite
def actions(draw, game: DoodleGame) -> object:
    offer = game.offer()
    cards = [game.sheets[0].start_card, *(c for c in (offer.current, *offer.neighbours, *offer.choices) if c)]
    card = draw(st.one_of(st.sampled_from(cards), junk))
    kind = draw(st.sampled_from(["draw", "single", "end", "junk"]))
    if kind == "draw":
        collection = draw(st.sampled_from([frozenset, list, tuple, set, lambda xs: xs[0] if xs else None]))
        shown = draw(st.lists(st.one_of(cells, st.tuples(st.integers(0, 8), st.integers(0, 8))), max_size=6))
        try:
            cell_set = collection(shown)
        except TypeError:  # an unhashable cell in a set: the caller cannot even build it
            cell_set = tuple(shown)
        return DrawPatch(card, cell_set, draw(st.one_of(st.booleans(), junk)))
    if kind == "single":
        return SingleSquare(draw(cells))
    if kind == "end":
        return EndTurn()
    return draw(junk)


@settings(max_examples=100, deadline=None)
@given(st.data(), st.integers(0, 10**6), st.integers(0, 3))
def test_ill_typed_input_to_apply_is_an_illegal_action(data, seed: int, advance: int) -> None:
    game = DoodleGame.new(1, seed)
    if advance:  # also on a turn, not only at the start
        start = game.legal_draws(0)[0]
        game.apply(0, start.action(game.sheets[0].quilt.placements(start.shape)[0].cells))
        for _ in range(advance - 1):
            game.apply(0, EndTurn())
    player = data.draw(st.one_of(st.just(0), junk), label="player")
    for _ in range(4):
        action = data.draw(actions(game), label="action")
        with contextlib.suppress(IllegalAction):  # anything else fails the test
            game.apply(player, action)  # type: ignore[arg-type]
        if game.is_over():
            break
    replayed = DoodleGame.replay(game.to_record())  # whatever was accepted is logged so that it replays
    assert replayed.sheets[0].quilt == game.sheets[0].quilt


@pytest.mark.parametrize("player", [None, "0", 0.0, True, -1, 1, [0]])
def test_a_player_that_is_not_one_is_named(player: object) -> None:
    game = DoodleGame.new(1, 3)
    with pytest.raises(IllegalAction, match="there is no player"):
        game.apply(player, EndTurn())  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="there is no player"):
        game.legal_draws(player)  # type: ignore[arg-type]


@pytest.mark.parametrize(("action", "words"), [
    (SingleSquare(5), "not a cell: 5"),  # type: ignore[arg-type]
    (SingleSquare((None, 1)), "not a cell: (None, 1)"),  # type: ignore[arg-type]
    (SingleSquare(("1", "2")), "not a cell"),  # type: ignore[arg-type]
    (DrawPatch("S1", frozenset({(0, None)})), "not a cell"),  # type: ignore[arg-type]
    (DrawPatch("S1", "a1"), "not a set of cells"),  # type: ignore[arg-type]
    (DrawPatch("S1", None), "not a set of cells"),  # type: ignore[arg-type]
    (DrawPatch(None, frozenset()), "not a card"),  # type: ignore[arg-type]
    (DrawPatch("S1", frozenset(), "yes"), "cut must be True or False"),  # type: ignore[arg-type]
    (None, "not an action"),
    ("end", "not an action"),
])
def test_ill_typed_actions_say_what_is_wrong(action: object, words: str) -> None:
    game = DoodleGame.new(1, 3)
    start = game.legal_draws(0)[0]
    game.apply(0, start.action(game.sheets[0].quilt.placements(start.shape)[0].cells))
    before = game.to_record()
    with pytest.raises(IllegalAction, match=words.replace("(", r"\(").replace(")", r"\)")):
        game.apply(0, action)  # type: ignore[arg-type]
    assert game.to_record() == before  # nothing changed, nothing logged


def test_every_error_of_the_game_package_has_one_root_and_is_a_value_error() -> None:
    for error in (DealerError, IllegalAction, RecordError, DeckError):
        assert issubclass(error, GameError) and issubclass(error, ValueError)
    dealer = Dealer.new(1, 3)
    with pytest.raises(DealerError, match="the table is in the roll phase, not turn"):
        dealer.neighbours()
    with pytest.raises(DealerError, match="the die shows 1, 2 or 3, not 7"):
        dealer.roll(7)
    for face in (1.0, True, "1"):  # equal to a face, or like one, but not a face
        with pytest.raises(DealerError, match="the die shows 1, 2 or 3"):
            dealer.roll(face)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="unknown action type 'jump'"):
        action_from_json({"type": "jump"})
    with pytest.raises(RecordError, match="malformed action"):
        action_from_json({"type": "single", "cell": 5})
    with pytest.raises(GameError, match="unknown bot 'nope': choose one of greedy, expert"):
        get_bot("nope")
    for players in (0, 7, "2", None, True):
        with pytest.raises(DealerError, match="is for 1 to 6 players"):
            DoodleGame.new(players)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="2 names given for 1 players"):
        DoodleGame.new(1, 3, names=["a", "b"])
    for names in ("Ann", 5, [None], ["Ann", 2]):
        with pytest.raises(GameError, match="names are a list of strings"):
            DoodleGame.new(len(names) if isinstance(names, list) else 1, 3, names=names)  # type: ignore[arg-type]
    for seed in (1.5, "7", True):  # a seed the record could not replay
        with pytest.raises(DealerError, match="a seed is a whole number"):
            DoodleGame.new(1, seed)  # type: ignore[arg-type]


def test_a_game_and_its_dealer_say_what_they_are_in_one_line() -> None:
    game = DoodleGame.new(2, 17)
    assert repr(game) == "<DoodleGame seed=17 players=2 round 1 turn 1 phase=roll>"
    assert repr(game.dealer) == "<Dealer seed=17 players=2 round 1 turn 1 phase=roll>"
    game.dealer.roll(2)
    assert game.phase == Phase.TURN and "phase=turn" in repr(game) and "\n" not in repr(game)


def test_a_quilts_repr_makes_the_quilt_again() -> None:
    quilt = Quilt.from_cells([(0, 0), (0, 1), (8, 8), (4, 2)])
    text = repr(quilt)
    assert text.startswith("Quilt.from_rows(['##.......', ") and "\n" not in text
    assert eval(text) == quilt  # noqa: S307 - the point of the test
    assert repr(Quilt()) == "Quilt()" and eval(repr(Quilt())) == Quilt()  # noqa: S307


def test_placement_errors_name_cells_as_players_do() -> None:
    quilt = Quilt.from_cells([(0, 2)])
    with pytest.raises(PlacementError, match=r"^overlap: cell c1 is already covered$"):
        quilt.place([(0, 2), (0, 3)])
    quilt = Quilt.from_cells([(0, 2), (0, 3)])
    with pytest.raises(PlacementError, match=r"^overlap: cells c1, d1 are already covered$"):
        quilt.place([(0, 2), (0, 3), (0, 4)])
    with pytest.raises(PlacementError, match=r"cell \(9, 2\) is off the 9x9 grid"):
        quilt.place([(9, 2)])
