"""Finding lines of small print that the OCR's text detector passes over.

On photos of real scans a player's name is often printed 6-10 px tall in a thin serif face; the
learned text detector returns no box for it at any scale tried, while the lines stand out plainly
as strokes darker (or lighter) than their surroundings. ``find_lines`` finds them the classic
way: a morphological black-hat (top-hat for light print) keeps thin strokes and drops flat areas
and large shapes, a threshold and a short horizontal closing join letters into words and words
into lines, and connected components of a line's proportions are kept. The boxes are cut out
(``line_crops``) for the recogniser, whose per-frame probabilities ``vision.spotting`` scores
against catalog names.
"""

from __future__ import annotations

import cv2
import numpy as np

MIN_H, MAX_H = 6, 30  # a line's height in the 500 x 700 straightened card
MAX_LINES = 16
MARGINS = ((4, 3), (8, 6))  # (x, y) pixels around a line's box


def find_lines(rgb: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x, y, w, h)`` of text-like lines, dark print and light print, widest first."""
    g = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (11, 11))
    joiner = cv2.getStructuringElement(cv2.MORPH_RECT, (9, 3))
    h_img, w_img = g.shape
    boxes = []
    for op in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
        hat = cv2.morphologyEx(g, op, kernel)
        thr = max(25.0, cv2.threshold(hat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0])
        mask = cv2.morphologyEx(((hat >= thr) * 255).astype(np.uint8), cv2.MORPH_CLOSE, joiner)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        for x, y, w, h, area in stats[1:n]:
            if MIN_H <= h <= MAX_H and 3 * h <= w <= 0.9 * w_img and 0.2 <= area / (w * h) <= 0.85:
                boxes.append((int(x), int(y), int(w), int(h)))
    boxes.sort(key=lambda b: -b[2])
    return boxes[:MAX_LINES]


def line_crops(rgb: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> list[np.ndarray]:
    """Each box cut out with a tight and a wide margin (``MARGINS``), as BGR crops (the recogniser's
    input): on blurred print the recogniser's output shifts with the margin, so the caller keeps
    the better of the two."""
    h_img, w_img = rgb.shape[:2]
    out = []
    for x, y, w, h in boxes:
        for mx, my in MARGINS:
            c = rgb[max(0, y - my):min(h_img, y + h + my), max(0, x - mx):min(w_img, x + w + mx)]
            out.append(np.ascontiguousarray(c[:, :, ::-1]))
    return out
