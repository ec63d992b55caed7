"""Checks a score sheet and a game allow: what a reading of a sheet (a photo, a typed score) may not say.

The sheet alone: a round score is one some rectangle makes, a later round scores no less than an earlier one,
and the round scored at the moment of the photo equals the best rectangle of the quilt in it. With the game: a
quilt contains the quilt confirmed at the previous scoring (cells never disappear), a round adds no more cells
than its cards allow, and where a bounded search can tell, the cells a round added split into patches its cards
could give (the current card, a neighbour's, a cut piece, single squares).

Each check returns `Problem`s that name the round or the cells that look wrong; the caller (the `doodle score`
command, the dealer, the web table) decides how to ask about them. Nothing here prints.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from doodle.game.dealer import ROUNDS, TURNS_PER_ROUND, Dealer
from doodle.game.deck import Deck
from doodle.game.sheet import Special
from doodle.game.table import table_events
from doodle.geometry import Cell, Polyomino
from doodle.quilt import POSSIBLE_ROUND_SCORES, Quilt, cell_list, cells_are, cells_of, mask_of, placements_on_empty

ALL_SPECIALS: frozenset[str] = frozenset(special.value for special in Special)
EXPLAIN_NODE_BUDGET = 20_000
"""The search steps `explain_added` may take before it answers "undecided": a count, not a time, so the answer
is the same on a loaded machine (20,000 steps took 5 s at worst on the shared 2-core machine under a load of 14, so
callers that must answer quickly run it in a worker). Of 120 rounds of random legal games
(tests/test_game_checks.py's `play`, seeds 0-39), 110 were explained within 3,000 steps and all within 50,000
(the slowest: round 1, every special open, 39 cells added)."""

Explanation = Literal["explained", "not explained", "undecided"]


@dataclass(frozen=True)
class Problem:
    """Something a sheet says that the rules or the game do not allow, with the round or the cells it is about."""

    message: str
    round: int | None = None
    cells: frozenset[Cell] = frozenset()


# --- the sheet alone ------------------------------------------------------------------------------------------
def nearest_possible_scores(score: int) -> tuple[int, int | None]:
    """The possible round scores just below and just above `score` (None above the highest)."""
    below = max(s for s in POSSIBLE_ROUND_SCORES if s <= score)
    above = min((s for s in POSSIBLE_ROUND_SCORES if s >= score), default=None)
    return below, above


def round_score_problems(
    scores: Sequence[int | None], quilt: Quilt | None = None, scoring_round: int = ROUNDS
) -> list[Problem]:
    """What is wrong with the known round scores (None: not known; round 1 first).

    A score no rectangle makes; a score lower than an earlier round's (a quilt only grows); with the `quilt` as
    it was at the scoring of `scoring_round`: that round's score differing from its best rectangle, an earlier
    round's score above it, and a later round already filled in."""
    problems = []
    best = None if quilt is None else quilt.score_rectangle()
    before: tuple[int, int] | None = None  # the last known earlier round and its score
    for number, score in enumerate(scores, start=1):
        if score is None:
            continue
        if score not in POSSIBLE_ROUND_SCORES:
            low, high = nearest_possible_scores(score)
            near = f"{low} and {high}" if high is not None else str(low)
            problems.append(Problem(f"round {number} score {score}: no rectangle scores {score} (the possible "
                                    f"scores nearest to it are {near})", round=number))
        if before is not None and score < before[1]:
            problems.append(Problem(f"round {number} score {score} is lower than round {before[0]}'s {before[1]}: "
                                    "a quilt only grows, so a later round scores at least as much", round=number))
        if number > scoring_round:
            problems.append(Problem(f"round {number} score {score} is filled in, but the sheet is checked at the "
                                    f"scoring of round {scoring_round}", round=number))
        elif best is not None and number == scoring_round and score != best:
            problems.append(Problem(f"round {number} score {score} differs from the best rectangle of the quilt, "
                                    f"which scores {best}", round=number))
        elif best is not None and number < scoring_round and score > best:
            problems.append(Problem(f"round {number} score {score} is more than the best rectangle of the quilt now "
                                    f"({best}): an earlier round cannot score more", round=number))
        before = (number, score)
    return problems


# --- the game: what the cards of a round allow ------------------------------------------------------------------
@dataclass(frozen=True)
class TurnCards:
    """What one turn offered: the current card and its two neighbours, or on the final turn the choices."""

    current: Polyomino | None = None
    neighbours: tuple[Polyomino, ...] = ()
    choices: tuple[Polyomino, ...] = ()


@dataclass(frozen=True)
class RoundCards:
    """The cards of one round, turn by turn; in round 1 also the start cards one of which was drawn first."""

    round: int
    turns: tuple[TurnCards, ...]
    start: tuple[Polyomino, ...] = ()


@dataclass(frozen=True)
class SheetChecks:
    """What a reading of a sheet is checked against: the scoring it was taken at (round scores after it are
    not expected), the quilt confirmed at the scoring before (None: not known) and the round's cards."""

    scoring_round: int = ROUNDS
    previous: Quilt | None = None
    cards: RoundCards | None = None


def lost_cells(previous: Quilt, quilt: Quilt) -> frozenset[Cell]:
    """The cells covered in `previous` and empty in `quilt`: cells never disappear, so each is a misreading."""
    return cells_of(previous.bits & ~quilt.bits)


def _option_lists(cards: RoundCards) -> list[list[tuple[Polyomino, int, int]]]:
    """Per turn (the start card first in round 1), every patch it can give: (shape, neighbour uses, cut uses)."""
    turns = []
    if cards.start:
        turns.append([(shape, 0, 0) for shape in cards.start])
    for turn in cards.turns:
        options: list[tuple[Polyomino, int, int]] = []
        offered = [(shape, 0) for shape in (turn.choices or ((turn.current,) if turn.current else ()))]
        offered += [(shape, 1) for shape in turn.neighbours]
        for shape, neighbour in offered:
            options.append((shape, neighbour, 0))
            options += [(piece, neighbour, 1) for piece in shape.cut_pieces()]
        turns.append(options)
    return turns


def _within_allowance(neighbour: int, single: int, cut: int, specials: Collection[str]) -> bool:
    """Whether these uses of Neighbour, Single square and Cut fit `specials`, the boxes crossed off on the sheet
    (a special not crossed off was not used; Twice crossed off adds one more use of one of them, whether or not
    that one is crossed off). Not `Uses`: a sheet shows which boxes are crossed, not how often each was used."""
    extra = 0
    for used, special in ((neighbour, Special.NEIGHBOUR), (single, Special.SINGLE), (cut, Special.CUT)):
        extra += max(0, used - (1 if special.value in specials else 0))
    return extra <= (1 if Special.TWICE.value in specials else 0)


def _allowed_uses(specials: Collection[str]) -> frozenset[tuple[int, int, int]]:
    """Every (neighbour, single, cut) count of uses `_within_allowance` allows (none can pass 2: one use, and
    one more with Twice), for a search that asks it at every step."""
    return frozenset(uses for uses in itertools.product(range(3), repeat=3) if _within_allowance(*uses, specials))


def most_cells(cards: RoundCards, specials: Collection[str] = ALL_SPECIALS) -> int:
    """The most cells a player can add in this round: one patch per turn (the largest the turn offers, a neighbour's
    card only as often as Neighbour can be used), the start card in round 1, and single squares."""
    largest = []
    gains = []
    for options in _option_lists(cards):
        own = max((shape.size for shape, neighbour, _ in options if not neighbour), default=0)
        other = max((shape.size for shape, neighbour, _ in options if neighbour), default=0)
        largest.append(own)
        gains.append(max(0, other - own))
    gains.sort(reverse=True)
    best = 0
    for neighbours in range(3):
        for singles in range(3):
            if _within_allowance(neighbours, singles, 0, specials):
                best = max(best, sum(largest) + sum(gains[:neighbours]) + singles)
    return best


def explain_added(
    added: Collection[Cell], cards: RoundCards, specials: Collection[str] = ALL_SPECIALS,
    node_budget: int = EXPLAIN_NODE_BUDGET,
) -> Explanation:
    """Whether the cells a round added split into patches the round's cards could give, one per turn, with the
    specials open (a neighbour's card, a cut piece, single squares).

    An exact-cover search in the manner of Knuth's Algorithm X: of the cells left, the one fewest patches can
    cover (counted once, before the search) is covered first, by each of those patches in turn; a state that
    failed once is not searched again, and one with a connected part whose cell count no choice of one patch size
    per turn left (and the single squares left) can make is cut off. It answers "undecided" once `node_budget`
    steps are spent: "not explained" comes only from a search that ran to its end."""
    target = mask_of(added)
    turns = _option_lists(cards)
    covering: dict[int, list[tuple[int, int, int, int]]] = {}  # cell -> (turn, mask, neighbour, cut); turn -1: single
    for index, options in enumerate(turns):
        seen: set[tuple[int, int, int]] = set()
        for shape, neighbour, cut in sorted(options, key=lambda option: -option[0].size):
            for mask in _placements_inside(shape, target):
                if (mask, neighbour, cut) not in seen:
                    seen.add((mask, neighbour, cut))
                    for cell in _bits(mask):
                        covering.setdefault(cell, []).append((index, mask, neighbour, cut))
    for cell in _bits(target):
        covering.setdefault(cell, []).append((-1, 1 << cell, 0, 0))
    order = sorted(_bits(target), key=lambda cell: len(covering[cell]))  # the hardest cells first
    sizes = [frozenset(shape.size for shape, _, _ in options) for options in turns]
    steps = 0
    failed: set[tuple[int, int, int, int, int]] = set()

    allowed = _allowed_uses(specials)
    sums_left: dict[tuple[int, int], int] = {}

    def reachable(count: int, used: int, single: int) -> bool:
        """Whether `count` cells can be one patch size (or none) from each turn left, plus the singles left."""
        sums = sums_left.get((used, single))
        if sums is None:
            sums = 1
            for index, offered in enumerate(sizes):
                if not used >> index & 1:
                    sums = functools.reduce(operator.or_, (sums << size for size in offered), sums)
            for _ in range(2 - single):
                sums |= sums << 1
            sums_left[used, single] = sums
        return bool(sums >> count & 1)

    def search(left: int, used: int, neighbour: int, single: int, cut: int) -> bool | None:
        nonlocal steps
        if not left:
            return True
        state = (left, used, neighbour, single, cut)
        if state in failed:
            return False
        steps += 1
        if steps > node_budget:
            return None
        if not all(reachable(part.bit_count(), used, single) for part in _components(left)):
            failed.add(state)
            return False
        cell = next(cell for cell in order if left >> cell & 1)
        undecided = False
        for turn, mask, uses_neighbour, uses_cut in covering[cell]:
            if mask & ~left or (turn >= 0 and used >> turn & 1):
                continue
            counts = (neighbour + uses_neighbour, single + (turn < 0), cut + uses_cut)
            if counts not in allowed:
                continue
            answer = search(left & ~mask, used | (1 << turn if turn >= 0 else 0), *counts)
            if answer:
                return True
            undecided = undecided or answer is None
        if undecided:
            return None
        failed.add(state)
        return False

    answer = search(target, 0, 0, 0, 0)
    return "undecided" if answer is None else "explained" if answer else "not explained"


_NOT_FIRST_COLUMN = mask_of((row, col) for row in range(9) for col in range(1, 9))
_NOT_LAST_COLUMN = mask_of((row, col) for row in range(9) for col in range(8))
_GRID = (1 << 81) - 1


def _components(mask: int) -> list[int]:
    """The 4-connected parts of a set of cells, as masks."""
    parts = []
    while mask:
        part, grown = 0, mask & -mask
        while grown != part:
            part = grown
            grown = (part | part << 9 | part >> 9 | (part << 1) & _NOT_FIRST_COLUMN | (part >> 1) & _NOT_LAST_COLUMN
                     ) & mask & _GRID
        parts.append(part)
        mask &= ~part
    return parts


def _bits(mask: int) -> list[int]:
    return [index for index in range(mask.bit_length()) if mask >> index & 1]


def _placements_inside(shape: Polyomino, target: int) -> list[int]:
    """The masks of every placement of `shape` (any orientation) whose cells all lie in `target`."""
    return [placement.mask for placement in placements_on_empty(shape) if not placement.mask & ~target]


def quilt_problems(
    previous: Quilt, quilt: Quilt, cards: RoundCards | None = None, specials: Collection[str] = ALL_SPECIALS,
    node_budget: int = EXPLAIN_NODE_BUDGET,
) -> list[Problem]:
    """What the game does not allow in `quilt`, read at the scoring of a round after `previous` (the quilt confirmed
    at the scoring before, or an empty one before round 1): lost cells, and with the round's `cards` (and the
    `specials` crossed off on the sheet, the only ones the round can have used) too many added cells or added
    cells no patch of the round explains."""
    lost = lost_cells(previous, quilt)
    if lost:
        return [Problem(f"{cells_are(lost)} covered in the previous quilt but read empty now: cells never disappear",
                        cells=lost)]
    if cards is None:
        return []
    added = cells_of(quilt.bits & ~previous.bits)
    allowed = most_cells(cards, specials)
    where = f"round {cards.round}"
    if len(added) > allowed:
        return [Problem(f"{_count(len(added))} added in {where}, but its cards allow at most {allowed} (one patch "
                        "per turn and the specials still open)", cells=added)]
    if added and explain_added(added, cards, specials, node_budget) == "not explained":
        return [Problem(f"the {_count(len(added))} added in {where} ({cell_list(added)}) do not split into patches "
                        "its cards could give (the current card, a neighbour's, a cut piece, single squares)",
                        cells=added)]
    return []


def _count(cells: int) -> str:
    return "1 cell" if cells == 1 else f"{cells} cells"


# --- the cards of a round, from what the table dealt --------------------------------------------------------------
class CardsError(ValueError):
    """A game record from which the cards of a round cannot be told; the message says why."""


def round_cards(events: Sequence[dict], number: int, deck: Deck) -> RoundCards:
    """The cards of round `number` from the table's events (`doodle deal --auto --json`, see design.md)."""
    if not 1 <= number <= ROUNDS:
        raise CardsError(f"round {number} does not exist: rounds are 1 to {ROUNDS}")
    try:
        setup = next(event for event in events if event.get("event") == "setup")
        if setup.get("deck", deck.name) != deck.name:
            raise CardsError(f"the game was dealt with the deck {setup['deck']!r}, not {deck.name!r}")
        turns = [event for event in events if event.get("event") == "turn" and event.get("round") == number]
        if len(turns) != TURNS_PER_ROUND:
            raise CardsError(f"the record holds {len(turns)} turns of round {number}, not {TURNS_PER_ROUND}: "
                             "give the record of a whole game")
        shape = _shapes(deck)
        start = tuple(shape(card) for card in setup["start_cards"]) if number == 1 else ()
        return RoundCards(number, tuple(
            TurnCards(choices=tuple(shape(card) for card in turn["choices"])) if turn.get("roll") is None
            else TurnCards(shape(turn["card"]), tuple(shape(card) for card in turn.get("neighbours", ())))
            for turn in turns
        ), start)
    except StopIteration:
        raise CardsError("the record has no setup event: give the output of `doodle deal --auto --json`") from None
    except (KeyError, TypeError, AttributeError) as error:
        raise CardsError(f"the record's turn events are malformed ({error!r} is wrong or missing)") from None


def _shapes(deck: Deck):
    def shape(card: object) -> Polyomino:
        try:
            return deck.card(str(card)).shape
        except KeyError:
            raise CardsError(f"the record names card {card!r}, which the deck {deck.name!r} does not have: was it "
                             "dealt with another deck?") from None
    return shape


def dealt_events(seed: int, players: int, deck: Deck) -> list[dict]:
    """The table's events of the game dealt from `seed` (what `doodle deal --auto --json --seed` writes): a game
    record's seed stands for every card it dealt."""
    return list(table_events(Dealer.new(players, seed, deck)))
