"""`DoodleGame.legal_draws`: the engine's one answer to "what may this player draw now", checked against the rules
engine itself (every draw it lists is accepted, every draw on offer that it leaves out is refused) over whole
random games played through it, in the spirit of OpenSpiel's random_sim_test."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doodle.game import DoodleGame, DrawPatch, EndTurn, IllegalAction, Phase, SingleSquare, Special
from doodle.game.draws import PASS, CardRole, Draw
from doodle.game.sheet import Sheet, Uses
from doodle.quilt import FULL, Quilt, cells_of


def oracle_draws(game: DoodleGame, player: int) -> set[tuple[str, CardRole, object, bool]]:
    """What the sheet itself accepts now, found by trying: each card on offer, whole and as each cut piece, at one
    place where it fits, on a copy of the sheet. (card, role, canonical shape, cut) of each accepted draw."""
    sheet = game.sheets[player]
    offer = game.offer()
    if offer.phase == Phase.FINAL:
        cards = [(card, CardRole.CHOICE) for card in offer.choices]
    else:
        cards = [(offer.current, CardRole.CURRENT), *zip(offer.neighbours, (CardRole.BEFORE, CardRole.AFTER),
                                                         strict=True)]
    accepted = set()
    for card, role in cards:
        shape = game.deck.card(card).shape
        for piece, cut in [(shape, False), *((piece, True) for piece in shape.cut_pieces())]:
            placements = sheet.quilt.placements(piece)
            if not placements:
                continue
            trial = copy.deepcopy(sheet)
            try:
                trial.apply(DrawPatch(card, placements[0].cells, cut), offer, game.deck)
            except IllegalAction:
                continue
            accepted.add((card, role, piece.canonical(), cut))
    return accepted


def play_through_legal_draws(players: int, seed: int, rng: random.Random, check: bool = True) -> DoodleGame:
    """A whole game where every player picks at random among `legal_draws` (and sometimes a single square)."""
    game = DoodleGame.new(players, seed)
    while not game.is_over():
        for player in game.waiting_for():
            sheet = game.sheets[player]
            draws = game.legal_draws(player)
            if sheet.needs_start():
                assert draws == [Draw(sheet.start_card, CardRole.START, game.deck.card(sheet.start_card).shape)]
                game.apply(player, draws[0].action(rng.choice(sheet.quilt.placements(draws[0].shape)).cells))
                continue
            if game.phase == Phase.SCORING:
                assert draws == []
            else:
                assert draws[-1] == PASS and PASS not in draws[:-1]
                found = [draw for draw in draws if isinstance(draw, Draw)]
                if check:
                    listed = {(d.card, d.role, d.shape.canonical(), d.cut) for d in found}
                    assert listed == oracle_draws(game, player)
                    assert len(listed) == len(found)  # no draw listed twice
                    for draw in found:  # what each spends is what the sheet crosses off
                        assert sheet.spent.spend_all(draw.spends) is not None
                choice = rng.choice(draws)
                if isinstance(choice, Draw):
                    before = sheet.spent
                    cells = rng.choice(sheet.quilt.placements(choice.shape)).cells
                    game.apply(player, choice.action(cells))
                    assert sheet.spent == before.spend_all(choice.spends)
                    assert game.legal_draws(player) == [PASS]
            if sheet.can_use(Special.SINGLE) and sheet.quilt.empty_count() and rng.random() < 0.15:
                free = sorted(cells_of(~sheet.quilt.bits & FULL))
                game.apply(player, SingleSquare(rng.choice(free)))
            game.apply(player, EndTurn())
            assert game.legal_draws(player) in ([], [Draw(sheet.start_card, CardRole.START,
                                                          game.deck.card(sheet.start_card).shape)]) or \
                player in game.waiting_for()
    return game


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(0, 10**6), st.integers(0, 10**6))
def test_random_games_through_legal_draws(players: int, seed: int, choice_seed: int) -> None:
    game = play_through_legal_draws(players, seed, random.Random(choice_seed))
    assert game.is_over() and all(game.legal_draws(p) == [] for p in range(players))
    replayed = DoodleGame.replay(game.to_record())
    assert replayed.totals() == game.totals()
    for sheet in game.sheets:
        assert sheet.spent.allowed() and len(sheet.round_scores) == 3


def test_legal_draws_in_each_phase() -> None:
    game = DoodleGame.new(1, seed=4)
    sheet = game.sheets[0]
    (start,) = game.legal_draws(0)
    assert start.role == CardRole.START and start.spends == ()
    game.apply(0, start.action(sheet.quilt.placements(start.shape)[0].cells))
    draws = game.legal_draws(0)
    offer = game.offer()
    assert [(d.card, d.role) for d in draws if isinstance(d, Draw) and not d.cut][:3] == [
        (offer.current, CardRole.CURRENT), (offer.neighbours[0], CardRole.BEFORE),
        (offer.neighbours[1], CardRole.AFTER)]
    assert {d.spends for d in draws if isinstance(d, Draw)} == {
        (), (Special.NEIGHBOUR,), (Special.CUT,), (Special.NEIGHBOUR, Special.CUT)}
    game.apply(0, EndTurn())  # a pass
    while game.phase != Phase.SCORING:
        game.apply(0, EndTurn())
    assert game.legal_draws(0) == []
    with pytest.raises(IllegalAction, match="no player 1"):
        game.legal_draws(1)


def _nearly_full_game() -> tuple[DoodleGame, Draw]:
    """A game on a turn where only one cell is empty, the current card has no 1-cell piece, and a neighbour has
    one (found over seeds)."""
    for seed in range(500):
        game = DoodleGame.new(1, seed)
        sheet = game.sheets[0]
        start = game.legal_draws(0)[0]
        game.apply(0, start.action(sheet.quilt.placements(start.shape)[0].cells))
        offer = game.offer()
        current = game.deck.card(offer.current).shape
        shapes = [game.deck.card(card).shape for card in offer.neighbours]
        if current.size == 1 or any(piece.size == 1 for piece in current.cut_pieces()) or \
                any(shape.size == 1 for shape in shapes):
            continue
        for card in offer.neighbours:
            shape = game.deck.card(card).shape
            if any(piece.size == 1 for piece in shape.cut_pieces()):
                sheet.quilt = Quilt(FULL & ~1)  # only a1 empty
                neighbour_cut = next(d for d in game.legal_draws(0)
                                     if isinstance(d, Draw) and d.card == card and d.cut)
                return game, neighbour_cut
    raise AssertionError("no such seed")


def test_neighbour_and_cut_together_are_listed_only_when_twice_allows_both() -> None:
    game, neighbour_cut = _nearly_full_game()
    assert neighbour_cut.spends == (Special.NEIGHBOUR, Special.CUT)
    sheet = game.sheets[0]
    sheet.uses.update({Special.NEIGHBOUR: 1, Special.CUT: 1})  # both used once, Twice left: only one can repeat
    assert game.legal_draws(0) == [PASS]
    with pytest.raises(IllegalAction, match="twice can repeat only one"):
        game.apply(0, neighbour_cut.action({(0, 0)}))
    sheet.uses.update({Special.CUT: 0})  # neighbour repeats through Twice, cut is fresh: allowed
    assert neighbour_cut in game.legal_draws(0)
    game.apply(0, neighbour_cut.action({(0, 0)}))
    assert sheet.spent == Uses(2, 0, 1) and sheet.quilt.empty_count() == 0


def test_uses_follow_the_sheet_rule() -> None:
    """Every uses state the sheet can show: what `can_use` allows is what one more cross-off keeps legal."""
    for n in range(3):
        for s in range(3):
            for c in range(3):
                uses = Uses(n, s, c)
                if not uses.allowed():
                    assert sum(v == 2 for v in uses) > 1
                    continue
                sheet = Sheet("S1", uses=dict(zip((Special.NEIGHBOUR, Special.SINGLE, Special.CUT), uses,
                                                  strict=True)))
                assert sheet.spent == uses
                assert sheet.can_use(Special.TWICE) == (max(uses) < 2)
                for special, count in zip((Special.NEIGHBOUR, Special.SINGLE, Special.CUT), uses, strict=True):
                    others_twice = any(v == 2 for k, v in sheet.uses.items() if k != special)
                    expected = count == 0 or (count == 1 and not others_twice)
                    assert sheet.can_use(special) == expected
