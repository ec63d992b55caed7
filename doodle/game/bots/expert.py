"""`expert`: looks ahead. Every legal draw is scored with all the scorings still to come in view (the next
rectangle, the bigger ones after it, the final penalty for empty cells); the best of them are re-scored by the
expected worth of the next card's best draw, the next card being one of three known cards (the die shows 1, 1,
2, 2, 3, 3) or, after a scoring, any unseen card. Special actions are spent when a draw with them is worth more
than keeping them; single squares complete a rectangle at a scoring and fill holes at the end."""

from __future__ import annotations

from doodle.game.bots.evaluate import Weights
from doodle.game.bots.planner import PlanningBot

# Tuned by hand over seeds 2000..2079 (the benchmark uses seeds 0..199): see benchmarks/bench_bots.py.
EXPERT_WEIGHTS = Weights(
    later_scorings=0.3, final_price=3.0, pocket=0.5, pocket_extra=0.5,
    pocket_hardness=(3.0, 1.5, 1.0, 0.75, 0.5, 0.3), pocket_size=3, single=6.0, twice=5.0,
)


def expert_bot(**options) -> PlanningBot:
    return PlanningBot("expert", weights=options.pop("weights", EXPERT_WEIGHTS), lookahead=True, **options)
