"""Decoding uploads: format sniffing, HEIF/HEIC, EXIF orientation, bomb guard and downscaling.

``sniff(data)`` names the format from the magic bytes (``jpeg``, ``png``, ``webp``, ``heic``) or
returns None. ``decode(data)`` gives an RGB ``numpy`` array (H, W, 3) no larger than
``MAX_SIDE`` on its long side, with the EXIF orientation applied. A file that is not one of the
accepted formats raises ``VisionError('unsupported')``; a truncated or corrupt file, or one whose
pixel count exceeds ``MAX_PIXELS`` (a decompression bomb), raises ``VisionError('corrupt' |
'too_large')``.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
from PIL import Image, ImageOps

from vision.errors import VisionError

MAX_PIXELS = 64_000_000  # ~ 8000 x 8000; a 20 MB upload above this is a bomb
MAX_SIDE = 2048
CONTENT_TYPES = {"jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "heic": "image/heic"}

_HEIF_READY: bool | None = None


def heif_available() -> bool:
    global _HEIF_READY
    if _HEIF_READY is None:
        try:
            import pillow_heif

            pillow_heif.register_heif_opener()
            _HEIF_READY = True
        except Exception:  # pragma: no cover - optional dependency
            _HEIF_READY = False
    return _HEIF_READY


def sniff(data: bytes) -> str | None:
    head = data[:32]
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis",
                                              b"mif1", b"msf1", b"avif"):
        return "heic" if head[8:12] != b"avif" else None
    return None


def open_image(data: bytes) -> Image.Image:
    """Open, guard against bombs, apply EXIF orientation; returns an RGB PIL image (downscaled)."""
    fmt = sniff(data)
    if fmt is None:
        raise VisionError("unsupported", "Unsupported image format; send JPEG, PNG, WebP or HEIC")
    if fmt == "heic" and not heif_available():  # pragma: no cover
        raise VisionError("unsupported", "HEIC images are not supported on this server")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))
            w, h = img.size
            if w * h > MAX_PIXELS or w <= 0 or h <= 0:
                raise VisionError("too_large", f"Image of {w}x{h} pixels exceeds the {MAX_PIXELS} pixel limit")
            if fmt == "jpeg":
                img.draft("RGB", (MAX_SIDE, MAX_SIDE))
            img.load()
            img = ImageOps.exif_transpose(img)
            if img.mode != "RGB":
                img = img.convert("RGBA").convert("RGB") if "A" in img.mode or img.mode == "P" else img.convert("RGB")
    except VisionError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise VisionError("too_large", "Image exceeds the pixel limit (decompression bomb)") from None
    except (OSError, ValueError, SyntaxError, EOFError, IndexError, TypeError, MemoryError, RuntimeError) as exc:
        raise VisionError("corrupt", f"The image could not be decoded ({type(exc).__name__})") from None
    if max(img.size) > MAX_SIDE:
        img.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.BILINEAR)
    return img


def decode(data: bytes) -> np.ndarray:
    """RGB array of the upload (see module docstring)."""
    return np.asarray(open_image(data))


def encode(rgb: np.ndarray, fmt: str = "jpeg", quality: int = 92) -> bytes:
    buf = io.BytesIO()
    img = Image.fromarray(rgb)
    if fmt == "png":
        img.save(buf, "PNG", optimize=False)
    else:
        img.save(buf, "JPEG", quality=quality)
    return buf.getvalue()
