"""The record of a solo game, turn by turn, for `doodle solo --json` and for anyone who wants to re-check a
score: every turn's roll, card and actions with the quilt after it, the quilt at each intermediate scoring,
the round scores, the empty cells and the total, plus the engine record (`game`) that replays it exactly.

`verify_solo_record` replays the engine record and rebuilds every field, so a record that was edited (a better
total, a different quilt) is refused with the name of the first field that does not match.
"""

from __future__ import annotations

from typing import Any

from doodle.game.dealer import Offer, Phase
from doodle.game.deck import Deck
from doodle.game.errors import GameError, RecordError
from doodle.game.game import DoodleGame
from doodle.game.sheet import Action, DrawPatch, EndTurn, SingleSquare, action_from_json

SOLO_FORMAT = "doodle-solo/1"
FIELDS = ("format", "seed", "bot", "deck", "start_card", "start", "turns", "scorings", "round_quilts",
          "round_scores", "quilt", "empty", "total")


class SoloRecordError(RecordError):
    """A solo record that is malformed, does not replay, or whose fields disagree with its replay."""


def solo_record(game: DoodleGame, bot: str | None = None) -> dict[str, Any]:
    """The solo record of a 1-player game (finished or not), built by replaying its log."""
    if len(game.sheets) != 1:
        raise GameError(f"a solo record is for a 1-player game, not {len(game.sheets)} players")
    replay = DoodleGame.new(1, game.dealer.seed, game.deck, list(game.names), auto_roll=False)
    sheet = replay.sheets[0]
    start: dict[str, Any] | None = None
    turns: list[dict[str, Any]] = []
    scorings: list[dict[str, Any]] = []
    open_entry: dict[str, Any] | None = None
    for entry in game.log:
        if "roll" in entry:
            replay.roll(int(entry["roll"]))
            continue
        action = action_from_json(entry["action"])
        offer = replay.offer()
        if sheet.needs_start():
            replay.apply(0, action)
            start = {"card": sheet.start_card, "action": entry["action"], "quilt": sheet.quilt.rows()}
            continue
        if open_entry is None:
            open_entry = _open(replay, offer.phase)
            (scorings if offer.phase == Phase.SCORING else turns).append(open_entry)
        if offer.phase == Phase.SCORING and isinstance(action, EndTurn):
            rectangle = sheet.quilt.best_rectangle()
            open_entry["rectangle"] = rectangle.to_dict() if rectangle else None
        replay.apply(0, action)
        open_entry["actions"].append(entry["action"])
        open_entry["specials"].extend(_specials(action, offer))
        if isinstance(action, EndTurn):
            open_entry["quilt"] = sheet.quilt.rows()
            if offer.phase == Phase.SCORING:
                open_entry["score"] = sheet.round_scores[-1]
            open_entry = None
    over = replay.is_over()
    return {
        "format": SOLO_FORMAT,
        "seed": game.dealer.seed,
        "bot": bot,
        "deck": game.deck.name,
        "start_card": sheet.start_card,
        "start": start,
        "turns": turns,
        "scorings": scorings,
        "round_quilts": [scoring["quilt"] for scoring in scorings if "quilt" in scoring],
        "round_scores": list(sheet.round_scores),
        "quilt": sheet.quilt.rows(),
        "empty": sheet.quilt.empty_count(),
        "total": sheet.total() if over else None,
        "over": over,
        "game": game.to_record(),
    }


def _open(replay: DoodleGame, phase: Phase) -> dict[str, Any]:
    dealer = replay.dealer
    offer = replay.offer()
    if phase == Phase.SCORING:
        return {"round": dealer.round, "actions": [], "specials": []}
    return {
        "round": dealer.round,
        "turn": dealer.turn,
        "roll": dealer.last_roll if phase == Phase.TURN else None,
        "card": offer.current,
        "neighbours": list(offer.neighbours),
        "choices": list(offer.choices),
        "actions": [],
        "specials": [],
    }


def _specials(action: Action, offer: Offer) -> list[str]:
    """The special actions one action crossed off."""
    if isinstance(action, SingleSquare):
        return ["single"]
    if isinstance(action, DrawPatch):
        used = ["neighbour"] if offer.phase == Phase.TURN and action.card != offer.current else []
        return used + (["cut"] if action.cut else [])
    return []


def verify_solo_record(record: dict[str, Any], deck: Deck | None = None) -> DoodleGame:
    """Replay a solo record and check every field against the replay; SoloRecordError names the first field
    that differs (or what is malformed). Returns the replayed game."""
    if not isinstance(record, dict):
        raise SoloRecordError("a solo record is a JSON object")
    if record.get("format") != SOLO_FORMAT:
        raise SoloRecordError(f"not a {SOLO_FORMAT} record (format is {record.get('format')!r})")
    missing = [name for name in (*FIELDS, "game") if name not in record]
    if missing:
        raise SoloRecordError(f"the record lacks the field(s) {', '.join(missing)}")
    try:
        game = DoodleGame.replay(record["game"], deck)
    except RecordError as error:
        raise SoloRecordError(f"the engine record does not replay: {error}") from None
    rebuilt = solo_record(game, record["bot"])
    for name in (*FIELDS, "over"):
        if name in record and record[name] != rebuilt[name]:
            raise SoloRecordError(f"field {name!r} differs from the replay: the record says {record[name]!r}, "
                                  f"the replay gives {rebuilt[name]!r}")
    if rebuilt["total"] is not None and rebuilt["total"] != sum(rebuilt["round_scores"]) - rebuilt["empty"]:
        raise SoloRecordError("the total is not the sum of the round scores minus the empty cells")
    return game
