"""The state of a 2-player game of Patchwork: whose turn, legal moves, play and undo, scores.

In the spirit of python-chess's Board and OpenSpiel's State: a mutable position with `play(move)` and
`undo()`, players 0 and 1. Quilts are 81-bit ints; each `play` pushes a snapshot of the few fields, so `undo`
restores the position exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from doodle.patchwork.display import position_text
from doodle.patchwork.errors import IllegalMoveError, NotationError, PatchworkError, PatchworkRecordError, is_int, shown
from doodle.patchwork.moves import (
    ADVANCE,
    BONUS_SQUARES,
    LEATHER_MOVES,
    MASKS,
    PLACEMENTS,
    Move,
    MoveSyntaxError,
    engine_move,
    parse_move,
)
from doodle.patchwork.notation import Position, Side, read_position, write_position
from doodle.patchwork.patches import (
    BONUS_POINTS,
    CHOICES,
    EDITIONS,
    LEATHER,
    PATCHES,
    START_BUTTONS,
    START_PATCH,
    TRACK_END,
    Patch,
    marks_passed,
)
from doodle.patchwork.record import make_record, read_record
from doodle.quilt import FULL, SIZE, Quilt, already_covered, cells_of

__all__ = ["CHOICES", "Game", "IllegalMoveError", "PlayerView"]


@dataclass(frozen=True)
class PlayerView:
    """One player's side, for display: track position, buttons, income, quilt."""

    position: int
    buttons: int
    income: int
    quilt: Quilt


class Game:
    """A game of Patchwork for two players (0 and 1); player `first` starts, with the token on top."""

    __slots__ = (
        "edition", "leather_track", "order", "first", "_circle", "_pos", "_buttons", "_income", "_bits",
        "_top", "_bonus", "_pending", "_placer", "_first_end", "_stack", "_moves", "start",
    )  # fmt: skip

    def __init__(self, order: Iterable[int], edition: str = "current", first: int = 0) -> None:
        """PatchworkError (a ValueError) when the circle, the edition or the first player is not one."""
        try:
            order = tuple(order)
        except TypeError:
            raise PatchworkError(f"the circle is a sequence of patch numbers, not {type(order).__name__}") from None
        if not isinstance(edition, str) or edition not in LEATHER:
            raise PatchworkError(f"unknown edition {shown(edition)}: choose one of {', '.join(EDITIONS)}")
        if not _is_player(first):
            raise PatchworkError(f"the first player is 0 or 1, not {shown(first)}")
        unknown = [n for n in order if not (is_int(n) and 0 <= n < len(PATCHES))]
        if unknown:
            last = len(PATCHES) - 1
            raise PatchworkError(f"unknown patch number {shown(unknown[0])}: patches are numbered 0 to {last}")
        if len(set(order)) != len(order):
            twice = next(n for n in order if order.count(n) > 1)
            raise PatchworkError(f"patch {twice} appears twice in the circle")
        self.edition = edition
        self.leather_track: tuple[int, ...] = LEATHER[edition]
        self.order = order
        self.first = first
        self._circle: tuple[int, ...] = order
        self._pos = [0, 0]
        self._buttons = [START_BUTTONS, START_BUTTONS]
        self._income = [0, 0]
        self._bits = [0, 0]
        self._top = first
        self._bonus: int | None = None
        self._pending = 0  # leather patches that player `_placer` must place now
        self._placer = first
        self._first_end: int | None = None
        self._stack: list[_GameState] = []
        self._moves: list[Move] = []
        self.start: str | None = None  # the notation this game was read from, if any

    # ----- construction -----
    @classmethod
    def new(
        cls, seed: int | None = None, edition: str = "current", order: Iterable[int] | None = None, first: int = 0
    ) -> Game:
        """A new game: the circle is `order` (patch numbers clockwise from the neutral token) or, by default, the
        32 other patches shuffled with `seed` and the 1x2 starting patch last."""
        if order is None:
            others = [n for n in range(len(PATCHES)) if n != START_PATCH]
            random.Random(seed).shuffle(others)
            order = [*others, START_PATCH]
        return cls(order, edition=edition, first=first)

    def copy(self) -> Game:
        """An independent copy, history included."""
        other = Game.__new__(Game)
        other.edition, other.leather_track, other.order, other.first, other.start = (
            self.edition, self.leather_track, self.order, self.first, self.start,
        )  # fmt: skip
        self._state().restore(other)
        other._stack = list(self._stack)
        other._moves = list(self._moves)
        return other

    # ----- reading the position -----
    @property
    def current_player(self) -> int | None:
        """The player to move: the one further back on the time track, the one on top on a shared space;
        the player placing a leather patch; None when the game is over."""
        if self._pending:
            return self._placer
        a, b = self._pos
        if a == b == TRACK_END:
            return None
        return 0 if a < b else 1 if b < a else self._top

    def quilt_bits(self, player: int) -> int:
        """Player `player`'s quilt as its 81-bit int (bit row*9+col), without building a Quilt: for searches."""
        return self._bits[player]

    @property
    def positions(self) -> tuple[int, int]:
        return (self._pos[0], self._pos[1])

    @property
    def buttons(self) -> tuple[int, int]:
        return (self._buttons[0], self._buttons[1])

    @property
    def income(self) -> tuple[int, int]:
        """Buttons printed on each player's patches: paid on every income mark the player passes."""
        return (self._income[0], self._income[1])

    @property
    def quilts(self) -> tuple[Quilt, Quilt]:
        return (Quilt(self._bits[0]), Quilt(self._bits[1]))

    @property
    def bonus_owner(self) -> int | None:
        """The player holding the 7x7 bonus tile, or None."""
        return self._bonus

    @property
    def on_top(self) -> int:
        """The player whose time token is on top (moves first when both stand on the same space)."""
        return self._top

    @property
    def pending_leather(self) -> int:
        """Leather patches the player to move must place before anything else."""
        return self._pending

    @property
    def first_to_end(self) -> int | None:
        """The player who reached the last space first (wins a tie)."""
        return self._first_end

    @property
    def circle(self) -> tuple[int, ...]:
        """The patches left, clockwise from the neutral token."""
        return self._circle

    def choices(self) -> tuple[Patch, ...]:
        """The (up to) three patches the player to move may choose from."""
        return tuple(PATCHES[n] for n in self._circle[:CHOICES])

    def leather_left(self) -> tuple[int, ...]:
        """Spaces of the leather patches still on the track (taken by the first token to pass them)."""
        ahead = max(self._pos)
        return tuple(space for space in self.leather_track if space > ahead)

    def player(self, index: int) -> PlayerView:
        return PlayerView(self._pos[index], self._buttons[index], self._income[index], Quilt(self._bits[index]))

    @property
    def move_stack(self) -> tuple[Move, ...]:
        """The moves played since this game was set up (or read from a notation)."""
        return tuple(self._moves)

    # ----- ending -----
    def is_over(self) -> bool:
        return self._pos[0] == self._pos[1] == TRACK_END and not self._pending

    def scores(self) -> tuple[int, int]:
        """Buttons, less 2 per empty cell, plus 7 for the bonus tile (the standing so far while playing)."""
        return (self._score(0), self._score(1))

    def _score(self, p: int) -> int:
        empty = SIZE * SIZE - self._bits[p].bit_count()
        return self._buttons[p] - 2 * empty + (BONUS_POINTS if self._bonus == p else 0)

    def winner(self) -> int | None:
        """The winner once the game is over (a tie goes to the player who reached the end first), else None."""
        if not self.is_over():
            return None
        a, b = self.scores()
        if a != b:
            return 0 if a > b else 1
        return self._first_end

    # ----- moves -----
    def legal_moves(self) -> list[Move]:
        """Every legal move, each placement once: advance, then the placements of each affordable patch among
        the next three; while a leather patch waits, only its placements (one per empty cell)."""
        p = self.current_player
        if p is None:
            return []
        bits = self._bits[p]
        if self._pending:
            return [move for move in LEATHER_MOVES if not move.mask & bits]
        moves = [ADVANCE]
        budget = self._buttons[p]
        for n in self._circle[:CHOICES]:
            if PATCHES[n].cost <= budget:
                moves += [move for move, mask in zip(PLACEMENTS[n], MASKS[n], strict=True) if not mask & bits]
        return moves

    def is_legal(self, move: Move) -> bool:
        return self.why_illegal(move) is None

    def why_illegal(self, move: Move, player: int | None = None) -> str | None:
        """None when `move` is legal for the player to move (and for `player`, if given), else the reason.
        A move built outside the engine is judged by its fields (see moves.engine_move)."""
        try:
            move = engine_move(move)
        except IllegalMoveError as error:
            return str(error)
        return self._why_illegal(move, player)

    def _why_illegal(self, move: Move, player: object) -> str | None:
        """The reason a move of the engine's own is illegal here, or None."""
        if player is not None and not _is_player(player):
            return f"the player is 0 or 1 (or None for the one to move), not {shown(player)}"
        p = self.current_player
        if p is None:
            return "the game is over"
        if player is not None and player != p:
            return f"it is not player {player + 1}'s turn: player {p + 1} moves"  # type: ignore[operator]
        bits = self._bits[p]
        if self._pending:
            if move.kind != "leather":
                return f"player {p + 1} must first place the leather patch (a 1x1 patch) on an empty cell"
            if move.mask & bits:
                return f"the leather patch does not fit: {already_covered(cells_of(move.mask & bits))}"
            return None
        if move.kind == "advance":
            return None
        if move.kind == "leather":
            return "there is no leather patch to place now"
        if move.patch not in self._circle[:CHOICES]:
            where = "already taken" if move.patch not in self._circle else "not one of the next three"
            offered = ", ".join(str(n) for n in self._circle[:CHOICES]) or "none"
            return f"patch {move.patch} is {where} (you may choose from: {offered})"
        patch = PATCHES[move.patch]  # type: ignore[index]
        if patch.cost > self._buttons[p]:
            have = self._buttons[p]
            return f"cannot afford patch {patch.number}: it costs {patch.cost} buttons, player {p + 1} has {have}"
        if move.mask & bits:
            return f"patch {patch.number} does not fit there: {already_covered(cells_of(move.mask & bits))}"
        return None

    def play(self, move: Move, player: int | None = None) -> None:
        """Play `move` (for `player`, when given, who must be the one to move). IllegalMoveError says why not:
        also for anything that is not a well-formed move (None, a move whose mask disagrees with its cells,
        a cell off the board), so that every game played through here has a record that replays."""
        move = engine_move(move)
        reason = self._why_illegal(move, player)
        if reason is not None:
            raise IllegalMoveError(reason)
        self.push(move)

    def push(self, move: Move) -> None:
        """Play `move` with no checks at all, for searches that play thousands of moves from legal_moves()
        (like python-chess's Board.push). A move that is not legal here leaves a position the rules cannot
        reach: use play() for any move that comes from outside."""
        self._stack.append(self._state())
        self._moves.append(move)
        self._apply(move)

    def undo(self) -> Move:
        """Take back the last move and return it; IndexError when there is none."""
        if not self._stack:
            raise IndexError("no move to undo")
        self._stack.pop().restore(self)
        return self._moves.pop()

    def _apply(self, move: Move) -> None:
        p = self.current_player
        assert p is not None
        kind = move.kind
        if kind == "leather":
            self._bits[p] |= move.mask
            self._pending -= 1
            self._after_cover(p)
            return
        start = self._pos[p]
        if kind == "advance":
            end = min(self._pos[1 - p] + 1, TRACK_END)
            self._buttons[p] += end - start
        else:
            patch = PATCHES[move.patch]  # type: ignore[index]
            i = self._circle.index(patch.number)
            self._circle = self._circle[i + 1 :] + self._circle[:i]
            self._buttons[p] -= patch.cost
            self._income[p] += patch.buttons
            self._bits[p] |= move.mask
            end = min(start + patch.time, TRACK_END)
        self._pos[p] = end
        if end == self._pos[1 - p]:
            self._top = p
        paid = marks_passed(start, end)
        if paid:
            self._buttons[p] += paid * self._income[p]
        for space in self.leather_track:
            if start < space <= end and space > self._pos[1 - p]:
                self._pending += 1
                self._placer = p
        if end == TRACK_END and self._first_end is None:
            self._first_end = p
        self._after_cover(p)

    def _after_cover(self, p: int) -> None:
        bits = self._bits[p]
        if self._pending and bits == FULL:
            self._pending = 0  # no room: the leather patch is discarded
        if self._bonus is None and bits.bit_count() >= 49:
            for square in BONUS_SQUARES:
                if bits & square == square:
                    self._bonus = p
                    break

    def _state(self) -> _GameState:
        return _GameState(
            self._circle, tuple(self._pos), tuple(self._buttons), tuple(self._income), tuple(self._bits),  # type: ignore[arg-type]
            self._top, self._bonus, self._pending, self._placer if self._pending else -1, self._first_end,
        )  # fmt: skip

    def state_key(self) -> tuple:
        """A hashable value equal for equal positions (history aside)."""
        return (self.edition, *self._state())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]  # a game changes as it is played: hash state_key() instead

    # ----- text forms -----
    def notation(self) -> str:
        """The position as one line (see doodle.patchwork.notation); Game.from_notation reads it back."""
        sides = tuple(Side(self._pos[i], self._buttons[i], self._income[i], self._bits[i]) for i in (0, 1))
        leather = (self._placer, self._pending) if self._pending else None
        return write_position(
            Position(self.edition, self._circle, sides, self._top, self._bonus, leather, self._first_end)  # type: ignore[arg-type]
        )

    @classmethod
    def from_notation(cls, text: str) -> Game:
        """The game at the position `text` (no history to undo); NotationError says what is wrong, also when the
        fields cannot go together (a bonus tile without a filled 7x7 square, ...)."""
        position = read_position(text)
        try:
            game = cls(position.circle, edition=position.edition, first=position.on_top)
        except PatchworkError as error:
            raise NotationError(f"circle: {error}") from None
        placer, pending = position.leather or (-1, 0)
        _GameState(
            position.circle, *(tuple(side[k] for side in position.sides) for k in range(4)),  # type: ignore[arg-type]
            position.on_top, position.bonus, pending, placer, position.first_to_end,
        ).restore(game)  # fmt: skip
        game._check_position()
        game.start = game.notation()
        return game

    def _check_position(self) -> None:
        """NotationError when the fields read from a position text cannot go together."""
        if self._pending and not 1 <= self._pending <= len(self.leather_track):
            raise NotationError(f"leather: {self._pending} leather patches cannot be waiting")
        bonus_quilts = [i for i in (0, 1) if any(self._bits[i] & sq == sq for sq in BONUS_SQUARES)]
        if self._bonus is not None and self._bonus not in bonus_quilts:
            raise NotationError(f"bonus: player {self._bonus}'s quilt has no filled 7x7 square")
        if self._bonus is None and bonus_quilts:
            raise NotationError(
                f"bonus: player {bonus_quilts[0]}'s quilt has a filled 7x7 square, so someone has the tile"
            )
        if self._first_end is not None and self._pos[self._first_end] != TRACK_END:
            raise NotationError(f"end: player {self._first_end} is not on space {TRACK_END}")
        if self._first_end is None and TRACK_END in self._pos:
            raise NotationError(f"end: a player is on space {TRACK_END}, so say who reached it first")
        if self._pending and self._bits[self._placer] == FULL:
            raise NotationError("leather: the placer's quilt is full, so no leather patch can wait")

    def to_record(self) -> dict[str, Any]:
        """The record of this game: its setup (edition, circle order, first player, or a start position), the
        moves in text form (see Move.text), and the outcome so far. JSON-ready."""
        return make_record(
            self.edition, self.start, self.order, self.first, [move.text() for move in self._moves], self.notation(),
            self.is_over(), self.scores(), self.winner(),
        )  # fmt: skip

    @classmethod
    def from_record(cls, record: Any) -> Game:
        """The game that `record` (a parsed JSON value) describes, every field and move checked;
        PatchworkRecordError names what does not replay."""
        setup = read_record(record)
        try:
            if setup.start is not None:
                game = cls.from_notation(setup.start)
                if game.edition != (setup.edition or game.edition):
                    raise PatchworkRecordError("the edition and the start position disagree")
            else:
                game = cls(setup.order, edition=setup.edition or "current", first=setup.first)  # type: ignore[arg-type]
        except PatchworkRecordError:
            raise
        except PatchworkError as error:
            raise PatchworkRecordError(f"bad setup: {error}") from None
        for number, text in enumerate(setup.moves, 1):
            try:
                game.play(parse_move(text))
            except (MoveSyntaxError, IllegalMoveError) as error:
                raise PatchworkRecordError(f"move {number} ({text!r}) does not replay: {error}") from None
        actual = {"position": game.notation(), "scores": list(game.scores()), "winner": game.winner()}
        for key, claimed in setup.claims.items():
            if claimed != actual[key]:
                raise PatchworkRecordError(
                    f"the record says {key} {shown(claimed)}, but its moves give {actual[key]!r}"
                )
        return game

    def __repr__(self) -> str:
        return f"Game.from_notation({self.notation()!r})"

    def __str__(self) -> str:
        """The position drawn in text: the track, both quilts, the next patches, whose turn it is."""
        return position_text(self)


class _GameState(NamedTuple):
    """What play() changes, kept for undo (like python-chess's _BoardState): restore() puts it back."""

    circle: tuple[int, ...]
    positions: tuple[int, int]
    buttons: tuple[int, int]
    income: tuple[int, int]
    bits: tuple[int, int]
    on_top: int
    bonus: int | None
    pending: int
    placer: int  # -1 when no leather patch waits
    first_end: int | None

    def restore(self, game: Game) -> None:
        game._circle = self.circle
        game._pos, game._buttons = list(self.positions), list(self.buttons)
        game._income, game._bits = list(self.income), list(self.bits)
        game._top, game._bonus, game._pending, game._placer, game._first_end = (
            self.on_top, self.bonus, self.pending, self.placer, self.first_end,
        )  # fmt: skip


def _is_player(value: object) -> bool:
    return is_int(value) and value in (0, 1)
