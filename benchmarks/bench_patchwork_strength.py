"""Patchwork bot strength: MCTS against greedy (or any two bots), alternating who starts, one seeded circle per
game. Run by hand, e.g. the issue's target (at least 90% wins at one second per move):

    python benchmarks/bench_patchwork_strength.py --games 100 --seconds 1 --log /tmp/mcts_vs_greedy.log

Each finished game appends one line to the log (and stderr), so a long run shows its progress and can be
stopped at any time with the tally so far; the summary goes to stdout as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time

from doodle.patchwork import Game
from doodle.patchwork.bots import BOT_NAMES, make_bot, play_game


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bot", choices=BOT_NAMES, default="mcts")
    parser.add_argument("--opponent", choices=BOT_NAMES, default="greedy")
    parser.add_argument("--seconds", type=float, default=1.0, help="MCTS thinking time per move")
    parser.add_argument("--iterations", type=int, default=None, help="MCTS playouts per move instead of seconds")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--edition", default="current")
    parser.add_argument("--log", default=None, help="append one line per game to this file")
    args = parser.parse_args()
    seconds = None if args.iterations else args.seconds
    wins, margins, started = 0, [], time.perf_counter()
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    try:
        for i in range(args.games):
            seed = args.seed + i
            bot = make_bot(args.bot, seed=seed, seconds=seconds, iterations=args.iterations)
            opponent = make_bot(args.opponent, seed=seed + 10**6, seconds=seconds, iterations=args.iterations)
            me = i % 2  # alternate who starts: the bot is player 0 (starts) in even games
            bots = (bot, opponent) if me == 0 else (opponent, bot)
            game = play_game(bots, Game.new(seed=seed, edition=args.edition))
            scores = game.scores()
            won = game.winner() == me
            wins += won
            margins.append(scores[me] - scores[1 - me])
            low, high = wilson(wins, i + 1)
            line = (
                f"game {i + 1}/{args.games} seed {seed} {args.bot} {'starts' if me == 0 else 'second'}: "
                f"{scores[me]} to {scores[1 - me]} {'WIN' if won else 'loss'}; "
                f"tally {wins}/{i + 1} = {wins / (i + 1):.0%} (95% CI {low:.0%}-{high:.0%}), "
                f"{time.perf_counter() - started:.0f} s"
            )
            print(line, file=sys.stderr, flush=True)
            if log:
                log.write(line + "\n")
                log.flush()
    except KeyboardInterrupt:
        print("stopped: the summary counts the games finished", file=sys.stderr)
    finally:
        if log:
            log.close()
    played = len(margins)
    low, high = wilson(wins, played)
    summary = {
        "bot": args.bot,
        "opponent": args.opponent,
        "budget": {"iterations": args.iterations} if args.iterations else {"seconds": args.seconds},
        "games": played,
        "wins": wins,
        "win_rate": round(wins / played, 3) if played else None,
        "win_rate_95ci": [round(low, 3), round(high, 3)],
        "mean_margin": round(statistics.mean(margins), 1) if margins else None,
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
