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
MAX_PIXELS = 150_000_000

PhotoSource = str | Path | bytes | np.ndarray | Image.Image


def load_photo(source: PhotoSource, working_side: int = WORKING_SIDE, name: str | None = None) -> np.ndarray:
    """The photo as a BGR uint8 array whose longest side is at most `working_side`, upright per its EXIF tag.
    Error messages call it `name` (by default its path, or "the image data" for bytes)."""
    if isinstance(source, np.ndarray):
        return _fit(_as_bgr(source), working_side)
    if isinstance(source, Image.Image):
        return _fit(_pil_to_bgr(source), working_side)
    if isinstance(source, bytes):
        name = name or "the image data"
        if not source:
            raise NotAnImageError(f"{name} is empty: pass the bytes of a JPEG or PNG photo")
        stream: io.BytesIO | Path = io.BytesIO(source)
    else:
        path = Path(source)
        name = name or str(path)
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
            image = Image.open(stream)  # reads the header only: format and size, no pixels yet
        except Image.DecompressionBombError:
            raise ImageTooLargeError(
                f"{name} has more pixels than the {MAX_PIXELS / 1e6:.0f} megapixels the reader accepts: take the "
                "photo at normal phone resolution"
            ) from None
        except UnidentifiedImageError:
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
            if image.format in _OPENCV_FORMATS:
                data = source if isinstance(source, bytes) else Path(source).read_bytes()
                if not _complete(data, image.format) and not _loads(image):
                    raise NotAnImageError(
                        f"{name} is cut short (the {image.format} data ends early): copy the photo again from the "
                        "phone"
                    )
                return _fit(_decode_with_opencv(data, image.format, max(width, height), working_side, name),
                            working_side)
            try:
                image.load()
                if image.getexif().get(_ORIENTATION, 1) != 1:
                    image = ImageOps.exif_transpose(image)
                bgr = _pil_to_bgr(image)
            except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
                raise NotAnImageError(
                    f"{name} is damaged or cut short ({error}): copy the photo again from the phone"
                ) from None
    return _fit(bgr, working_side)


_ORIENTATION = 0x0112  # the EXIF tag saying how the phone was held
_OPENCV_FORMATS = ("JPEG", "PNG")
_REDUCED = ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4), (2, cv2.IMREAD_REDUCED_COLOR_2))


def _complete(data: bytes, fmt: str) -> bool:
    """A JPEG ends with its end-of-image marker, a PNG with its IEND chunk (a few trailing bytes are allowed): the
    quick check that a file was not cut short."""
    tail = data[-4096:]
    return b"\xff\xd9" in tail if fmt == "JPEG" else b"IEND" in tail


def _loads(image: Image.Image) -> bool:
    """Whether PIL decodes the whole image: the slow check, for a file whose end marker is not at its end (a
    phone's "motion photo" carries a video after the JPEG; a file cut short fails here)."""
    try:
        image.load()
    except (OSError, SyntaxError, ValueError):
        return False
    return True


def _decode_with_opencv(data: bytes, fmt: str, long_side: int, working_side: int, name: str) -> np.ndarray:
    """Decode with OpenCV (libjpeg-turbo, EXIF orientation applied), straight at 1/2, 1/4 or 1/8 scale when the
    photo is that much larger than the working size."""
    flag = cv2.IMREAD_COLOR
    if fmt == "JPEG":
        flag = next((f for k, f in _REDUCED if long_side / k >= working_side), cv2.IMREAD_COLOR)
    bgr = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    if bgr is None:
        raise NotAnImageError(f"{name} is damaged: its {fmt} data cannot be decoded; copy the photo again")
    return bgr


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
