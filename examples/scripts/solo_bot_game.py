"""A solo game of Patchwork Doodle played by a bot, its record re-checked by a replay.

    python3 examples/scripts/solo_bot_game.py [SEED] [BOT]     # defaults: seed 7, the greedy bot
"""

import json
import sys

from doodle.game import DoodleGame
from doodle.game.bots import get_bot, play_solo

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 7
bot_name = sys.argv[2] if len(sys.argv) > 2 else "greedy"
game = play_solo(get_bot(bot_name), seed=seed)
sheet = game.sheets[0]
print(sheet.quilt)
print(f"rounds {sheet.round_scores}, {sheet.quilt.empty_count()} empty, total {sheet.total()}")
replayed = DoodleGame.replay(json.loads(json.dumps(game.to_record())))
assert replayed.totals() == game.totals()
print("the record replays to the same total")
