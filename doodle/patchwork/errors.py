"""The errors of doodle.patchwork: one root, `PatchworkError`, a ValueError (every one is bad input); and the two
helpers that check untrusted input and name it in their messages."""

from __future__ import annotations


class PatchworkError(ValueError):
    """Anything doodle.patchwork refuses: a move, a position text, a record, a setup; the message says why."""


class IllegalMoveError(PatchworkError):
    """A move that the rules do not allow here (or that is not a move at all); the message gives the reason."""


class MoveSyntaxError(PatchworkError):
    """A move text that cannot be read; the message says what to write instead."""


class NotationError(PatchworkError):
    """A position text that cannot be read; the message names the field and what is expected."""


class PatchworkRecordError(PatchworkError):
    """A game record that cannot be replayed; the message names the field or the move and the reason.

    Named apart from doodle.game's RecordError (Patchwork Doodle's records) so that the two never shadow."""


# Helpers for checking untrusted input (a record's JSON, a caller's arguments) and naming it in a message.
def is_int(value: object) -> bool:
    """A whole number, and not a bool (True == 1 in Python, but a record's `true` is not a player)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: object, width: int = 40) -> str:
    """`value` for a message, cut to `width` characters; never raises (a number too long to write, a list
    nested too deep)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return "a number of more than 19 digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"
    return text if len(text) <= width else text[: width - 3] + "..."
