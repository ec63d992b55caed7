"""Loading a photo safely: refuse what is not an image, check the size from the header before decoding, and
decode no more pixels than the reader needs: big JPEGs straight at a working resolution (libjpeg's DCT scaling),
so a 100-megapixel photo never becomes a 300 MB array; other formats, which are decoded whole, only up to
MAX_DECODED_BYTES, then reduced a strip at a time."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

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
            if image.format == "JPEG":
                data = source if isinstance(source, bytes) else Path(source).read_bytes()
                if not _complete(data) and not _loads(image, working_side):
                    raise NotAnImageError(
                        f"{name} is cut short (the JPEG data ends early): copy the photo again from the phone"
                    )
                return _fit(_decode_jpeg(data, max(width, height), working_side, name), working_side)
            if width * height * _stored_bytes(image.mode) > MAX_DECODED_BYTES:
                most = MAX_DECODED_BYTES / _stored_bytes(image.mode) / 1e6
                raise ImageTooLargeError(
                    f"{name} is {width}x{height} pixels ({width * height / 1e6:.0f} megapixels) of {image.format}, "
                    f"which is read whole: at most {most:.0f} megapixels are; save the photo as a JPEG (read at a "
                    "reduced size whatever its resolution) or take it at normal phone resolution"
                )
            try:
                orientation = image.getexif().get(_ORIENTATION, 1)
                image.load()
                bgr = _reduced_bgr(image, working_side)
            except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as error:
                raise NotAnImageError(
                    f"{name} is damaged or cut short ({error}): copy the photo again from the phone"
                ) from None
    return _fit(_oriented(bgr, orientation), working_side)


_ORIENTATION = 0x0112  # the EXIF tag saying how the phone was held
_REDUCED = ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4), (2, cv2.IMREAD_REDUCED_COLOR_2))
# Formats other than JPEG (PNG, GIF, TIFF, ...) cannot be decoded at a reduced size: the whole image is held once
# as decoded (in PIL's storage: 1 byte a pixel for grey or palette images, 2 for 16-bit grey, 4 for colour), then
# turned to colour and reduced a strip at a time. So that one photo costs at most about 500 MB, the decoded image
# may take this much: colour up to 64 megapixels, grey and palette up to MAX_PIXELS.
MAX_DECODED_BYTES = 256_000_000
STRIP_PIXELS = 16_000_000  # pixels turned to colour and reduced at a time
_STORED_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16B": 2, "I;16L": 2, "I;16N": 2, "LA": 4, "PA": 4}
# EXIF orientation -> what makes the image upright (as PIL.ImageOps.exif_transpose does)
_UPRIGHT = {
    2: lambda a: cv2.flip(a, 1),
    3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
    4: lambda a: cv2.flip(a, 0),
    5: cv2.transpose,
    6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
    7: lambda a: cv2.flip(cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE), 0),
    8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE),
}


def _stored_bytes(mode: str) -> int:
    return _STORED_BYTES.get(mode, 4)


def _complete(data: bytes) -> bool:
    """A JPEG ends with its end-of-image marker (a few trailing bytes are allowed): the quick check that a file
    was not cut short."""
    return b"\xff\xd9" in data[-4096:]


def _loads(image: Image.Image, working_side: int) -> bool:
    """Whether PIL decodes the whole JPEG (at a reduced scale, as small as the working size allows): the slow
    check, for a file whose end marker is not at its end (a phone's "motion photo" carries a video after the JPEG;
    a file cut short fails here)."""
    width, height = image.size
    scale = max(1, min(8, max(width, height) // working_side))
    try:
        image.draft("RGB", (width // scale, height // scale))
        image.load()
    except (OSError, SyntaxError, ValueError):
        return False
    return True


def _decode_jpeg(data: bytes, long_side: int, working_side: int, name: str) -> np.ndarray:
    """Decode with OpenCV (libjpeg-turbo, EXIF orientation applied), straight at 1/2, 1/4 or 1/8 scale when the
    photo is that much larger than the working size."""
    flag = next((f for k, f in _REDUCED if long_side / k >= working_side), cv2.IMREAD_COLOR)
    bgr = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    if bgr is None:
        raise NotAnImageError(f"{name} is damaged: its JPEG data cannot be decoded; copy the photo again")
    return bgr


def _reduced_bgr(image: Image.Image, working_side: int) -> np.ndarray:
    """A decoded image as BGR uint8, reduced by a whole factor to no less than `working_side` (box averages), a
    strip of rows at a time so that no colour copy of the whole image is ever made."""
    width, height = image.size
    factor = max(1, max(width, height) // working_side)
    rows = factor * max(1, STRIP_PIXELS // (width * factor))
    out_width = max(1, width // factor)
    strips = []
    for top in range(0, height, rows):
        bottom = min(height, top + rows)
        strip = _strip_bgr(image.crop((0, top, width, bottom)))
        out_height = max(1, round((bottom - top) / factor))
        if factor > 1 or strip.shape[1] != out_width:
            strip = cv2.resize(strip, (out_width, out_height), interpolation=cv2.INTER_AREA)
        strips.append(strip)
    return np.ascontiguousarray(np.concatenate(strips)) if len(strips) > 1 else strips[0]


def _strip_bgr(strip: Image.Image) -> np.ndarray:
    if strip.mode == "P":  # palette indices looked up at once (PIL's convert is several times slower)
        bgr = np.zeros((1, 256, 3), np.uint8)
        colours = np.array(strip.getpalette("RGB") or [], np.uint8).reshape(-1, 3)[:256, ::-1]
        bgr[0, : len(colours)] = colours
        return cv2.LUT(cv2.merge([np.asarray(strip)] * 3), bgr)
    if strip.mode.startswith("I;16") or strip.mode in ("I", "F"):
        # 16-bit (or wider) grey: scaled to 8 bits by its own range (PIL's convert would clip at 255).
        values = np.asarray(strip, dtype=np.float32)
        top = 65535.0 if strip.mode.startswith("I;16") or float(values.max(initial=0)) > 255 else 255.0
        grey = np.clip(values * (255.0 / top), 0, 255).astype(np.uint8)
        return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    return _pil_to_bgr(strip)


def _oriented(bgr: np.ndarray, orientation: int) -> np.ndarray:
    """The image turned upright per its EXIF orientation (done on the reduced image: cheaper than on the whole)."""
    upright = _UPRIGHT.get(orientation)
    return bgr if upright is None else np.ascontiguousarray(upright(bgr))


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
