"""The table's state: the seats, the deal (the engine's `Dealer`, stepped by `table_events`, the very generator
`doodle deal` runs, so the web table and the terminal dealer cannot disagree), who is done, and the scores.

Web-free: the ASGI app in `doodle.table.app` only authenticates clients, calls these methods and sends each
client `host_view()` or `seat_view(seat)`. Every method that changes something raises `TableError` with a message
for the person, and changes nothing when it refuses.

The stages follow the events of `table_events`: `lobby` (before the deal), `start` (each player draws their start
card), `turn`, `final` (the last turn: three choices, no roll), `scoring` (after turn 6: each player's rectangle
score, and the empty cells after round 3), `round` (the next round laid out, waiting for the roll) and `over`.
DECISION: the table moves on from `start`, `turn` and `final` when every player is done (with auto-roll on) or
when the host says so; from `scoring` only when the host says so, so everyone sees the scoreboard first.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from doodle.game.dealer import MAX_PLAYERS, ROUNDS, TURNS_PER_ROUND, Dealer, Phase
from doodle.game.deck import Deck
from doodle.game.table import Event, table_events
from doodle.quilt import POSSIBLE_ROUND_SCORES, SIZE, Quilt

MAX_NAME = 24
ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: they read as 1 and 0
ROOM_CODE_LENGTH = 4


class TableError(ValueError):
    """A request the table refuses; the message says why and what to do, and is shown to the person."""


class Stage(StrEnum):
    LOBBY = "lobby"
    START = "start"
    TURN = "turn"
    FINAL = "final"
    SCORING = "scoring"
    ROUND = "round"
    OVER = "over"


PLAYERS_ACT = (Stage.START, Stage.TURN, Stage.FINAL)
"""The stages where each player says "done" (drew the card, or passed)."""


def new_room_code() -> str:
    return "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(18)


def token_hash(token: str) -> str:
    """What the save keeps of a phone's seat token: a phone proves its seat, the file does not give it away."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any) -> str:
    """A player's name as shown: text without control characters, spaces collapsed, 1 to MAX_NAME characters."""
    if not isinstance(name, str):
        raise TableError("a name must be text")
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if not text:
        raise TableError("type a name")
    if len(text) > MAX_NAME:
        raise TableError(f"a name has at most {MAX_NAME} characters")
    if any(unicodedata.category(char).startswith("C") for char in text):
        raise TableError("a name cannot hold control characters")
    return text


@dataclass
class Seat:
    """A player at the table. `token_hash` is set while a phone holds the seat; `placeholder` marks a seat made by
    --players that the first phone to join takes (and names), before or after the deal."""

    id: int
    name: str
    token_hash: str | None = None
    placeholder: bool = False

    @property
    def has_phone(self) -> bool:
        return self.token_hash is not None


@dataclass
class ScoreEntry:
    """One player's scoring of one round: the rectangle's points (None until given) and who gave them. The empty
    cells belong to the last round's entry. A score read from a photo keeps the quilt the player confirmed (its
    rows) and the checks the player confirmed anyway (`overruled`: the player's explicit word)."""

    points: int | None = None
    empty: int | None = None
    by: str | None = None  # "phone", "host" or "photo"
    quilt: list[str] | None = None
    overruled: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"points": self.points, "empty": self.empty, "by": self.by}
        if self.quilt is not None:
            data.update(quilt=self.quilt, overruled=self.overruled)
        return data

    @classmethod
    def from_json(cls, data: Any) -> ScoreEntry:
        if not isinstance(data, dict):
            raise ValueError(f"a score entry is an object, not {data!r}")
        points, empty, by = data.get("points"), data.get("empty"), data.get("by")
        check_points(points, allow_none=True)
        check_empty(empty, allow_none=True)
        if by not in (None, "phone", "host", "photo"):
            raise ValueError(f"a score entry's 'by' is phone, host or photo, not {by!r}")
        quilt, overruled = data.get("quilt"), data.get("overruled", [])
        if quilt is not None:
            if not isinstance(quilt, list) or not all(isinstance(row, str) for row in quilt):
                raise ValueError("a score entry's 'quilt' is a list of 9 rows like '##.......'")
            quilt = Quilt.from_rows(quilt).rows()  # QuiltTextError (a ValueError) names what is wrong
        if not isinstance(overruled, list) or not all(isinstance(o, str) for o in overruled):
            raise ValueError("a score entry's 'overruled' is a list of the checks the player confirmed anyway")
        return cls(points, empty, by, quilt, overruled)


def check_points(points: Any, allow_none: bool = False) -> None:
    if points is None and allow_none:
        return
    if not isinstance(points, int) or isinstance(points, bool):
        raise TableError("a round score is a whole number")
    if points not in POSSIBLE_ROUND_SCORES:
        raise TableError(f"no rectangle on a 9x9 grid scores {points}: count your rectangle again "
                         "(the largest square inside it, plus 1 per further row or column)")


def check_empty(empty: Any, allow_none: bool = False) -> None:
    if empty is None and allow_none:
        return
    if not isinstance(empty, int) or isinstance(empty, bool) or not 0 <= empty <= SIZE * SIZE:
        raise TableError(f"the empty cells are a whole number from 0 to {SIZE * SIZE}")


@dataclass
class TableSession:
    """One table: the seats and one game of Patchwork Doodle dealt by the engine."""

    deck: Deck
    seed: int | None = None
    auto_roll: bool = True
    room_code: str = field(default_factory=new_room_code)
    seats: list[Seat] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    done: set[int] = field(default_factory=set)  # seat ids
    scores: dict[int, list[ScoreEntry]] = field(default_factory=dict)  # seat id -> one entry per round
    version: int = 0  # bumped on every change; clients render the newest state
    dealer: Dealer | None = field(default=None, repr=False)
    _deal: Iterator[Event] | None = field(default=None, repr=False)
    next_seat_id: int = 1  # seat ids are not reused within a game

    @classmethod
    def new(cls, deck: Deck, players: int = 0, seed: int | None = None, auto_roll: bool = True) -> TableSession:
        """A table in the lobby; `players` placeholder seats ("Player 1"...) are taken by the first phones."""
        session = cls(deck=deck, seed=seed, auto_roll=auto_roll)
        for number in range(1, players + 1):
            session._add_seat(f"Player {number}", placeholder=True)
        return session

    # ----- where the game is -----
    @property
    def stage(self) -> Stage:
        if not self.events:
            return Stage.LOBBY
        last = self.events[-1]
        kind = last["event"]
        if kind == "turn":
            return Stage.TURN if last["roll"] is not None else Stage.FINAL
        return {"setup": Stage.START, "scoring": Stage.SCORING, "round": Stage.ROUND, "end": Stage.OVER}[kind]

    @property
    def step(self) -> int:
        """How many table steps were taken: a client's "done" or "roll" names the step it saw, so a late or
        repeated message never acts on the next turn."""
        return len(self.events)

    @property
    def started(self) -> bool:
        return bool(self.events)

    def seat(self, seat_id: Any) -> Seat:
        for seat in self.seats:
            if seat.id == seat_id and not isinstance(seat_id, bool):
                return seat
        raise TableError("there is no such player (any more): look again")

    def seat_for_token(self, token: Any) -> Seat | None:
        if not isinstance(token, str) or len(token) > 100:
            return None
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat
        return None

    def check_room_code(self, code: Any) -> bool:
        return isinstance(code, str) and hmac.compare_digest(code.strip().upper().encode(), self.room_code.encode())

    def waiting_for(self) -> list[Seat]:
        """The players the table waits for: not done in a turn, no score yet in a scoring."""
        stage = self.stage
        if stage in PLAYERS_ACT:
            return [seat for seat in self.seats if seat.id not in self.done]
        if stage == Stage.SCORING:
            return [seat for seat in self.seats if not self._scored(seat.id, self.round)]
        return []

    @property
    def round(self) -> int:
        return self.dealer.round if self.dealer else 0

    # ----- the lobby -----
    def _add_seat(self, name: str, placeholder: bool = False) -> Seat:
        seat = Seat(self.next_seat_id, name, placeholder=placeholder)
        self.next_seat_id += 1
        self.seats.append(seat)
        return seat

    def _name_taken(self, name: str, besides: Seat | None = None) -> Seat | None:
        folded = name.casefold()
        return next((s for s in self.seats if s is not besides and s.name.casefold() == folded), None)

    def join(self, name: Any) -> tuple[Seat, str]:
        """A phone joins with a name: it takes the seat of that name if no phone holds it, else a placeholder
        seat ("Player 2"), else a new seat (in the lobby only). Returns the seat and the phone's secret token."""
        name = clean_name(name)
        seat = self._name_taken(name)
        if seat is not None and seat.has_phone:
            raise TableError(f"{seat.name} has joined already: pick another name (if that is you on a new "
                             "phone, ask the host to free your seat)")
        if seat is None:
            seat = next((s for s in self.seats if s.placeholder and not s.has_phone), None)
        if seat is None and self.started:
            free = [s.name for s in self.seats if not s.has_phone]
            if not free:
                raise TableError("the game has started and every seat has a phone: ask the host to free a seat")
            raise TableError("the game has started: type the name of a seat without a phone to take it: "
                             + ", ".join(free))
        if seat is None:
            if len(self.seats) >= MAX_PLAYERS:
                raise TableError(f"the table is full: Patchwork Doodle is for at most {MAX_PLAYERS} players")
            seat = self._add_seat(name)
        token = new_token()
        seat.name = name
        seat.placeholder = False
        seat.token_hash = token_hash(token)
        self._changed()
        return seat, token

    def add_player(self, name: Any) -> Seat:
        """The host adds a player without a phone (in the lobby)."""
        name = clean_name(name)
        self._expect_lobby("add a player")
        if self._name_taken(name):
            raise TableError(f"{name} is already at the table: give another name")
        if len(self.seats) >= MAX_PLAYERS:
            raise TableError(f"the table is full: Patchwork Doodle is for at most {MAX_PLAYERS} players")
        seat = self._add_seat(name)
        self._changed()
        return seat

    def rename(self, seat_id: Any, name: Any) -> None:
        seat = self.seat(seat_id)
        name = clean_name(name)
        if self._name_taken(name, besides=seat):
            raise TableError(f"{name} is already at the table: give another name")
        seat.name = name
        seat.placeholder = False
        self._changed()

    def remove(self, seat_id: Any) -> None:
        seat = self.seat(seat_id)
        self._expect_lobby("remove a player (the cards are dealt for every seat; the host can play theirs)")
        self.seats.remove(seat)
        self.done.discard(seat.id)
        self._changed()

    def free(self, seat_id: Any) -> None:
        """Unlink a seat's phone (lost, or a new phone): the next phone to join with the seat's name takes it."""
        seat = self.seat(seat_id)
        seat.token_hash = None
        self._changed()

    def _expect_lobby(self, what: str) -> None:
        if self.started:
            raise TableError(f"the game has started: you can no longer {what}")

    # ----- the deal -----
    def start(self) -> None:
        """Deal: the start cards and the circle, by the engine, for the seats as they are now."""
        self._expect_lobby("deal again")
        if not self.seats:
            raise TableError("nobody is at the table yet: join with a phone, or add a player")
        try:
            self.dealer = Dealer.new(len(self.seats), self.seed, self.deck)
        except ValueError as error:
            raise TableError(str(error)) from None
        self.seed = self.dealer.seed
        self._deal = table_events(self.dealer)
        self.scores = {seat.id: [ScoreEntry() for _ in range(ROUNDS)] for seat in self.seats}
        self._take_step()

    def set_done(self, seat_id: Any, step: Any, done: Any = True) -> None:
        """A player is done with this step (or takes it back); with auto-roll the last one moves the table on."""
        seat = self.seat(seat_id)
        self._expect_step(step)
        if self.stage not in PLAYERS_ACT:
            raise TableError("there is nothing to be done with now: wait for the next turn")
        if not isinstance(done, bool):
            raise TableError("done is true or false")
        (self.done.add if done else self.done.discard)(seat.id)
        if self.auto_roll and not self.waiting_for():
            self._take_step()
        else:
            self._changed()

    def advance(self, step: Any) -> None:
        """The host moves the table on: roll, go to the scoring or the next round, or end the game."""
        self._expect_step(step)
        if self.stage in (Stage.LOBBY, Stage.OVER):
            raise TableError("the game has not started" if self.stage == Stage.LOBBY else "the game is over")
        self._take_step()

    def set_score(self, seat_id: Any, round_number: Any, points: Any = None, empty: Any = None,
                  by: str = "phone") -> None:
        """A round's rectangle score (and after round 3 the empty cells), given or corrected until the end."""
        seat = self.seat(seat_id)
        if not isinstance(round_number, int) or isinstance(round_number, bool) or not 1 <= round_number <= ROUNDS:
            raise TableError(f"the round is 1 to {ROUNDS}")
        if round_number > self.scored_rounds():
            raise TableError(f"round {round_number} has not been scored yet")
        if points is None and empty is None:
            raise TableError("give a score")
        check_points(points, allow_none=True)
        check_empty(empty, allow_none=True)
        if empty is not None and round_number != ROUNDS:
            raise TableError(f"the empty cells are counted after round {ROUNDS}")
        entry = self.scores[seat.id][round_number - 1]
        if points is not None:
            entry.points = points
        if empty is not None:
            entry.empty = empty
        entry.by = by
        self._changed()

    def set_photo_score(self, seat_id: int, round_number: int, quilt: Quilt, overruled: list[str]) -> None:
        """The player confirmed the quilt read from their photo at the scoring of `round_number`: it gives the
        round's score (its best rectangle) and after the last round the empty cells."""
        self.set_score(seat_id, round_number, quilt.score_rectangle(),
                       quilt.empty_count() if round_number == ROUNDS else None, "photo")
        entry = self.scores[self.seat(seat_id).id][round_number - 1]
        entry.quilt, entry.overruled = quilt.rows(), list(overruled)

    def confirmed_quilt(self, seat_id: int, round_number: int) -> Quilt | None:
        """The quilt a player confirmed from a photo at the scoring of `round_number` (an empty one for round 0;
        None when that score was typed)."""
        if round_number == 0:
            return Quilt(0)
        rows = self.scores[seat_id][round_number - 1].quilt
        return None if rows is None else Quilt.from_rows(rows)

    def set_auto_roll(self, auto_roll: Any) -> None:
        if not isinstance(auto_roll, bool):
            raise TableError("auto-roll is on or off")
        self.auto_roll = auto_roll
        if auto_roll and self.stage in PLAYERS_ACT and not self.waiting_for():
            self._take_step()
        else:
            self._changed()

    def _expect_step(self, step: Any) -> None:
        if step != self.step or isinstance(step, bool):
            raise TableError("the table has moved on since: look again")

    def _take_step(self) -> None:
        """One step of `table_events`: the next event (a roll, a scoring, a new round, the end)."""
        assert self._deal is not None
        self.events.append(next(self._deal))
        self.done.clear()
        if self.stage == Stage.ROUND and self.auto_roll:
            self.events.append(next(self._deal))  # the new round laid out, then its first roll
        self._changed()

    def _changed(self) -> None:
        self.version += 1

    # ----- scores -----
    def scored_rounds(self) -> int:
        """How many rounds have reached their scoring."""
        return sum(1 for event in self.events if event["event"] == "scoring")

    def _scored(self, seat_id: int, round_number: int) -> bool:
        entry = self.scores[seat_id][round_number - 1]
        return entry.points is not None and (round_number != ROUNDS or entry.empty is not None)

    def totals(self) -> dict[int, int | None]:
        """Each seat's total (rounds - empty cells), None while a score is missing."""
        totals: dict[int, int | None] = {}
        for seat in self.seats:
            entries = self.scores.get(seat.id)
            if not entries or any(e.points is None for e in entries) or entries[-1].empty is None:
                totals[seat.id] = None
            else:
                totals[seat.id] = sum(e.points for e in entries) - entries[-1].empty  # type: ignore[misc]
        return totals

    def winners(self) -> list[int]:
        """The seats with the best total (DECISION: a tie is a shared victory); none until every total is known."""
        totals = self.totals()
        if not totals or any(total is None for total in totals.values()):
            return []
        best = max(totals.values())  # type: ignore[type-var]
        return [seat_id for seat_id, total in totals.items() if total == best]

    # ----- what the clients see -----
    def next_step(self) -> str | None:
        """What the host's button does now, in words."""
        stage = self.stage
        if stage == Stage.SCORING:
            return "Final results" if self.round == ROUNDS else f"Lay out round {self.round + 1}"
        if stage in (Stage.START, Stage.ROUND):
            return "Roll"
        if stage == Stage.FINAL:
            return f"Score round {ROUNDS}"
        if stage == Stage.TURN:
            assert self.dealer is not None
            if self.dealer.turn == TURNS_PER_ROUND:
                return f"Score round {self.round}"
            if self.dealer.round == ROUNDS and self.dealer.turn == TURNS_PER_ROUND - 1:
                return "Final turn"
            return "Roll"
        return None

    def table_view(self) -> dict[str, Any]:
        """What everyone may see: the table as it lies, the seats, the scores."""
        stage = self.stage
        dealer = self.dealer
        last = self.events[-1] if self.events else {}
        view: dict[str, Any] = {
            "version": self.version,
            "stage": stage.value,
            "step": self.step,
            "deck": self.deck.name,
            "seed": self.seed if stage == Stage.OVER else None,  # the seed tells every roll to come: not before the end
            "auto_roll": self.auto_roll,
            "round": dealer.round if dealer else 0,
            "turn": dealer.turn if dealer else 0,
            "turns": TURNS_PER_ROUND,
            "rounds": ROUNDS,
            "roll": last.get("roll"),
            "circle": [],
            "current": None,
            "current_index": None,
            "neighbours": [],
            "choices": [],
            "next": self.next_step(),
            "seats": [
                {"id": s.id, "name": s.name, "phone": s.has_phone, "done": s.id in self.done,
                 "start_card": dealer.start_cards[i] if dealer else None}
                for i, s in enumerate(self.seats)
            ],
            "waiting_for": [s.id for s in self.waiting_for()],
            "scored_rounds": self.scored_rounds(),
            "scores": {str(seat_id): [e.to_json() for e in entries] for seat_id, entries in self.scores.items()},
            "totals": {str(k): v for k, v in self.totals().items()},
            "winners": self.winners(),
        }
        if dealer is not None and stage != Stage.OVER:
            if stage == Stage.TURN:
                view["circle"] = last["circle"]
                view["current"] = last["card"]
                view["current_index"] = last["roll"] - 1
                view["neighbours"] = last["neighbours"]
            elif stage == Stage.FINAL:
                view["circle"] = last["circle"]
                view["choices"] = last["choices"]
            elif dealer.phase != Phase.OVER:
                view["circle"] = list(dealer.circle)
        return view

    def seat_view(self, seat: Seat) -> dict[str, Any]:
        view = self.table_view()
        view["you"] = seat.id
        return view

    # ----- saving -----
    def to_json(self) -> dict[str, Any]:
        """Everything needed to continue: the seats (with their phones' token digests, so phones keep their
        seats), the settings, the events so far (replayed and checked against the engine on resume), the scores."""
        return {
            "room_code": self.room_code,
            "auto_roll": self.auto_roll,
            "seed": self.seed,
            "deck": self.deck.name,
            "deck_fingerprint": self.deck.fingerprint,
            "seats": [{"id": s.id, "name": s.name, "token_hash": s.token_hash, "placeholder": s.placeholder}
                      for s in self.seats],
            "events": self.events,
            "done": sorted(self.done),
            "scores": {str(k): [e.to_json() for e in v] for k, v in self.scores.items()},
        }

    @classmethod
    def from_json(cls, data: Any, deck: Deck) -> TableSession:
        """A table from `to_json`: the deal is replayed through the engine from the seed, and every saved event
        must come out the same (ValueError says where it does not)."""
        if not isinstance(data, dict):
            raise ValueError("the saved table is not a JSON object")
        if data.get("deck_fingerprint") != deck.fingerprint:
            raise ValueError(f"the game was dealt from another deck ({data.get('deck')!r}): pass that deck file")
        seats = [Seat(int(s["id"]), clean_name(s["name"]), s.get("token_hash"), bool(s.get("placeholder")))
                 for s in data["seats"]]
        if any(s.token_hash is not None and not isinstance(s.token_hash, str) for s in seats):
            raise ValueError("a seat's token digest is not text")
        if len({s.id for s in seats}) != len(seats) or len(seats) > MAX_PLAYERS:
            raise ValueError("the seats are not distinct, or too many")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ValueError(f"the seed is a whole number, not {seed!r}")
        room_code = data.get("room_code")
        if not isinstance(room_code, str) or not room_code or set(room_code) - set(ROOM_ALPHABET):
            room_code = new_room_code()
        session = cls(deck=deck, seed=seed, auto_roll=bool(data.get("auto_roll", True)), room_code=room_code,
                      seats=seats, next_seat_id=max((s.id for s in seats), default=0) + 1)
        events = data.get("events") or []
        if not isinstance(events, list):
            raise ValueError("the events are not a list")
        if events:
            if seed is None:
                raise ValueError("a dealt game without its seed")
            session.dealer, session._deal = replay_events(events, len(seats), seed, deck)
            session.events = list(events)
            ids = {s.id for s in seats}
            scores = data.get("scores") or {}
            session.scores = {seat.id: [ScoreEntry() for _ in range(ROUNDS)] for seat in seats}
            for key, entries in scores.items():
                if int(key) not in ids or not isinstance(entries, list) or len(entries) != ROUNDS:
                    raise ValueError(f"the scores of seat {key} do not fit the seats")
                session.scores[int(key)] = [ScoreEntry.from_json(entry) for entry in entries]
            session.done = {int(i) for i in data.get("done") or [] if int(i) in ids}
        return session


def replay_events(events: list[Any], players: int, seed: int, deck: Deck) -> tuple[Dealer, Iterator[Event]]:
    """Deal again from the seed through `table_events` and check that it gives `events`, step by step; the
    dealer and the deal are returned where the events end, ready to go on. ValueError names the first step
    that differs."""
    dealer = Dealer.new(players, seed, deck)
    deal = table_events(dealer)
    for number, saved in enumerate(events, start=1):
        dealt = next(deal, None)
        if dealt != saved:
            raise ValueError(f"step {number} of the game is not what seed {seed} deals to {players} players with "
                             "this deck")
    return dealer, deal
