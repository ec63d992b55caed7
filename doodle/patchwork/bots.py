"""Bots for Patchwork: random, greedy (one-move static evaluation) and MCTS (UCT with a heuristic playout).

Every bot has `name` and `choose(game) -> Move`, and never changes the game it is given.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from doodle.geometry import Polyomino
from doodle.patchwork.errors import PatchworkError
from doodle.patchwork.evaluation import contact_order, fitting, leather_choices, move_value, neighbours
from doodle.patchwork.game import CHOICES, Game
from doodle.patchwork.moves import ADVANCE, LEATHER_MOVES, Move, placement_of
from doodle.patchwork.patches import PATCHES, TRACK_END, marks_left
from doodle.quilt import FULL, SIZE

BOT_NAMES = ("random", "greedy", "mcts")


class RandomBot:
    """Uniform over the legal moves."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        return self.rng.choice(game.legal_moves())


class GreedyBot:
    """The legal move of highest static value (doodle.patchwork.evaluation.move_value); ties to the first."""

    name = "greedy"

    def choose(self, game: Game) -> Move:
        return max(game.legal_moves(), key=lambda move: move_value(game, move))


# ----- MCTS -----
# For each patch, each distinct orientation as (cell offsets from the top-left, anchors where it stays on the
# board, its mask at the top-left). The playouts find, per orientation, the top-most (then left-most) place
# where the patch fits with a few shifts and ANDs of the empty cells, instead of trying every placement.
def _orientation_table(shape: Polyomino) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    table = []
    for oriented in shape.orientations():
        offsets = tuple(r * SIZE + c for r, c in sorted(oriented.cells))
        anchors = sum(
            1 << (r * SIZE + c) for r in range(SIZE - oriented.height + 1) for c in range(SIZE - oriented.width + 1)
        )
        table.append((offsets, anchors, sum(1 << off for off in offsets)))
    return tuple(table)


_ORIENTATIONS = tuple(_orientation_table(patch.shape) for patch in PATCHES)


def first_fit(number: int, bits: int) -> Move | None:
    """A snug placement of patch `number` on quilt `bits`, found fast: of each orientation's top-most, left-most
    fitting place, the one touching the fewest empty cells (then the top-most); None when nothing fits."""
    empty = FULL & ~bits
    best_mask, best_key = 0, None
    for offsets, anchors, base in _ORIENTATIONS[number]:
        valid = anchors
        for offset in offsets:
            valid &= empty >> offset
            if not valid:
                break
        else:
            mask = base * (valid & -valid)
            key = (mask.bit_length(), (neighbours(mask) & empty & ~mask).bit_count())
            if best_key is None or key < best_key:
                best_mask, best_key = mask, key
    return None if best_key is None else placement_of(number, best_mask)


def candidate_moves(game: Game, placements: int = 3) -> list[Move]:
    """The moves a search considers: advance and, for each affordable patch, the `placements` best-packed
    placements; while a leather patch waits, the two best cells. Ordered best first by static value."""
    p = game.current_player
    if p is None:
        return []
    bits = game.quilt_bits(p)
    if game.pending_leather:
        moves = leather_choices(bits)[:2]
    else:
        moves = [ADVANCE]
        budget = game.buttons[p]
        for n in game.circle[:CHOICES]:
            if PATCHES[n].cost <= budget:
                snug = contact_order(bits, fitting(game, n))[: 3 * placements]
                snug.sort(key=lambda move: -move_value(game, move))
                moves += snug[:placements]
    moves.sort(key=lambda move: -move_value(game, move))
    return moves


def playout(game: Game, rng: random.Random, noise: float = 2.0) -> None:
    """Play `game` to the end with a fast heuristic policy: take the patch (placed by first fit) or advance,
    whichever scores best by a quick static value plus Gaussian noise; leather patches go into holes first."""
    gauss = rng.gauss
    while True:
        p = game.current_player
        if p is None:
            return
        bits = game.quilt_bits(p)
        if game.pending_leather:
            empty = FULL & ~bits
            holes = empty & ~neighbours(empty)
            target = holes or empty
            game.push(LEATHER_MOVES[(target & -target).bit_length() - 1])
            continue
        position = game.positions[p]
        buttons = game.buttons[p]
        ahead = marks_left(position)
        best, best_value = ADVANCE, gauss(0.0, noise)
        for n in game.circle[:CHOICES]:
            patch = PATCHES[n]
            if patch.cost > buttons:
                continue
            value = 2 * patch.size + patch.buttons * ahead - patch.cost - min(patch.time, TRACK_END - position)
            value += gauss(0.0, noise)
            if value > best_value:
                move = first_fit(n, bits)
                if move is not None:
                    best, best_value = move, value
        game.push(best)


@dataclass(eq=False)
class _Node:
    move: Move | None
    parent: _Node | None
    player: int | None  # who played `move` (the reward is theirs)
    untried: list[Move]
    children: list[_Node] = field(default_factory=list)
    visits: int = 0
    reward: float = 0.0


class MctsBot:
    """Monte Carlo tree search (UCT) over the candidate moves, with heuristic playouts to the end of the game.

    The budget is `iterations` playouts or `seconds` of thinking per move (whichever is given; both: the first
    reached). The reward is mostly the win, a little the score margin, so that the search prefers safer wins.
    """

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int | None = None,
        exploration: float = 0.7,
        placements: int = 3,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 1000
        if (iterations is not None and iterations < 1) or (seconds is not None and seconds <= 0):
            raise PatchworkError("the MCTS budget must be at least one iteration or a positive number of seconds")
        self.iterations = iterations
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.placements = placements
        self.last_iterations = 0

    def choose(self, game: Game) -> Move:
        if game.current_player is None:
            raise PatchworkError("the game is over: there is no move to choose")
        root = _Node(None, None, None, candidate_moves(game, self.placements))
        if len(root.untried) == 1:
            self.last_iterations = 0
            return root.untried[0]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            self._iterate(root, game.copy())
            done += 1
        self.last_iterations = done
        best = max(root.children, key=lambda child: child.visits)
        return best.move  # type: ignore[return-value]

    def _iterate(self, root: _Node, game: Game) -> None:
        node = root
        log = math.log
        c = self.exploration
        while not node.untried and node.children:
            scale = log(node.visits)
            node = max(
                node.children,
                key=lambda ch: ch.reward / ch.visits + c * math.sqrt(scale / ch.visits),
            )
            game.push(node.move)  # type: ignore[arg-type]
        if node.untried:
            move = node.untried.pop(0)
            mover = game.current_player
            game.push(move)
            child = _Node(move, node, mover, candidate_moves(game, self.placements))
            node.children.append(child)
            node = child
        playout(game, self.rng)
        scores = game.scores()
        winner = game.winner()
        while node is not None:
            node.visits += 1
            if node.player is not None:
                q = node.player
                margin = max(-1.0, min(1.0, (scores[q] - scores[1 - q]) / 40))
                node.reward += (0.9 if winner == q else 0.0) + 0.05 * (1 + margin)
            node = node.parent


def make_bot(name: str, seed: int | None = None, seconds: float | None = None, iterations: int | None = None):
    """A bot by name ("random", "greedy" or "mcts"); the budget applies to MCTS only."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    if name == "mcts":
        return MctsBot(iterations=iterations, seconds=seconds, seed=seed)
    raise PatchworkError(f"unknown bot {name!r}: choose one of {', '.join(BOT_NAMES)}")


def play_game(bots, game: Game) -> Game:
    """Let `bots` (player 0's, player 1's) play `game` to the end; returns the same game."""
    while not game.is_over():
        player = game.current_player
        game.play(bots[player].choose(game), player=player)  # type: ignore[index]
    return game
