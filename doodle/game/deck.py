"""The Patchwork Doodle cards: the bundled deck and users' deck files (TOML), validated with clear errors."""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path

from doodle.files import InputFileError, read_text_limited
from doodle.game.errors import GameError
from doodle.geometry import FILLED, Polyomino, ShapeError

MIN_PATCH_CARDS = 20  # 3 rounds use 8 + 6 + 6 cards
MAX_CELLS = 9
BUNDLED = "doodle_cards.toml"
DECK_FILE_LIMIT = 1 << 20
"""The largest deck file read: the bundled deck is under 3 KB, and 1 MB holds some 20,000 cards."""
FORMAT_HINT = "for the format, write a copy of the bundled deck with: doodle deck --export cards.toml"


class DeckError(GameError):
    """A deck file that cannot be used; the message names the file, the card and what to fix."""


@dataclass(frozen=True)
class Card:
    id: str
    shape: Polyomino
    source: str = ""


@dataclass(frozen=True)
class Deck:
    name: str
    start_cards: tuple[Card, ...]
    patch_cards: tuple[Card, ...]

    @cached_property
    def fingerprint(self) -> str:
        """A short digest of the cards (ids and shapes, in order), whatever the deck's name: two decks deal the same
        games from the same seed exactly when their fingerprints are equal (an edited copy keeps the name)."""
        cards = [[[card.id, card.shape.to_text()] for card in cards] for cards in (self.start_cards, self.patch_cards)]
        return hashlib.sha256(json.dumps(cards).encode()).hexdigest()[:12]

    @cached_property
    def _by_id(self) -> dict[str, Card]:
        return {card.id: card for card in self.start_cards + self.patch_cards}

    def card(self, card_id: str) -> Card:
        try:
            return self._by_id[card_id]
        except KeyError:
            raise KeyError(f"no card {card_id!r} in the deck {self.name!r}") from None

    def check_players(self, players: int) -> None:
        if players > len(self.start_cards):
            raise DeckError(
                f"the deck {self.name!r} has {len(self.start_cards)} start cards, too few for {players} players: "
                "every player needs a different one"
            )


def load_deck(path: str | Path | None = None) -> Deck:
    """The bundled deck, or the TOML deck file at `path`; DeckError says what is wrong with a user's file."""
    if path is None:
        return bundled_deck()
    where = str(path)
    try:
        text = read_text_limited(path, DECK_FILE_LIMIT, f"deck file {where}")
    except InputFileError as error:
        raise DeckError(str(error)) from None
    return parse_deck(text, where)


def bundled_deck_text() -> str:
    """The bundled deck file as it is shipped, comments and provenance included (a start for one's own deck)."""
    return resources.files("doodle.data").joinpath(BUNDLED).read_text(encoding="utf-8")


@cache
def bundled_deck() -> Deck:
    """The deck that comes with doodle (read once: a Deck is frozen, so one is shared)."""
    return parse_deck(bundled_deck_text(), "the bundled deck")


def parse_deck(text: str, where: str = "deck") -> Deck:
    """The deck in TOML `text`, checked in time linear in its size; `where` names it in DeckError messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DeckError(f"{where} is not valid TOML ({error}); {FORMAT_HINT}") from None
    except RecursionError:  # tomllib reads nested arrays and inline tables recursively
        raise DeckError(f"{where} nests arrays or tables too deeply to be a deck; {FORMAT_HINT}") from None
    except ValueError:  # an integer of thousands of digits: Python refuses to convert it (sys.get_int_max_str_digits)
        raise DeckError(f"{where} holds a number thousands of digits long: no deck has one; {FORMAT_HINT}") from None
    name = data.get("name", where)
    start = _cards(data, "start", where)
    patches = _cards(data, "patch", where)
    if not start:
        raise DeckError(f"{where} has no [[start]] cards: add at least one per player")
    if len(patches) < MIN_PATCH_CARDS:
        raise DeckError(
            f"{where} has {len(patches)} [[patch]] cards; a game deals {MIN_PATCH_CARDS}, so add "
            f"{MIN_PATCH_CARDS - len(patches)} more"
        )
    counts = Counter(card.id for card in start + patches)
    duplicates = sorted(card_id for card_id, count in counts.items() if count > 1)
    if duplicates:
        raise DeckError(f"{where}: card ids must be unique, repeated: {', '.join(duplicates)}")
    return Deck(str(name), tuple(start), tuple(patches))


def _cards(data: dict, key: str, where: str) -> list[Card]:
    entries = data.get(key, [])
    if not isinstance(entries, list):
        raise DeckError(f"{where}: '{key}' must be a list of [[{key}]] tables")
    cards = []
    for number, entry in enumerate(entries, start=1):
        label = f"{where}: [[{key}]] number {number}"
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not entry["id"].strip():
            raise DeckError(f"{label} needs an id, e.g. id = \"P01\"; {FORMAT_HINT}")
        label = f"{where}: card {entry['id']}"
        shape_text = entry.get("shape")
        if not isinstance(shape_text, str):
            raise DeckError(f"{label} needs a shape, e.g. shape = \"#.#/###\"; {FORMAT_HINT}")
        if shape_text.count(FILLED) > MAX_CELLS:  # counted before the shape is built and walked for connectivity
            raise DeckError(f"{label}: the shape has {shape_text.count(FILLED)} cells; at most {MAX_CELLS} are allowed")
        try:
            shape = Polyomino.from_text(shape_text)
        except ShapeError as error:
            raise DeckError(f"{label}: {error}") from None
        if not shape.is_connected():
            raise DeckError(
                f"{label}: the shape {_shown(shape_text)} is not connected; every cell must touch another side by side"
            )
        cards.append(Card(entry["id"].strip(), shape, str(entry.get("source", ""))))
    return cards


def _shown(text: str, limit: int = 40) -> str:
    """`text` quoted for a message, cut short when long."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"
