"""Patchwork Doodle: the deck, the table (dealer), players' sheets, whole games and their records.

`DoodleGame.legal_draws(player)` says what a player may draw now (`Draw`s and `PASS`); every error raised on
purpose is a `GameError`, a ValueError (bad input)."""

from doodle.game.dealer import DIE_FACES, Dealer, DealerError, Offer, Phase
from doodle.game.deck import Card, Deck, DeckError, load_deck
from doodle.game.draws import PASS, CardRole, Draw, Pass
from doodle.game.errors import GameError
from doodle.game.game import DoodleGame, RecordError
from doodle.game.sheet import Action, DrawPatch, EndTurn, IllegalAction, Sheet, SingleSquare, Special, Uses

__all__ = [
    "DIE_FACES", "PASS", "Action", "Card", "CardRole", "Dealer", "DealerError", "Deck", "DeckError", "DoodleGame",
    "Draw", "DrawPatch", "EndTurn", "GameError", "IllegalAction", "Offer", "Pass", "Phase", "RecordError", "Sheet",
    "SingleSquare", "Special", "Uses", "load_deck",
]
