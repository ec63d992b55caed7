"""Card pictures for the web table: one SVG per card, drawn from the deck data (nothing else knows the shapes).

Every card of a deck is drawn in the same frame (the deck's longest side, in cells), so cells have the same size
on every card and a 2-cell patch looks small beside a 7-cell one, as on the printed cards. There is no text in
the picture: the page labels it, and a phone can rotate and mirror the picture like a card in the hand."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from xml.sax.saxutils import quoteattr

from doodle.game.deck import Card, Deck

CELL = 40
MARGIN = 14
FABRICS = ("#c8553d", "#2e86ab", "#588b3e", "#8e5aa8", "#d08c1a", "#1f8a7a", "#b23a6b", "#44609e")
"""Patch colours, dark enough for white seams and for a screen two metres away."""


def frame_cells(deck: Deck) -> int:
    return max(max(card.shape.height, card.shape.width) for card in deck.start_cards + deck.patch_cards)


def fabric(card_id: str) -> str:
    """A colour per card, the same on every screen and every run."""
    return FABRICS[hashlib.sha256(card_id.encode()).digest()[0] % len(FABRICS)]


@lru_cache(maxsize=256)
def card_svg(card: Card, frame: int) -> str:
    """The card's patch, centred in a square of `frame` cells, on a light card with rounded corners."""
    size = frame * CELL + 2 * MARGIN
    shape = card.shape
    left = MARGIN + (frame - shape.width) * CELL / 2
    top = MARGIN + (frame - shape.height) * CELL / 2
    colour = fabric(card.id)
    cells = "".join(
        f'<rect x="{left + col * CELL:g}" y="{top + row * CELL:g}" width="{CELL}" height="{CELL}"/>'
        for row, col in sorted(shape.cells)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" role="img" '
        f'aria-label={quoteattr(f"patch {card.id}, {shape.size} cells")}>'
        f'<rect x="1" y="1" width="{size - 2}" height="{size - 2}" rx="12" fill="#fbf7ee" stroke="#b9ae98" '
        'stroke-width="2"/>'
        f'<g fill="{colour}" stroke="#fbf7ee" stroke-width="3" stroke-linejoin="round">{cells}</g>'
        '</svg>'
    )
