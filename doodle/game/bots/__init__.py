"""Bots that play Patchwork Doodle through the same rules engine as people.

    bot = get_bot("expert")
    game = play_solo(bot, seed=7)
    game.totals()[0]

A bot's `act(game, player)` returns the actions of that player's pending decision: the start card's DrawPatch;
on a turn or the final turn any draw and single squares, ending with EndTurn(); during an intermediate scoring
optional SingleSquare actions, then EndTurn(). The caller applies them with `game.apply`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from doodle.game.bots.expert import expert_bot
from doodle.game.bots.greedy import greedy_bot
from doodle.game.dealer import Phase
from doodle.game.deck import Deck
from doodle.game.errors import GameError
from doodle.game.game import DoodleGame
from doodle.game.sheet import Action

BOT_NAMES = ("greedy", "expert")
TURNS_PER_GAME = 18


class Bot(Protocol):
    name: str

    def act(self, game: DoodleGame, player: int) -> list[Action]: ...


_FACTORIES = {"greedy": greedy_bot, "expert": expert_bot}


def get_bot(name: str, **options) -> Bot:
    """The bot called `name`; GameError (a ValueError) names the valid names."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise GameError(f"unknown bot {name!r}: choose one of {', '.join(BOT_NAMES)}") from None
    return factory(**options)


def play_solo(bot: Bot, seed: int | None = None, deck: Deck | None = None,
              progress: Callable[[int, int], None] | None = None) -> DoodleGame:
    """A whole 1-player game played by `bot`; `progress(turns_done, 18)` is called after every turn."""
    game = DoodleGame.new(1, seed, deck, names=[bot.name])
    done = 0
    while not game.is_over():
        on_turn = game.phase in (Phase.TURN, Phase.FINAL) and not game.sheets[0].needs_start()
        actions = bot.act(game, 0)
        if not actions:
            raise RuntimeError(f"bot {bot.name} has no action in the {game.phase.value} phase")
        for action in actions:
            game.apply(0, action)
        if on_turn:
            done += 1
            if progress:
                progress(done, TURNS_PER_GAME)
    return game


__all__ = ["BOT_NAMES", "Bot", "get_bot", "play_solo"]
