"""Why a photo could not be read. Every message names the problem and what the user can do about it."""

from __future__ import annotations


class ScanError(Exception):
    """A photo that cannot be scored; the message is meant for the person who took it."""

    names_the_file = False  # whether the message already names the file it is about


class _FileError(ScanError):
    names_the_file = True  # raised while loading, when the file's name is at hand


class NotAnImageError(_FileError):
    """The file is not an image (or is empty, or cut short)."""


class ImageTooLargeError(_FileError):
    """The image has more pixels than the reader will decode."""


class TooDarkError(ScanError):
    """The photo is too dark to tell pencil from paper."""


class TooBlurryError(ScanError):
    """The photo is too blurred to read the grid."""


class SheetNotFoundError(ScanError):
    """No score sheet (no corner markers and no 9x9 grid) was found in the photo."""


class MarkersMissingError(SheetNotFoundError):
    """Some corner markers were seen but fewer than three, and no grid could be found instead."""
