"""Which parallel a card is, from its border colour and a serial "/N" read (no I/O here)."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.render import named_color, parallel_color


def _lab(rgb: tuple[int, int, int]) -> np.ndarray:
    import cv2

    return cv2.cvtColor(np.array([[rgb]], np.uint8), cv2.COLOR_RGB2LAB).reshape(3).astype(np.float32)


def parallel_ranking(parallels: list[Any], border: list[float] | None, serials: list[tuple[int, int]]
                     ) -> list[tuple[Any, float | None, str | None]]:
    """[(parallel, score, confidence tier or None)] best first; [] when there is no parallel evidence:
    a serial whose print run is a parallel's, or a border nearer the colour a parallel's name says
    (``named_color``) than the base card's white."""
    if not parallels:
        return []
    runs = {b for _, b in serials}
    base_d = None
    out = []
    if border is not None:
        b = np.asarray(border, np.float32)
        base_d = float(np.linalg.norm(b - _lab(parallel_color(None))))
    evidence_found = False
    for p in parallels:
        serial = 1.0 if p.numbered_to and p.numbered_to in runs else 0.0
        col = 0.0
        colour = named_color(p.name)  # a parallel whose name says no colour has none to compare
        if border is not None and colour is not None:
            d = float(np.linalg.norm(np.asarray(border, np.float32) - _lab(colour)))
            col = max(0.0, 1.0 - d / 60.0)
            if base_d is not None and d + 8 < base_d:
                evidence_found = True
        if serial:
            evidence_found = True
        out.append((p, 0.65 * serial + 0.35 * col, serial))
    if not evidence_found:
        return []
    out.sort(key=lambda t: -t[1])
    ranked: list[tuple[Any, float | None, str | None]] = []
    serial_hits = [t for t in out if t[2]]
    for i, (p, s, serial) in enumerate(out):
        tier = None
        if serial and len(serial_hits) == 1:
            tier = "High" if s >= 0.9 else "Medium"
        elif i == 0 and s >= 0.3:
            tier = "Medium" if s >= 0.6 and (len(out) == 1 or s - out[1][1] > 0.1) else "Low"
        ranked.append((p, round(s, 3), tier))
    return ranked
