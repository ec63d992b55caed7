"""Patchwork Doodle: the deck, the table (dealer), players' sheets, whole games and their records."""

from doodle.game.dealer import DIE_FACES, Dealer, DealerError, Offer, Phase
from doodle.game.deck import Card, Deck, DeckError, load_deck
from doodle.game.game import DoodleGame, RecordError
from doodle.game.sheet import Action, DrawPatch, EndTurn, IllegalAction, Sheet, SingleSquare, Special

__all__ = [
    "DIE_FACES", "Action", "Card", "Dealer", "DealerError", "Deck", "DeckError", "DoodleGame", "DrawPatch",
    "EndTurn", "IllegalAction", "Offer", "Phase", "RecordError", "Sheet", "SingleSquare", "Special", "load_deck",
]
