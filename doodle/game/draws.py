"""What a player may draw: the one answer to that question, shared by the rules engine (`DoodleGame.legal_draws`),
the solo game, the bots and the web table.

`offered_draws(offer, deck, uses)` lists every draw the rules allow under a table's offer with the specials a
sheet has used, whatever is on the quilt: the current card (or, on the final turn, each of the three choices),
the cards beside it (spending Neighbour), and every piece of each after one straight cut (spending Cut), in a
fixed order. Bots call it for offers they imagine; `DoodleGame.legal_draws(player)` keeps the draws that fit
somewhere on the player's quilt and adds the pass, in the spirit of OpenSpiel's `legal_actions()`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from doodle.game.dealer import Offer, Phase
from doodle.game.deck import Deck
from doodle.game.sheet import DrawPatch, EndTurn, Special, Uses
from doodle.geometry import Cell, Polyomino


class CardRole(StrEnum):
    """Why a card may be drawn now (the values are how players say it)."""

    START = "start card"
    CURRENT = "current card"
    BEFORE = "neighbour before"
    AFTER = "neighbour after"
    CHOICE = "final choice"


@dataclass(frozen=True)
class Draw:
    """One thing a player may draw: `shape` (the card's, or with `cut` one piece of it, in any orientation) from
    `card`, which is on offer as `role`."""

    card: str
    role: CardRole
    shape: Polyomino
    cut: bool = False

    @property
    def neighbour(self) -> bool:
        """True when drawing it spends Neighbour (a card beside the current card)."""
        return self.role in (CardRole.BEFORE, CardRole.AFTER)

    @property
    def spends(self) -> tuple[Special, ...]:
        """The special actions drawing it crosses off."""
        return (Special.NEIGHBOUR,) * self.neighbour + (Special.CUT,) * self.cut

    def action(self, cells: Iterable[Cell]) -> DrawPatch:
        """The action that draws it on `cells` (the shape in some orientation)."""
        return DrawPatch(self.card, frozenset(cells), self.cut)


@dataclass(frozen=True)
class Pass:
    """Draw nothing and end the turn (also how a turn ends after a draw)."""

    spends: tuple[Special, ...] = ()

    def action(self) -> EndTurn:
        return EndTurn()


PASS = Pass()
LegalDraw = Draw | Pass


def offered_draws(offer: Offer, deck: Deck, uses: Uses, *, neighbour: bool = True, cut: bool = True) -> list[Draw]:
    """Every draw the rules allow under `offer` to a sheet that has used its specials `uses`, whatever fits:
    on a turn the current card, then each neighbour (while Neighbour is left); on the final turn each choice; each
    whole, then (while Cut is left) each piece of a straight cut, one per distinct shape. Nothing during a scoring
    or before the roll. `neighbour=False` or `cut=False` leave out the draws that would spend that special (a
    bot's look ahead, where the neighbours are not known yet)."""
    if offer.phase == Phase.FINAL:
        cards = [(card, CardRole.CHOICE) for card in offer.choices]
    elif offer.phase == Phase.TURN and offer.current is not None:
        cards = [(offer.current, CardRole.CURRENT)]
        if neighbour:
            sides = (CardRole.BEFORE, CardRole.AFTER)
            cards += [(card, role) for card, role in zip(offer.neighbours, sides, strict=False)]
    else:
        return []
    found = []
    for card, role in cards:
        shape = deck.card(card).shape
        pieces = shape.cut_pieces() if cut else ()
        for draw in (Draw(card, role, shape), *(Draw(card, role, piece, True) for piece in pieces)):
            if uses.spend_all(draw.spends) is not None:
                found.append(draw)
    return found
