"""The 33 patches of Patchwork and the time track of both printings."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

from doodle.geometry import Polyomino, ShapeError
from doodle.patchwork.errors import PatchworkError

BUNDLED = "patchwork_patches.toml"
START_PATCH = 0  # the 1x2 patch, always last in the circle
PATCH_COUNT = 33

TRACK_END = 53
INCOME_MARKS = (5, 11, 17, 23, 29, 35, 41, 47, 53)
LEATHER = {
    "current": (26, 32, 38, 44, 50),  # the current printing and the official app
    "original": (20, 26, 32, 44, 50),  # the first printing
}
EDITIONS = tuple(LEATHER)
START_BUTTONS = 5
CHOICES = 3  # patches a player may choose from: the next three after the neutral token
BONUS_SIZE = 7
BONUS_POINTS = 7


class PatchDataError(PatchworkError):
    """A patch data file that cannot be read; the message names the patch and the field."""


@dataclass(frozen=True)
class Patch:
    """One patch: `cost` in buttons, `time` in spaces, `buttons` printed on it (income), and its `shape`."""

    number: int
    cost: int
    time: int
    buttons: int
    shape: Polyomino

    @property
    def size(self) -> int:
        return self.shape.size

    def describe(self) -> str:
        return f"patch {self.number} ({self.size} cells, cost {self.cost}, time {self.time}, {self.buttons} buttons)"


def marks_passed(before: int, after: int) -> int:
    """How many button-income marks lie in (before, after]: marks are at 5, 11, ..., 53 (every 6 from 5)."""
    return (after + 1) // 6 - (before + 1) // 6


def marks_left(position: int) -> int:
    """Income marks still ahead of a token on `position`."""
    return len(INCOME_MARKS) - (position + 1) // 6


def load_patches(text: str | None = None) -> tuple[Patch, ...]:
    """The patches, indexed by number: from `text` (TOML with [[patch]] tables) or the bundled data file."""
    if text is None:
        text = resources.files("doodle.data").joinpath(BUNDLED).read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PatchDataError(f"the patch file is not valid TOML: {error}") from None
    except ValueError:  # an integer of thousands of digits: Python refuses to convert it
        raise PatchDataError("the patch file holds a number thousands of digits long") from None
    entries = data.get("patch")
    if not isinstance(entries, list) or not entries:
        raise PatchDataError("the patch file has no [[patch]] tables")
    patches: dict[int, Patch] = {}
    for index, entry in enumerate(entries, 1):
        try:
            number = int(entry["number"])
            values = {key: int(entry[key]) for key in ("cost", "time", "buttons")}
            shape = Polyomino.from_text(str(entry["shape"]))
        except KeyError as error:
            raise PatchDataError(f"patch entry {index} has no {error.args[0]!r} field") from None
        except (TypeError, ValueError, ShapeError) as error:
            raise PatchDataError(f"patch entry {index}: {error}") from None
        if number in patches:
            raise PatchDataError(f"patch number {number} appears twice")
        if not shape.is_connected():
            raise PatchDataError(f"patch {number}: the shape is not connected")
        if min(values.values()) < 0:
            raise PatchDataError(f"patch {number}: cost, time and buttons cannot be negative")
        patches[number] = Patch(number, shape=shape, **values)
    if sorted(patches) != list(range(len(patches))):
        raise PatchDataError("patch numbers must run 0, 1, 2, ... without gaps")
    return tuple(patches[n] for n in range(len(patches)))


PATCHES: tuple[Patch, ...] = load_patches()
