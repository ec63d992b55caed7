"""The bots play only legal moves through the rules engine, from any position, and their games score right."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doodle.game import DoodleGame, DrawPatch, EndTurn, Phase, SingleSquare
from doodle.game.bots import BOT_NAMES, get_bot, play_solo
from doodle.game.bots.options import draw_options, singles_left
from doodle.game.deck import parse_deck
from doodle.game.sheet import Uses
from doodle.quilt import Quilt

SEEDS = st.integers(min_value=0, max_value=10**9)
SLOW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_position(seed: int, steps: int) -> DoodleGame:
    """A game played `steps` decisions in by random legal moves (draws, passes, specials, single squares)."""
    rng = random.Random(seed)
    game = DoodleGame.new(1, seed)
    for _ in range(steps):
        if game.is_over():
            break
        sheet = game.sheets[0]
        if sheet.needs_start():
            shape = game.deck.card(sheet.start_card).shape
            placement = rng.choice(sheet.quilt.placements(shape))
            game.apply(0, DrawPatch(sheet.start_card, placement.cells))
            continue
        if singles_left(sheet.spent) and rng.random() < 0.1:
            empty = [(r, c) for r in range(9) for c in range(9) if not sheet.quilt.is_covered(r, c)]
            if empty:
                game.apply(0, SingleSquare(rng.choice(empty)))
        if game.phase in (Phase.TURN, Phase.FINAL) and rng.random() < 0.9:
            options = draw_options(game.offer(), game.deck, sheet.spent)
            rng.shuffle(options)
            for option in options:
                spots = sheet.quilt.placements(option.shape)
                if spots:
                    game.apply(0, DrawPatch(option.card, rng.choice(spots).cells, option.cut))
                    break
        game.apply(0, EndTurn())
    return game


def drawn_cells(game: DoodleGame) -> int:
    return sum(len(entry["action"].get("cells", [None] if entry["action"]["type"] == "single" else []))
               for entry in game.log if "action" in entry)


def test_get_bot_knows_every_name_and_refuses_others() -> None:
    for name in BOT_NAMES:
        assert get_bot(name).name == name
    with pytest.raises(ValueError, match="greedy, expert"):
        get_bot("grandmaster")


@SLOW
@given(SEEDS)
def test_greedy_plays_whole_legal_games_that_score_right(seed: int) -> None:
    game = play_solo(get_bot("greedy"), seed)  # game.apply refuses any illegal action
    sheet = game.sheets[0]
    assert game.is_over() and len(sheet.round_scores) == 3
    assert sheet.total() == sum(sheet.round_scores) - sheet.quilt.empty_count()
    # no two drawn patches overlap: the covered cells are exactly as many as the cells drawn
    assert sheet.quilt.covered_count() == drawn_cells(game)
    assert sheet.uses == DoodleGame.replay(game.to_record()).sheets[0].uses


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.integers(min_value=0, max_value=30), st.sampled_from(BOT_NAMES))
def test_a_bot_acts_legally_from_any_position(seed: int, steps: int, name: str) -> None:
    game = random_position(seed, steps)
    if game.is_over():
        return
    before = game.sheets[0].quilt
    actions = get_bot(name).act(game, 0)
    assert actions and isinstance(actions[-1], (EndTurn, DrawPatch))
    for action in actions:
        game.apply(0, action)  # raises IllegalAction on anything the rules refuse
    assert game.sheets[0].quilt.bits & before.bits == before.bits  # nothing drawn is ever undone


def random_shape(rng: random.Random, size: int) -> str:
    """A random connected shape of `size` cells, as deck text ("#.#/###")."""
    cells = {(0, 0)}
    while len(cells) < size:
        r, c = rng.choice(sorted(cells))
        cells.add(rng.choice([(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]))
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    rows = max(r for r, _ in cells) - top + 1
    cols = max(c for _, c in cells) - left + 1
    return "/".join("".join("#" if (top + r, left + c) in cells else "." for c in range(cols)) for r in range(rows))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEEDS, st.sampled_from(BOT_NAMES))
def test_bots_play_legally_with_any_users_deck(seed: int, name: str) -> None:
    rng = random.Random(seed)
    text = f'name = "random"\n[[start]]\nid = "S"\nshape = "{random_shape(rng, 7)}"\n'
    text += "".join(f'[[patch]]\nid = "R{i}"\nshape = "{random_shape(rng, rng.randint(1, 9))}"\n' for i in range(20))
    game = play_solo(get_bot(name), seed, deck=parse_deck(text))
    assert game.is_over() and game.totals()[0] == sum(game.sheets[0].round_scores) - game.sheets[0].quilt.empty_count()


def test_progress_counts_the_eighteen_turns() -> None:
    seen = []
    play_solo(get_bot("greedy"), 11, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(n, 18) for n in range(1, 19)]


def test_spend_follows_the_sheet_rules() -> None:
    assert Uses(0, 0, 0).spend(neighbour=1, cut=1) == (1, 0, 1)
    assert Uses(1, 0, 1).spend(neighbour=1) == (2, 0, 1)  # twice repeats one special
    assert Uses(2, 0, 1).spend(cut=1) is None  # ... only one
    assert Uses(1, 0, 1).spend(neighbour=1, cut=1) is None
    assert singles_left((0, 0, 0)) == 2 and singles_left((2, 1, 0)) == 0 and singles_left((1, 1, 1)) == 1


def scoring_position(round_: int, quilt: Quilt) -> DoodleGame:
    """A solo game at the intermediate scoring of `round_`, with `quilt` drawn and no special used yet."""
    game = DoodleGame.new(1, 5)
    sheet = game.sheets[0]
    sheet.quilt, sheet.start_drawn = quilt, True
    game.dealer.round, game.dealer.turn, game.dealer.phase = round_, 6, Phase.SCORING
    return game


@pytest.mark.parametrize("name", BOT_NAMES)
def test_the_last_scoring_fills_holes_with_the_single_squares_left(name: str) -> None:
    game = scoring_position(3, Quilt.from_text("\n".join(["#########"] * 8 + ["#######.."])))
    for action in get_bot(name).act(game, 0):
        game.apply(0, action)
    assert game.is_over() and game.sheets[0].round_scores == [81] and game.totals() == [81]


@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_single_square_completes_a_rectangle_only_when_it_is_worth_it(name: str) -> None:
    worth_it = "\n".join(["######..."] * 5 + ["#####....", "........."] + ["........."] * 2)
    game = scoring_position(1, Quilt.from_text(worth_it))  # 5x6 = 31 now, 6x6 = 36 with one square
    actions = get_bot(name).act(game, 0)
    assert actions == [SingleSquare((5, 5)), EndTurn()]
    small_gain = "\n".join(["###......"] * 3 + ["##......."] + ["........."] * 5)
    game = scoring_position(1, Quilt.from_text(small_gain))  # 3x3 = 9 now, 4x3 = 10 with one square
    assert get_bot(name).act(game, 0) == [EndTurn()]


def test_expert_outscores_greedy_on_average_over_fixed_seeds() -> None:
    seeds = range(4)  # deterministic: the bots have no randomness of their own
    greedy = sum(play_solo(get_bot("greedy"), seed).totals()[0] for seed in seeds)
    expert = sum(play_solo(get_bot("expert"), seed).totals()[0] for seed in seeds)
    assert expert > greedy
