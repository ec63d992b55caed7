"""Loading a photo safely: refuse what is not an image, check the size from the header before decoding, and
decode big JPEGs straight to a working resolution (libjpeg's DCT scaling), so a 100-megapixel photo never
becomes a 300 MB array."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from doodle.sheet.scan_errors import ImageTooLargeError, NotAnImageError

# Longest side of the image the reader works on. A sheet filling most of such a photo is still read at about
# 6 pixels per millimetre, while marker detection and warping stay fast; a 12-megapixel JPEG (4000x3000) is
# decoded straight at half size.
WORKING_SIDE = 2000
# Refuse beyond this many pixels (a decompression bomb, or a scan at absurd resolution).
MAX_PIXELS = 200_000_000

PhotoSource = str | Path | bytes | np.ndarray | Image.Image


def load_photo(source: PhotoSource, working_side: int = WORKING_SIDE) -> np.ndarray:
    """The photo as a BGR uint8 array whose longest side is at most `working_side`, upright per its EXIF tag."""
    if isinstance(source, np.ndarray):
        return _fit(_as_bgr(source), working_side)
    if isinstance(source, Image.Image):
        return _fit(_pil_to_bgr(source), working_side)
    if isinstance(source, bytes):
        name = "the image data"
        if not source:
            raise NotAnImageError("the image data is empty: pass the bytes of a JPEG or PNG photo")
        stream: io.BytesIO | Path = io.BytesIO(source)
    else:
        path = Path(source)
        name = str(path)
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            raise NotAnImageError(f"{name} does not exist") from None
        except OSError as error:
            raise NotAnImageError(f"cannot read {name}: {error.strerror}") from None
        if size == 0:
            raise NotAnImageError(f"{name} is empty (0 bytes): copy the photo again from the phone")
        stream = path
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            image = Image.open(stream)
        except (UnidentifiedImageError, Image.DecompressionBombError):
            raise NotAnImageError(
                f"{name} is not an image this reader understands: give a JPEG or PNG photo of the sheet"
            ) from None
        except OSError as error:
            raise NotAnImageError(f"cannot read {name}: {error}") from None
        with image:
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise ImageTooLargeError(
                    f"{name} is {width}x{height} pixels ({width * height / 1e6:.0f} megapixels), more than the "
                    f"{MAX_PIXELS / 1e6:.0f} the reader accepts: take the photo at normal phone resolution"
                )
            if width < 200 or height < 200:
                raise NotAnImageError(
                    f"{name} is only {width}x{height} pixels: photograph the sheet at 1 megapixel or more"
                )
            scale = working_side / max(width, height)
            if image.format == "JPEG" and scale < 1:
                # Decode at 1/2, 1/4 or 1/8 directly (never smaller than the working size).
                image.draft("RGB", (int(width * scale) + 1, int(height * scale) + 1))
            try:
                image.load()
                image = ImageOps.exif_transpose(image)
                bgr = _pil_to_bgr(image)
            except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
                raise NotAnImageError(
                    f"{name} is damaged or cut short ({error}): copy the photo again from the phone"
                ) from None
    return _fit(bgr, working_side)


def _pil_to_bgr(image: Image.Image) -> np.ndarray:
    if image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    array = np.asarray(image)
    if array.ndim == 2:
        return cv2.cvtColor(array, cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(array, cv2.COLOR_RGB2BGR)


def _as_bgr(array: np.ndarray) -> np.ndarray:
    if array.dtype != np.uint8:
        raise NotAnImageError(f"an image array must be uint8, not {array.dtype}")
    if array.ndim == 2:
        return cv2.cvtColor(array, cv2.COLOR_GRAY2BGR)
    if array.ndim == 3 and array.shape[2] == 3:
        return array
    if array.ndim == 3 and array.shape[2] == 4:
        return cv2.cvtColor(array, cv2.COLOR_BGRA2BGR)
    raise NotAnImageError(f"an image array must be HxW or HxWx3 (BGR), not {array.shape}")


def _fit(bgr: np.ndarray, working_side: int) -> np.ndarray:
    height, width = bgr.shape[:2]
    scale = working_side / max(height, width)
    if scale >= 1:
        return bgr
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return cv2.resize(bgr, size, interpolation=cv2.INTER_AREA)
