import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doodle.game import DoodleGame, DrawPatch, EndTurn, IllegalAction, Phase, RecordError, SingleSquare, Special
from doodle.geometry import Polyomino


def place_start(game: DoodleGame) -> None:
    for player, sheet in enumerate(game.sheets):
        shape = game.deck.card(sheet.start_card).shape
        game.apply(player, DrawPatch(sheet.start_card, game.sheets[player].quilt.placements(shape)[0].cells))


def random_game(players: int, seed: int, rng: random.Random) -> DoodleGame:
    """Everyone plays random legal actions, specials included."""
    game = DoodleGame.new(players, seed)
    while not game.is_over():
        for player in game.waiting_for():
            sheet = game.sheets[player]
            offer = game.offer()
            if sheet.needs_start():
                shape = game.deck.card(sheet.start_card).shape
                game.apply(player, DrawPatch(sheet.start_card, rng.choice(sheet.quilt.placements(shape)).cells))
                continue
            if offer.phase in (Phase.TURN, Phase.FINAL):
                options = [(offer.current, False)] if offer.current else [(c, False) for c in offer.choices]
                if offer.neighbours and sheet.can_use(Special.NEIGHBOUR) and rng.random() < 0.2:
                    options = [(rng.choice(offer.neighbours), False)]
                card, _ = rng.choice(options)
                shape = game.deck.card(card).shape
                cut = bool(sheet.can_use(Special.CUT) and shape.cut_pieces() and rng.random() < 0.15)
                if cut:
                    shape = rng.choice(shape.cut_pieces())
                placements = sheet.quilt.placements(shape)
                if placements and rng.random() < 0.9:
                    try:
                        game.apply(player, DrawPatch(card, rng.choice(placements).cells, cut))
                    except IllegalAction as error:  # only neighbour + cut both needing Twice may be refused
                        assert "twice can repeat only one" in str(error)
            if sheet.can_use(Special.SINGLE) and sheet.quilt.empty_count() and rng.random() < 0.1:
                game.apply(player, SingleSquare(rng.choice(sorted(set(
                    (r, c) for r in range(9) for c in range(9)) - sheet.quilt.cells))))
            game.apply(player, EndTurn())
    return game


@given(st.integers(1, 4), st.integers(0, 10**6), st.integers(0, 10**6))
def test_random_games_replay_and_score(players, seed, choice_seed):
    game = random_game(players, seed, random.Random(choice_seed))
    record = game.to_record()
    replayed = DoodleGame.replay(record)
    assert replayed.totals() == game.totals() and replayed.is_over()
    assert [s.quilt for s in replayed.sheets] == [s.quilt for s in game.sheets]
    for sheet in game.sheets:
        assert len(sheet.round_scores) == 3
        assert sheet.total() == sum(sheet.round_scores) - sheet.quilt.empty_count()
        assert sheet.round_scores[-1] == sheet.quilt.score_rectangle()
        assert sum(sheet.uses.values()) <= 4 and sum(v >= 2 for v in sheet.uses.values()) <= 1
    best = max(game.totals())
    assert game.winners() == [i for i, t in enumerate(game.totals()) if t == best]


def test_record_that_does_not_replay_is_refused():
    game = random_game(1, 5, random.Random(1))
    record = game.to_record()
    record["log"][1]["roll"] = 4 - record["log"][1]["roll"] if record["log"][1]["roll"] != 2 else 1
    with pytest.raises(RecordError, match="rolls"):
        DoodleGame.replay(record)
    with pytest.raises(RecordError):
        DoodleGame.replay({"format": "doodle-game/1", "seed": 1})
    with pytest.raises(RecordError, match="not a doodle-game/1"):
        DoodleGame.replay({"format": "chess"})
    record = game.to_record()
    record["log"][1]["roll"] = str(record["log"][1]["roll"])  # the right face, written as text
    with pytest.raises(RecordError, match=r"a roll in the record is '\d', not a die face"):
        DoodleGame.replay(record)


def started_game(seed: int = 3) -> DoodleGame:
    game = DoodleGame.new(1, seed)
    place_start(game)
    assert game.phase == Phase.TURN
    return game


def test_start_card_comes_first():
    game = DoodleGame.new(1, 3)
    with pytest.raises(IllegalAction, match="start card"):
        game.apply(0, EndTurn())
    assert game.phase == Phase.ROLL


def test_illegal_actions_name_their_reason():
    game = started_game()
    sheet, offer = game.sheets[0], game.offer()
    current = game.deck.card(offer.current).shape
    covered = next(iter(sheet.quilt.cells))
    with pytest.raises(IllegalAction, match="overlap"):
        placement = next(p for p in sheet.quilt.placements(current))
        shifted = {(r - min(r for r, _ in placement.cells) + covered[0], c - min(c for _, c in placement.cells)
                    + covered[1]) for r, c in placement.cells}
        game.apply(0, DrawPatch(offer.current, frozenset(shifted)))
    with pytest.raises(IllegalAction, match="off the 9x9 grid"):
        game.apply(0, DrawPatch(offer.current, frozenset((r + 8, c + 8) for r, c in current.cells)))
    other = next(c.id for c in game.deck.patch_cards if c.id not in (offer.current, *offer.neighbours))
    with pytest.raises(IllegalAction, match="not the current card"):
        game.apply(0, DrawPatch(other, frozenset(Polyomino.from_text("#").cells)))
    with pytest.raises(IllegalAction, match="wrong shape"):
        game.apply(0, DrawPatch(offer.current, frozenset({(8, 8)})))
    assert game.sheets[0].quilt == sheet.quilt and game.sheets[0].uses[Special.NEIGHBOUR] == 0


def test_specials_once_each_and_twice():
    game = started_game()
    empty = sorted(set((r, c) for r in range(9) for c in range(9)) - game.sheets[0].quilt.cells)
    game.apply(0, SingleSquare(empty[0]))
    assert game.sheets[0].crossed_off() == [Special.SINGLE]
    game.apply(0, SingleSquare(empty[1]))  # the second use crosses off Twice
    assert game.sheets[0].crossed_off() == [Special.SINGLE, Special.TWICE]
    with pytest.raises(IllegalAction, match="special already used"):
        game.apply(0, SingleSquare(empty[2]))
    with pytest.raises(IllegalAction, match="already covered"):
        started_game().apply(0, SingleSquare(next(iter(game.sheets[0].quilt.cells))))


def test_neighbour_and_cut():
    game = started_game(11)
    offer = game.offer()
    sheet = game.sheets[0]
    neighbour = offer.neighbours[1]
    shape = game.deck.card(neighbour).shape
    if shape.cut_pieces():
        piece = shape.cut_pieces()[0]
        game.apply(0, DrawPatch(neighbour, sheet.quilt.placements(piece)[0].cells, cut=True))
        assert sheet.uses[Special.NEIGHBOUR] == 1 and sheet.uses[Special.CUT] == 1
    else:
        game.apply(0, DrawPatch(neighbour, sheet.quilt.placements(shape)[0].cells))
        assert sheet.uses[Special.NEIGHBOUR] == 1
    with pytest.raises(IllegalAction, match="one patch per turn"):
        game.apply(0, DrawPatch(offer.current, sheet.quilt.placements(game.deck.card(offer.current).shape)[0].cells))
    game.apply(0, EndTurn())
    with pytest.raises(IllegalAction, match="not a cut piece"):
        offer = game.offer()
        whole = game.deck.card(offer.current).shape
        game.apply(0, DrawPatch(offer.current, sheet.quilt.placements(whole)[0].cells, cut=True))


def test_single_square_during_scoring_counts():
    game = started_game(2)
    while game.phase != Phase.SCORING:
        game.apply(0, EndTurn())
    sheet = game.sheets[0]
    before = sheet.quilt.score_rectangle()
    with pytest.raises(IllegalAction, match="no patch is drawn during a scoring"):
        game.apply(0, DrawPatch("P01", frozenset({(0, 0)})))
    # one cell next to the best rectangle may grow it
    rect = sheet.quilt.best_rectangle()
    empty = sorted(set((r, c) for r in range(9) for c in range(9)) - sheet.quilt.cells)
    best_cell = max(empty, key=lambda cell: sheet.quilt.place([cell]).score_rectangle())
    game.apply(0, SingleSquare(best_cell))
    game.apply(0, EndTurn())
    assert sheet.round_scores == [max(before, sheet.quilt.score_rectangle())]
    assert rect is not None and game.phase == Phase.TURN


def test_replay_with_another_deck_names_the_deck():
    from dataclasses import replace

    from doodle.game.deck import load_deck

    record = random_game(1, 5, random.Random(1)).to_record()
    other = replace(load_deck(), name="mine")  # the same cards under another name
    with pytest.raises(RecordError, match="played with the deck 'Patchwork Doodle"):
        DoodleGame.replay(record, other)
