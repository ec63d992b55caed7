"""What a player may draw on a decision, for the bots: the engine's own list (`offered_draws`, the one answer the
rules give), with the specials it leaves, one option per shape and cost.

The special actions are tracked as the engine's `Uses` = (neighbour, single, cut) counts, the same bookkeeping
(and the same Twice rule) as `Sheet.spent`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from doodle.game.bots.tables import placement_table
from doodle.game.dealer import Offer
from doodle.game.deck import Deck
from doodle.game.draws import offered_draws
from doodle.game.sheet import Uses
from doodle.geometry import Polyomino


@lru_cache(maxsize=64)
def singles_left(uses: Uses) -> int:
    """How many single squares the sheet still allows (0, 1 or 2)."""
    return max(k for k in range(3) if Uses(*uses).spend(single=k) is not None)


@dataclass(frozen=True)
class Option:
    """One thing to draw: `shape` (the card's shape, or a cut piece of it) from `card`, and its cost."""

    card: str
    shape: Polyomino
    uses: Uses  # the specials used after drawing it
    neighbour: bool = False
    cut: bool = False


def draw_options(offer: Offer, deck: Deck, uses: Uses, *, neighbour: bool = True, cut: bool = True) -> list[Option]:
    """Every shape the player may draw now (the engine's `offered_draws`), cheapest first, without repeating a
    shape at the same cost."""
    uses = Uses(*uses)
    found: dict[tuple[Polyomino, Uses], Option] = {}
    for draw in offered_draws(offer, deck, uses, neighbour=neighbour, cut=cut):
        after = uses.spend_all(draw.spends)
        assert after is not None  # offered_draws keeps only what the sheet allows
        key = (draw.shape.canonical(), after)
        if key not in found:
            found[key] = Option(draw.card, draw.shape, after, draw.neighbour, draw.cut)
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
