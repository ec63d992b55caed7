"""A table's game record checked again: the deal replayed through the engine, and every quilt the players
confirmed from their photos checked as the table checked it (it contains the quilt before, its added cells are
what the round's cards allow, its best rectangle is the round's score, its empty cells the penalty)."""

from __future__ import annotations

from typing import Any

from doodle.game.checks import CardsError, quilt_problems, round_cards
from doodle.game.dealer import ROUNDS
from doodle.game.deck import Deck
from doodle.quilt import Quilt, QuiltTextError
from doodle.table.save import check_record


def record_findings(record: Any, deck: Deck) -> tuple[list[str], list[str]]:
    """(what holds, what does not) in a `doodle-table` record, one line each, per player and round. ValueError
    when the record is malformed or its deal does not replay."""
    check_record(record, deck)
    try:
        names, scores, empties = record["names"], record["round_scores"], record["empty"]
        quilts = record.get("quilts") or [[None] * ROUNDS for _ in names]
        overruled = record.get("overruled") or [[[] for _ in range(ROUNDS)] for _ in names]
        scored_by = record.get("scored_by") or [[None] * ROUNDS for _ in names]
        rows = list(zip(names, scores, empties, quilts, overruled, scored_by, strict=True))
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"the record's scores are malformed: {error}") from None
    good: list[str] = []
    bad: list[str] = []
    for name, points, empty, seat_quilts, seat_overruled, seat_by in rows:
        previous: Quilt | None = Quilt(0)
        for number in range(1, ROUNDS + 1):
            where = f"{name}, round {number}"
            rows_read = seat_quilts[number - 1] if number <= len(seat_quilts) else None
            score = points[number - 1] if number <= len(points) else None
            if rows_read is None:
                good.append(f"{where}: {score if score is not None else 'no'} points, typed (no quilt to check)")
                previous = None
                continue
            try:
                quilt = Quilt.from_rows(rows_read)
            except (QuiltTextError, TypeError) as error:
                raise ValueError(f"{where}: the quilt is malformed: {error}") from None
            found = []
            typed = "typed over the photo's reading: " if seat_by[number - 1] != "photo" else ""
            if score != quilt.score_rectangle():
                found.append(f"{typed}{score} points, but the quilt's best rectangle scores {quilt.score_rectangle()}")
            if number == ROUNDS and empty != quilt.empty_count():
                found.append(f"{empty} empty cells, but the quilt has {quilt.empty_count()}")
            if previous is not None:
                try:
                    cards = round_cards(record["events"], number, deck)
                except CardsError:
                    cards = None
                found += [problem.message for problem in quilt_problems(previous, quilt, cards)]
            said = seat_overruled[number - 1] if number <= len(seat_overruled) else []
            if not found:
                good.append(f"{where}: {score} points, the quilt fits the game")
            elif said:  # the player's explicit word at the table: reported, not an error
                good.extend(f"{where}: {line} (the player confirmed the sheet anyway)" for line in found)
            else:
                bad.extend(f"{where}: {line}" for line in found)
            previous = quilt
    return good, bad
