"""Hostile images built small: PNGs of any shape compressed as one stream (a 1 x 60,000,000 PNG is
117 KB), and a WebP whose header claims any size (nothing behind it decodes)."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image


def png_of(width: int, height: int, bit_depth: int = 8, color_type: int = 0) -> bytes:
    """A valid PNG of ``width`` x ``height`` black pixels (grey, RGB=2, grey+alpha=4, RGBA=6)."""
    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)

    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color_type]
    row = b"\0" * (1 + width * channels * bit_depth // 8)
    comp = zlib.compressobj(9)
    parts, left, per = [], height, max(1, (1 << 20) // len(row))
    while left:
        n = min(per, left)
        parts.append(comp.compress(row * n))
        left -= n
    parts.append(comp.flush())
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", b"".join(parts)) + chunk(b"IEND", b"")


def webp_claiming(width: int, height: int) -> bytes:
    """A lossless WebP whose header says ``width`` x ``height`` (the pixel data is a 64 x 64 image's)."""
    buf = io.BytesIO()
    Image.new("RGB", (64, 64), (10, 20, 30)).save(buf, "WEBP", lossless=True)
    data = bytearray(buf.getvalue())
    assert data[12:16] == b"VP8L" and data[20] == 0x2F
    bits = int.from_bytes(data[21:25], "little")
    bits = (bits & ~((1 << 28) - 1)) | (width - 1) | ((height - 1) << 14)
    data[21:25] = bits.to_bytes(4, "little")
    return bytes(data)


def encoded(img: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, fmt, **kw)
    return buf.getvalue()


HOSTILE = {
    "5000x1 PNG": lambda: png_of(5000, 1),
    "1x60M PNG": lambda: png_of(1, 60_000_000),
    "8000x8000 WebP": lambda: webp_claiming(8000, 8000),
    "7000x7000 RGBA PNG": lambda: png_of(7000, 7000, 8, 6),
}
