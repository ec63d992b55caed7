"""`greedy`: one ply. Every legal draw now (the card, a neighbour's card, a cut piece, or a pass) is scored by
the heuristic of `evaluate` looking at the next scoring only: the rectangle it can still reach, compactness
(edges of the empty area), walled-in holes, and what the special actions in hand are worth."""

from __future__ import annotations

from doodle.game.bots.evaluate import Weights
from doodle.game.bots.planner import PlanningBot

GREEDY_WEIGHTS = Weights(later_scorings=0.0)


def greedy_bot(**options) -> PlanningBot:
    return PlanningBot("greedy", weights=options.pop("weights", GREEDY_WEIGHTS), lookahead=False, **options)
