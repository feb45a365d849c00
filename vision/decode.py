"""Decoding uploads, the one decoder of every image route: format sniffing, HEIF/HEIC, EXIF orientation,
shape limits, a memory budget, and downscaling.

``sniff(data)`` names the format from the magic bytes (``jpeg``, ``png``, ``webp``, ``heic``) or
returns None. ``open_image(data)`` gives an RGB PIL image no larger than ``MAX_SIDE`` on its long
side with the EXIF orientation applied; ``decode(data)`` the same as a ``numpy`` array (H, W, 3).

Before any pixel is decoded the header is checked: each side at most ``MAX_INPUT_SIDE`` and at least
``MIN_SIDE``, long side / short side at most ``MAX_ASPECT``, and the memory the decode would take at
its peak (``decode_cost``: pixels x bytes per pixel of the decoded mode, the decoder's own buffers, a
full-size conversion where the mode needs one, the resize's intermediate image) at most
``DECODE_BUDGET`` bytes. A JPEG is decoded reduced (1/2, 1/4, 1/8: draft mode) when it is larger than
needed, and its budget is counted at the reduced size. Colour is shrunk as RGB and grey as 8-bit L;
the final RGB conversion and the EXIF rotation work on the small image. Errors:
``VisionError('unsupported' | 'corrupt' | 'too_large' | 'bad_shape')``.
"""

from __future__ import annotations

import io
import math
import warnings

import numpy as np
from PIL import Image

from vision.errors import VisionError

MAX_SIDE = 2048               # long side of the decoded result
MAX_INPUT_SIDE = 16_384       # px per side of the file itself
MIN_SIDE = 16                 # px of the short side: below it there is no card to see
MAX_ASPECT = 8.0              # long side / short side
DECODE_BUDGET = 192 << 20     # bytes a decode may hold at its peak (see decode_cost)
CONTENT_TYPES = {"jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "heic": "image/heic"}

# bytes per pixel of Pillow's storage for a mode (RGB is stored in 4 bytes)
_BYTES_PER_PIXEL = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16B": 2, "I;16L": 2, "I;16N": 2}
_GREY = {"1", "L", "LA", "I", "F", "I;16", "I;16B", "I;16L", "I;16N"}  # shrunk as 8-bit L, colour as RGB
# bytes per pixel of the full-size conversion before shrinking (RGB and L need none): 16-bit grey
# takes a raw copy (2), its 8-bit result (1) and that as an image (1); 32-bit grey a float copy too
_CONVERSION = {"RGB": 0, "L": 0, "1": 1, "LA": 1, "I;16": 4, "I;16B": 4, "I;16L": 4, "I;16N": 4, "I": 13, "F": 13}
# formats whose decoder fills buffers of its own before Pillow copies the pixels (measured: libwebp
# hands over RGBA bytes that Pillow copies twice; libheif and libjpeg hold less)
_DECODER_BUFFERS = {"webp": 10, "heic": 2, "jpeg": 1}
_ORIENTATION = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
                4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270,
                7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_90}

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


def check_shape(w: int, h: int) -> None:
    """Refuse sizes no photo of a card has (``bad_shape``) before anything is decoded."""
    if w <= 0 or h <= 0 or max(w, h) > MAX_INPUT_SIDE:
        raise VisionError("bad_shape", f"Image of {w}x{h} pixels: each side must be 1-{MAX_INPUT_SIDE} px")
    if min(w, h) < MIN_SIDE:
        raise VisionError("bad_shape", f"Image of {w}x{h} pixels: each side must be at least {MIN_SIDE} px")
    if max(w, h) / min(w, h) > MAX_ASPECT:
        raise VisionError("bad_shape", f"Image of {w}x{h} pixels: the long side may be at most "
                                       f"{MAX_ASPECT:g} times the short side")


def decode_cost(mode: str, size: tuple[int, int], fmt: str, max_side: int = MAX_SIDE) -> int:
    """Bytes a decode of ``size`` pixels in ``mode`` holds at its peak: the raster, the decoder's own
    buffers, the full-size conversion to RGB or 8-bit grey, and the resize's intermediate image (one
    pass at the new width over the full height: pixels x scale). Measured within 10 % on PNG RGB, RGBA,
    16-bit grey, WebP, HEIC and JPEG (``docs/hostile-inputs.md``)."""
    pixels = size[0] * size[1]
    per_pixel = _BYTES_PER_PIXEL.get(mode, 4) + _CONVERSION.get(mode, 4) + _DECODER_BUFFERS.get(fmt, 0)
    scale = min(1.0, max_side / max(size))
    after = 1 if mode in _GREY else 4
    return int(pixels * per_pixel + (pixels * scale * after if scale < 1 else 0))


def _draft_size(w: int, h: int, max_side: int) -> tuple[int, int]:
    scale = max_side / max(w, h)
    return max(1, math.ceil(w * scale)), max(1, math.ceil(h * scale))


def _to_8bit(img: Image.Image) -> Image.Image:
    """Grey images of 16 or 32 bits as 8-bit ``L``, scaled (Pillow's own conversion clips at 255).
    16-bit takes one copy of the raster and an 8-bit result, nothing larger."""
    arr = np.asarray(img)
    out = np.empty(arr.shape, np.uint8)
    if img.mode.startswith("I;16"):
        np.right_shift(arr, 8, out=out, casting="unsafe")
    else:  # 32-bit integer or float grey (not produced by the accepted formats; kept correct, not frugal)
        scale = 256.0 if arr.size and arr.max() > 255 else 1.0
        np.clip(arr / scale, 0, 255, out=out, casting="unsafe")
    return Image.fromarray(out, "L")


def _shrinkable(img: Image.Image) -> Image.Image:
    """The image in a mode Pillow shrinks without another full-size copy: 8-bit ``L`` for grey, else RGB."""
    if img.mode in ("RGB", "L"):
        return img
    if img.mode in ("I", "F") or img.mode.startswith("I;16"):
        return _to_8bit(img)
    return img.convert("L" if img.mode in _GREY else "RGB")


def open_image(data: bytes, max_side: int = MAX_SIDE) -> Image.Image:
    """Check, decode within the budget, shrink, orient: an RGB PIL image at most ``max_side`` px."""
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
            check_shape(w, h)
            if fmt == "jpeg" and max(w, h) > max_side:
                img.draft("RGB", _draft_size(w, h, max_side))
            cost = decode_cost(img.mode, img.size, fmt, max_side)
            if cost > DECODE_BUDGET:
                raise VisionError("too_large", f"Image of {w}x{h} pixels ({img.mode}) needs {cost >> 20} MB to "
                                               f"decode; the limit is {DECODE_BUDGET >> 20} MB: send a smaller "
                                               "image (JPEGs of any size decode reduced)")
            img.load()
            orientation = img.getexif().get(0x0112, 1)
            img = _shrinkable(img)  # a full-size copy unless RGB or L, counted in the budget
            if max(img.size) > max_side:
                img.thumbnail((max_side, max_side), Image.Resampling.BILINEAR)
            img = img.convert("RGB") if img.mode != "RGB" else img
            if orientation in _ORIENTATION:
                img = img.transpose(_ORIENTATION[orientation])
    except VisionError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise VisionError("too_large", "Image exceeds the pixel limit (decompression bomb)") from None
    except (OSError, ValueError, SyntaxError, EOFError, IndexError, TypeError, MemoryError, RuntimeError,
            KeyError, ZeroDivisionError) as exc:
        raise VisionError("corrupt", f"The image could not be decoded ({type(exc).__name__})") from None
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
