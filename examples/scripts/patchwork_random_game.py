"""A game of Patchwork between two random players, through the public API, then replayed from its record."""

import random

from doodle.patchwork import Game

rng = random.Random(1)
game = Game.new(seed=1)
while not game.is_over():
    game.play(rng.choice(game.legal_moves()))
print(game)
print(f"scores {game.scores()}, winner: player {game.winner() + 1}")
assert Game.from_record(game.to_record()).scores() == game.scores()
