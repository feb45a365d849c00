"""A last read of a straightened card whose text still names no card: its name plate and number
corner read where cards print them, without the text detector.

On blurred photos of small cards the detector finds no line at all even where a person reads the
name at a glance (its probability map stays under its threshold), while the recogniser, handed the
region, reads it. So the name plate is cut at fixed shares of the card and handed to the recogniser,
both ways up (a card is straightened either way up). The number is too short for a fixed cut (the
recogniser read "#" and digits from a loose cut as letters), so its corner goes to the detector,
enlarged and shrunk: a blurred number is found at one scale and missed at the other.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import ocr

# (top, bottom, left, right) as shares of a straightened portrait card
NAME_PLATE = (0.80, 0.91, 0.03, 0.97)  # the bar along the bottom edge
CORNER = (0.0, 0.16, 0.55, 1.0)  # the top right corner with room around the number, for the detector
MIN_SCORE = 0.5


def _cut(img: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    h, w = img.shape[:2]
    top, bottom, left, right = box
    return np.ascontiguousarray(img[int(h * top): int(h * bottom), int(w * left): int(w * right)])


def read_ends(crop: np.ndarray) -> list[str]:
    """Lines read from the name plate and the number corner of ``crop`` (RGB), upright and turned."""
    cuts, corners = [], []
    for img in (crop, np.ascontiguousarray(crop[::-1, ::-1])):
        cuts.append(_cut(img[:, :, ::-1], NAME_PLATE))  # in BGR, as the engine cuts line crops
        corners.append(_cut(img, CORNER))
    lines = [t for t, sc in ocr.recognise(cuts) if sc >= MIN_SCORE and t.strip()]
    for corner in corners:
        for f, interp in ((2.0, cv2.INTER_CUBIC), (0.5, cv2.INTER_AREA)):
            small = cv2.resize(corner, None, fx=f, fy=f, interpolation=interp)
            lines += [t for t, sc, _ in ocr.read(np.ascontiguousarray(small)) if sc >= MIN_SCORE and t.strip()]
    return list(dict.fromkeys(lines))
