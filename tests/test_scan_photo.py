"""Loading photos: no more pixels decoded than the reader needs (issue 11 item 16). What a load costs in memory
is measured by benchmarks/bench_photo_memory.py; here, the logic that keeps it low: formats decoded whole are
refused beyond MAX_DECODED_BYTES, and what is accepted is reduced a strip at a time to the same picture as a
reduction of the whole."""

from __future__ import annotations

import io
import struct
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from doodle.sheet import photo as photo_module
from doodle.sheet.photo import MAX_DECODED_BYTES, MAX_PIXELS, load_photo
from doodle.sheet.scan_errors import ImageTooLargeError


def _png_header(width: int, height: int, bit_depth: int = 8, colour_type: int = 2) -> bytes:
    """A PNG whose header says `width` x `height` (its pixel data is not all there: it must not be needed)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b"")


@pytest.mark.parametrize("bit_depth,colour_type,megapixels", [(8, 2, 80), (16, 2, 144), (16, 0, 140)])
def test_images_decoded_whole_are_refused_beyond_the_decoded_size_before_any_decoding(bit_depth, colour_type,
                                                                                      megapixels):
    """Under the 150-megapixel cap, but a colour PNG of 80 MP would be 320 MB decoded (16-bit grey of 140 MP,
    280 MB): refused from the header, saying what to do."""
    width = 10_000
    height = megapixels * 1_000_000 // width
    assert width * height <= MAX_PIXELS
    with pytest.raises(ImageTooLargeError, match="save the photo as a JPEG"):
        load_photo(_png_header(width, height, bit_depth, colour_type), name="big.png")


def test_a_palette_image_of_many_megapixels_is_accepted_as_it_costs_a_byte_a_pixel():
    width, height = 9000, 6000  # 54 MP: 54 MB decoded
    assert width * height < MAX_DECODED_BYTES
    image = Image.new("P", (width, height), 1)
    image.putpalette([0, 0, 0, 200, 180, 160] + [0] * 762)
    image.paste(0, (0, 0, width // 2, height))
    buffer = io.BytesIO()
    image.save(buffer, "GIF")
    bgr = load_photo(buffer.getvalue())
    assert bgr.shape == (1333, 2000, 3)
    assert tuple(bgr[10, 10]) == (0, 0, 0) and tuple(bgr[10, -10]) == (160, 180, 200)  # BGR, palette looked up


@pytest.mark.parametrize("mode", ["RGB", "L", "P", "I;16"])
def test_reducing_a_strip_at_a_time_gives_the_reduction_of_the_whole(monkeypatch, mode):
    rng = np.random.default_rng(1)
    rgb = cv2.GaussianBlur(rng.integers(0, 255, (2100, 3100, 3), dtype=np.uint8), (0, 0), 3)
    if mode == "I;16":
        image = Image.fromarray(rgb[..., 0].astype(np.uint16) * 257)  # mode I;16
        expected = cv2.cvtColor(rgb[..., 0], cv2.COLOR_GRAY2BGR)  # 16 bits scaled back to 8, not clipped
    else:
        image = Image.fromarray(rgb).convert(mode)
        expected = cv2.cvtColor(np.asarray(image.convert("RGB")), cv2.COLOR_RGB2BGR)
    expected = cv2.resize(expected, (1033, 700), interpolation=cv2.INTER_AREA)
    monkeypatch.setattr(photo_module, "STRIP_PIXELS", 150_000)  # many strips
    reduced = photo_module._reduced_bgr(image, 1000)
    assert reduced.shape == expected.shape
    assert np.abs(reduced.astype(int) - expected).max() <= 1


@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_turns_the_reduced_image_as_pil_turns_the_whole(orientation):
    rng = np.random.default_rng(orientation)
    image = Image.fromarray(rng.integers(0, 255, (300, 400, 3), dtype=np.uint8))
    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    image.save(buffer, "PNG", exif=exif)
    expected = cv2.cvtColor(np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(buffer.getvalue())))),
                            cv2.COLOR_RGB2BGR)
    assert np.array_equal(load_photo(buffer.getvalue()), expected)
