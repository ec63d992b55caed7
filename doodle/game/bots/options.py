"""What a player may draw on a decision: the card (or, with Neighbour, a card beside it; on the final turn any of
the three choices), whole or (with Cut) as one piece of a straight cut; and which special actions that costs.

The special actions are tracked as `Uses` = (neighbour, single, cut) counts, the same bookkeeping as
`Sheet.uses`: each may be used once, and Twice lets exactly one of them be used a second time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from doodle.game.bots.tables import placement_table
from doodle.game.dealer import Offer, Phase
from doodle.game.deck import Deck
from doodle.game.sheet import Sheet, Special
from doodle.geometry import Polyomino

Uses = tuple[int, int, int]  # times neighbour, single square and cut were used


def uses_of(sheet: Sheet) -> Uses:
    return sheet.uses[Special.NEIGHBOUR], sheet.uses[Special.SINGLE], sheet.uses[Special.CUT]


def spend(uses: Uses, neighbour: int = 0, single: int = 0, cut: int = 0) -> Uses | None:
    """The uses after spending these specials, or None when the sheet does not allow it."""
    after = (uses[0] + neighbour, uses[1] + single, uses[2] + cut)
    if any(count > 2 for count in after) or sum(count == 2 for count in after) > 1:
        return None
    return after


@lru_cache(maxsize=64)
def singles_left(uses: Uses) -> int:
    """How many single squares the sheet still allows (0, 1 or 2)."""
    return max(k for k in range(3) if spend(uses, single=k) is not None)


@dataclass(frozen=True)
class Option:
    """One thing to draw: `shape` (the card's shape, or a cut piece of it) from `card`, and its cost."""

    card: str
    shape: Polyomino
    uses: Uses  # the specials used after drawing it
    neighbour: bool = False
    cut: bool = False


def draw_options(offer: Offer, deck: Deck, uses: Uses, *, neighbour: bool = True, cut: bool = True) -> list[Option]:
    """Every shape the player may draw now, cheapest first, without repeating a shape at the same cost."""
    if offer.phase == Phase.FINAL:
        cards = [(card, False) for card in offer.choices]
    elif offer.phase == Phase.TURN and offer.current is not None:
        cards = [(offer.current, False)] + [(card, True) for card in offer.neighbours if neighbour]
    else:
        return []
    found: dict[tuple[Polyomino, Uses], Option] = {}
    for card, is_neighbour in cards:
        shape = deck.card(card).shape
        pieces = [(shape, False)] + ([(piece, True) for piece in shape.cut_pieces()] if cut else [])
        for piece, is_cut in pieces:
            after = spend(uses, neighbour=int(is_neighbour), cut=int(is_cut))
            if after is None:
                continue
            key = (piece.canonical(), after)
            if key not in found:
                found[key] = Option(card, piece, after, is_neighbour, is_cut)
    return sorted(found.values(), key=lambda option: (option.neighbour + option.cut))


@dataclass(frozen=True)
class Candidates:
    """Every placement of every option on a quilt, as after-states (one row each) with where they came from.
    Row i draws `options[option_index[i]]` on `masks[i]`; a `None` option is a pass."""

    after: np.ndarray  # (n, 81) bool
    masks: list[int]
    option_index: np.ndarray
    options: list[Option | None]


def candidates(bits: int, quilt_vector: np.ndarray, options: list[Option], uses: Uses,
               with_pass: bool = True) -> Candidates:
    """Every legal placement of the options on the quilt `bits` (plus passing, which costs nothing)."""
    blocks, masks, index = [], [], []
    all_options: list[Option | None] = list(options)
    for i, option in enumerate(options):
        table = placement_table(option.shape)
        legal = table.legal(bits)
        if not len(legal):
            continue
        blocks.append(table.matrix[legal])
        masks.extend(table.masks[j] for j in legal)
        index.extend([i] * len(legal))
    if with_pass or not blocks:
        all_options.append(None)
        blocks.append(np.zeros((1, quilt_vector.size), dtype=bool))
        masks.append(0)
        index.append(len(all_options) - 1)
    after = np.concatenate(blocks) | quilt_vector
    return Candidates(after, masks, np.array(index), all_options)


def row_uses(cands: Candidates, uses: Uses) -> list[Uses]:
    """The specials used after each row's draw (`uses` for the row that draws nothing)."""
    return [uses if (option := cands.options[i]) is None else option.uses for i in cands.option_index]
