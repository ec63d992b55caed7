"""The dealer at a real table: the players keep their own sheets on paper, so the table only deals, rolls and
announces. `table_events` steps a `Dealer` through a whole game and yields one event per step, as the JSON
lines of `doodle deal --auto --json` (contract in design.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from doodle.game.dealer import Dealer, Phase

Event = dict[str, Any]


def table_events(dealer: Dealer) -> Iterator[Event]:
    """Yield `setup`, then per turn a `turn` event (rolling lazily, so a caller can pause before each roll),
    a `scoring` event after each round, a `round` event when a new round is laid out, and `end`."""
    yield {
        "event": "setup",
        "seed": dealer.seed,
        "players": dealer.players,
        "deck": dealer.deck.name,
        "start_cards": list(dealer.start_cards),
        "circle": list(dealer.circle),
    }
    while dealer.phase != Phase.OVER:
        if dealer.phase == Phase.ROLL:
            circle = list(dealer.circle)
            roll = dealer.roll()
            before, after = dealer.neighbours()
            yield {
                "event": "turn",
                "round": dealer.round,
                "turn": dealer.turn,
                "roll": roll,
                "circle": circle,
                "card": dealer.current_card,
                "neighbours": [before, after],
            }
            dealer.end_turn()
        elif dealer.phase == Phase.FINAL:
            yield {
                "event": "turn",
                "round": dealer.round,
                "turn": dealer.turn,
                "roll": None,
                "circle": list(dealer.circle),
                "choices": list(dealer.circle),
            }
            dealer.end_turn()
        elif dealer.phase == Phase.SCORING:
            yield {"event": "scoring", "round": dealer.round}
            dealer.end_scoring()
            if dealer.phase == Phase.ROLL:
                yield {"event": "round", "round": dealer.round, "circle": list(dealer.circle)}
    yield {"event": "end", "seed": dealer.seed}
