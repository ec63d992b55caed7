"""Rules of Patchwork: the test vectors of patchwork-rules.md and each rule on a position built for it."""

from __future__ import annotations

from collections import Counter

import pytest

from doodle.geometry import Polyomino
from doodle.patchwork import ADVANCE, PATCHES, Game, IllegalMoveError, parse_move
from doodle.patchwork.moves import PLACEMENTS, leather_move, orientation_placement
from doodle.patchwork.patches import LEATHER, PatchDataError, load_patches
from doodle.quilt import FULL, Quilt, placements_on_empty

EMPTY = "0" * 21


def position(
    p0: str,
    p1: str,
    circle: str = "1,2,3,0",
    top: int = 0,
    bonus: str = "-",
    end: str = "-",
    leather: str = "-",
    edition: str = "current",
) -> Game:
    """A game at a position given by the players' fields pos/buttons/income/quilt-hex."""
    return Game.from_notation(
        f"{edition} circle:{circle} p0:{p0} p1:{p1} top:{top} bonus:{bonus} leather:{leather} end:{end}"
    )


def always_advance(game: Game) -> Game:
    while not game.is_over():
        moves = game.legal_moves()
        game.play(ADVANCE if ADVANCE in moves else moves[0])
    return game


# ----- the patches and the test vectors -----
def test_patch_data_has_33_patches_with_the_table_values():
    assert len(PATCHES) == 33
    assert (PATCHES[0].cost, PATCHES[0].time, PATCHES[0].buttons, PATCHES[0].size) == (2, 1, 0, 2)
    assert (PATCHES[32].cost, PATCHES[32].time, PATCHES[32].buttons, PATCHES[32].size) == (10, 4, 3, 5)
    assert [p.size for p in PATCHES].count(6) == 10


@pytest.mark.parametrize(("text", "orientations", "placements"), [
    ("#", 1, 81), ("##", 2, 144), ("#./##", 4, 256), ("##/##", 1, 64), ("###/.#.", 4, None), ("#./#./##", 8, 448),
])  # fmt: skip
def test_orientation_and_placement_counts(text, orientations, placements):
    shape = Polyomino.from_text(text)
    assert len(shape.orientations()) == orientations
    if placements is not None:
        assert len(placements_on_empty(shape)) == placements


def test_all_patches_have_7349_distinct_placements():
    assert sum(len(moves) for moves in PLACEMENTS) == 7349
    for moves in PLACEMENTS:
        assert len({m.cells for m in moves}) == len(moves)


def test_the_largest_number_of_legal_moves_is_1345():
    big = [p.number for p in PATCHES if len(PLACEMENTS[p.number]) == 448 and p.cost <= 5]
    game = Game.new(order=[*big[:3], 0])
    moves = game.legal_moves()
    assert len(moves) == 1 + 3 * 448 == 1345
    assert len(set(moves)) == 1345


def test_symmetric_patch_placements_are_listed_once():
    square = next(p.number for p in PATCHES if p.shape == Polyomino.from_text("##/##"))
    game = Game.new(order=[square, 0], first=0)
    game._buttons[0] = 20
    moves = [m for m in game.legal_moves() if m.patch == square]
    assert len(moves) == 64


@pytest.mark.parametrize("edition", ["current", "original"])
def test_always_advance_ends_minus_104_against_minus_94(edition):
    game = always_advance(Game.new(seed=5, edition=edition))
    assert game.buttons == (58, 58)
    assert game.quilts[1].covered_count() == 5 and game.quilts[0].covered_count() == 0
    assert game.scores() == (-104, -94)
    assert game.winner() == 1


def test_patch_file_errors_name_the_problem():
    with pytest.raises(PatchDataError, match="no 'shape' field"):
        load_patches("[[patch]]\nnumber = 0\ncost = 1\ntime = 1\nbuttons = 0\n")
    with pytest.raises(PatchDataError, match="not connected"):
        load_patches('[[patch]]\nnumber = 0\ncost = 1\ntime = 1\nbuttons = 0\nshape = "#.#"\n')
    with pytest.raises(PatchDataError, match="thousands of digits"):
        load_patches("[[patch]]\nnumber = " + "9" * 5000 + "\n")


# ----- setup and turn order -----
def test_seeded_setup_is_reproducible_with_the_start_patch_last():
    a, b = Game.new(seed=42), Game.new(seed=42)
    assert a.circle == b.circle and a.circle[-1] == 0 and sorted(a.circle) == list(range(33))
    assert Game.new(seed=43).circle != a.circle
    assert a.positions == (0, 0) and a.buttons == (5, 5) and a.income == (0, 0)
    assert [p.number for p in a.choices()] == list(a.circle[:3])


def test_order_is_checked():
    with pytest.raises(ValueError, match="appears twice"):
        Game.new(order=[1, 1, 0])
    with pytest.raises(ValueError, match="unknown patch number 40"):
        Game.new(order=[40])
    with pytest.raises(ValueError, match="unknown edition"):
        Game.new(seed=1, edition="deluxe")


def test_the_player_on_top_moves_first():
    assert Game.new(seed=1, first=1).current_player == 1
    game = position("3/5/0/" + EMPTY, "1/5/0/" + EMPTY, circle="1,2,3,0", top=0)
    assert game.current_player == 1
    game.play(parse_move("1 a1 b1 c1"))  # time 2: lands on space 3, on top of player 0
    assert game.positions == (3, 3) and game.on_top == 1 and game.current_player == 1


def test_advance_moves_just_past_the_opponent_and_pays_per_space():
    game = position("3/5/0/" + EMPTY, "8/5/0/" + EMPTY)
    game.play(ADVANCE)
    assert game.positions == (9, 8) and game.buttons == (11, 5)
    assert game.current_player == 1


# ----- income and the end of the track -----
def test_a_long_advance_past_two_income_marks_pays_income_twice():
    game = position("4/0/3/" + EMPTY, "11/0/0/" + EMPTY)
    game.play(ADVANCE)  # 4 -> 12 passes the marks on 5 and 11
    assert game.positions[0] == 12
    assert game.buttons[0] == 8 + 2 * 3


def test_landing_on_a_mark_pays_and_income_counts_the_patch_just_placed():
    # patch 2 (time 3, 1 button) from space 2 lands on the mark on 5
    game = position("2/3/1/" + EMPTY, "9/0/0/" + EMPTY, circle="2,0")
    game.play(parse_move("2 a1 b1 c1 d1"))
    assert game.positions[0] == 5
    assert game.income[0] == 2
    assert game.buttons[0] == 3 - 3 + 2


def test_income_on_reaching_53_and_the_advance_is_capped_and_paid_only_for_spaces_moved():
    game = position("52/0/4/" + EMPTY, "53/0/0/" + EMPTY, end="1")
    game.play(ADVANCE)
    assert game.positions == (53, 53)
    assert game.buttons[0] == 1 + 4  # one space moved, then the income mark on 53
    assert game.is_over() and game.legal_moves() == [] and game.current_player is None


def test_a_patch_move_stops_at_53():
    game = position("51/10/0/" + EMPTY, "53/0/0/" + EMPTY, circle="9,0", end="1")  # patch 9: time 6
    move = next(m for m in game.legal_moves() if m.kind == "patch")
    game.play(move)
    assert game.positions == (53, 53)
    assert game.buttons[0] == 10 - 8 + 3  # paid 8, then income 3 on the mark on 53


# ----- leather patches -----
def test_a_leather_patch_passed_is_placed_at_once_by_the_mover():
    game = position("20/10/0/" + EMPTY, "25/5/0/" + EMPTY, circle="9,0")  # patch 9: time 6, 20 -> 26
    game.play(next(m for m in game.legal_moves() if m.kind == "patch"))
    assert game.positions == (26, 25)
    assert game.current_player == 0 and game.pending_leather == 1
    moves = game.legal_moves()
    assert {m.kind for m in moves} == {"leather"}
    assert len(moves) == game.quilts[0].empty_count()
    with pytest.raises(IllegalMoveError, match="must first place the leather"):
        game.play(ADVANCE)
    game.play(parse_move("leather i9"))
    assert game.quilts[0].is_covered(8, 8)
    assert game.current_player == 1 and game.leather_left() == (32, 38, 44, 50)


def test_leather_patches_are_taken_in_order_once():
    game = always_advance(Game.new(seed=0, edition="original"))
    leathers = [m for m in game.move_stack if m.kind == "leather"]
    assert len(leathers) == len(LEATHER["original"])


def test_a_leather_patch_is_discarded_on_a_full_quilt():
    game = position(f"24/0/0/{FULL:021x}", "25/0/0/" + EMPTY, bonus="0")
    game.play(ADVANCE)  # 24 -> 26 passes the leather patch on 26
    assert game.pending_leather == 0 and game.current_player == 1
    assert game.leather_left() == (32, 38, 44, 50)


# ----- the bonus tile and scoring -----
def seven_by_seven_minus_one() -> Quilt:
    rows = ["#######.." for _ in range(7)] + ["........."] * 2
    rows[6] = "######..."
    return Quilt.from_rows(rows)


def test_the_7x7_bonus_goes_to_the_first_to_fill_a_7x7_square():
    almost = seven_by_seven_minus_one()
    game = position(f"19/0/0/{almost.bits:021x}", f"19/0/0/{almost.bits:021x}", circle="0", edition="original")
    game.play(ADVANCE)  # 19 -> 20: lands on the original printing's first leather patch
    assert game.pending_leather == 1
    game.play(leather_move(6, 6))
    assert game.bonus_owner == 0
    assert game.scores() == (1 - 2 * (81 - 49) + 7, -2 * (81 - 48))
    game.play(ADVANCE)  # player 1: 19 -> 21
    game.play(ADVANCE)  # player 0: 20 -> 22
    game.play(ADVANCE)  # player 1: 21 -> 23
    game.play(ADVANCE)  # player 0: 22 -> 24
    assert game.current_player == 1 and game.pending_leather == 0
    full = f"{almost.bits | 1 << (6 * 9 + 6):021x}"
    later = Game.from_notation(game.notation().replace(f"/{almost.bits:021x} top:", f"/{full} top:"))
    assert later.quilts[1].bits == int(full, 16)  # player 1 has filled a 7x7 square too, later
    later.play(ADVANCE)
    assert later.bonus_owner == 0


def test_scores_and_the_tie_rule():
    game = position("53/10/0/" + EMPTY, "53/10/0/" + EMPTY, end="1")
    assert game.is_over()
    assert game.scores() == (10 - 162, 10 - 162)
    assert game.winner() == 1
    game = position("53/11/0/" + EMPTY, "53/10/0/" + EMPTY, end="1")
    assert game.winner() == 0


# ----- illegal moves -----
def test_illegal_moves_are_refused_with_the_reason():
    game = Game.new(order=[3, 1, 2, 0])  # patch 3 costs 7, the players have 5
    with pytest.raises(IllegalMoveError, match="cannot afford patch 3: it costs 7 buttons, player 1 has 5"):
        game.play(orientation_placement(3, 0, 0, 0))
    with pytest.raises(IllegalMoveError, match="not one of the next three"):
        game.play(orientation_placement(0, 0, 0, 0))
    with pytest.raises(IllegalMoveError, match="not player 2's turn: player 1 moves"):
        game.play(ADVANCE, player=1)
    with pytest.raises(IllegalMoveError, match="no leather patch to place"):
        game.play(leather_move(0, 0))
    game.play(orientation_placement(1, 0, 0, 0))  # player 0: 1x3 on a1-c1, time 2
    game.play(ADVANCE)  # player 1 to space 3
    with pytest.raises(IllegalMoveError, match=r"patch 2 does not fit there: cells a1, b1, c1 are already covered"):
        game.play(orientation_placement(2, 0, 0, 0))
    with pytest.raises(IllegalMoveError, match="patch 1 is already taken"):
        game.play(orientation_placement(1, 0, 5, 0))
    over = position("53/0/0/" + EMPTY, "53/0/0/" + EMPTY, end="0")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        over.play(ADVANCE)


def test_undo_takes_back_moves_in_order():
    game = Game.new(seed=3)
    start = game.state_key()
    first = game.legal_moves()[5]
    game.play(first)
    game.play(ADVANCE)
    assert game.undo() == ADVANCE
    assert game.undo() == first
    assert game.state_key() == start
    with pytest.raises(IndexError):
        game.undo()


def test_legal_moves_have_kind_patch_and_cells():
    game = Game.new(seed=9)
    moves = game.legal_moves()
    assert moves[0].kind == "advance" and moves[0].patch is None and moves[0].cells == frozenset()
    counts = Counter(m.patch for m in moves if m.kind == "patch")
    for number, count in counts.items():
        assert number in game.circle[:3]
        assert count == len(Quilt().placements(PATCHES[number].shape))
        assert all(PATCHES[number].shape.drawable_as(m.cells) for m in moves if m.patch == number)


def test_the_base_game_does_not_import_the_doodle_game():
    import subprocess
    import sys

    code = (
        "import sys, doodle.patchwork, doodle.patchwork.bots, doodle.patchwork.plain, doodle.patchwork.app\n"
        "assert not [m for m in sys.modules if m.startswith('doodle.game')], 'doodle.game was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
