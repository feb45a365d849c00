"""Listing-ready card images: each located card cut out, straightened, padded and centred.

``process(rgb, found, ...)`` returns ``[(name, bytes)]`` in reading order (top to bottom, then
left to right), plus the size of the first image. ``mode='process'`` warps to card proportions;
``mode='crop'`` keeps the axis-aligned cut as it appears. Padding is a percentage of the card's
long edge, filled with the photo's own background or a ``#RRGGBB`` colour; ``auto_levels``
stretches each channel between its 1st and 99th percentile; ``corners`` adds the four corner
close-ups and a 2x2 sheet of them.
"""

from __future__ import annotations

import io
import zipfile

import cv2
import numpy as np

from vision.decode import encode
from vision.detect import Found, order_corners, straighten


def reading_order(found: list[Found]) -> list[Found]:
    if not found:
        return []
    heights = [float(np.ptp(f.quad[:, 1])) for f in found]
    row_h = max(1.0, float(np.median(heights)) / 2)
    return sorted(found, key=lambda f: (round(float(f.quad[:, 1].mean()) / row_h), float(f.quad[:, 0].mean())))


def _levels(img: np.ndarray) -> np.ndarray:
    out = np.empty_like(img)
    for c in range(3):
        lo, hi = np.percentile(img[:, :, c], (1, 99))
        if hi - lo < 10:
            out[:, :, c] = img[:, :, c]
            continue
        out[:, :, c] = np.clip((img[:, :, c].astype(np.float32) - lo) * 255.0 / (hi - lo), 0, 255).astype(np.uint8)
    return out


def _fill_colour(rgb: np.ndarray, fill: str) -> tuple[int, int, int]:
    if fill.startswith("#") and len(fill) == 7:
        return tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]
    border = np.concatenate([rgb[:4].reshape(-1, 3), rgb[-4:].reshape(-1, 3),
                             rgb[:, :4].reshape(-1, 3), rgb[:, -4:].reshape(-1, 3)])
    return tuple(int(x) for x in np.median(border, axis=0))  # type: ignore[return-value]


def cut(rgb: np.ndarray, f: Found, *, mode: str = "process", padding_percent: float = 5.0,
        padding_fill: str = "background", auto_levels: bool = True, long_edge: int | None = None) -> np.ndarray:
    if mode == "crop":
        x, y, w, h = cv2.boundingRect(order_corners(f.quad).astype(np.int32))
        x, y = max(0, x), max(0, y)
        card = rgb[y:y + h, x:x + w].copy()
    else:
        card = straighten(rgb, f.quad, f.kind, width=600 if f.kind == "card" else 620)
    if auto_levels:
        card = _levels(card)
    pad = int(round(max(card.shape[:2]) * padding_percent / 100.0))
    if pad > 0:
        colour = _fill_colour(rgb, padding_fill)
        card = cv2.copyMakeBorder(card, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=colour)
    if long_edge:
        h, w = card.shape[:2]
        s = long_edge / max(h, w)
        card = cv2.resize(card, (max(1, int(round(w * s))), max(1, int(round(h * s)))),
                          interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)
    return card


def corner_images(card: np.ndarray) -> dict[str, np.ndarray]:
    h, w = card.shape[:2]
    s = max(8, int(min(h, w) * 0.22))
    parts = {"top-left": card[:s, :s], "top-right": card[:s, w - s:], "bottom-right": card[h - s:, w - s:],
             "bottom-left": card[h - s:, :s]}
    sheet = np.vstack([np.hstack([parts["top-left"], parts["top-right"]]),
                       np.hstack([parts["bottom-left"], parts["bottom-right"]])])
    return {**parts, "corners": sheet}


def zip_cards(cards: list[np.ndarray], fmt: str, corners: bool) -> bytes:
    ext = "png" if fmt == "png" else "jpg"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for i, card in enumerate(cards):
            z.writestr(f"card_{i}.{ext}", encode(card, fmt))
            if corners:
                for name, img in corner_images(card).items():
                    z.writestr(f"card_{i}_{name}.{ext}", encode(np.ascontiguousarray(img), fmt))
    return buf.getvalue()
