"""The root of doodle.game's errors. Every error the package raises on purpose comes from bad input (a move the
rules refuse, a step asked for in the wrong phase, a record that does not replay, a deck that cannot be used), so
the root is a `ValueError`: `except GameError` catches them all, and `except ValueError` still works."""


class GameError(ValueError):
    """Bad input to doodle.game; the message names the problem and, where it helps, what to do."""


class RecordError(GameError):
    """A game record that is malformed or does not replay."""
