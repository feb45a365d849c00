"""Calibrating the identification tiers on labelled generated photos.

``python -m evals.vision --calibrate [--calib-seed 1000] [--photos 20] [--write]`` renders a
labelled set with its own seed (never the evaluation's), identifies every photo with the tier
cuts lowered to zero, and records for each returned detection its fused confidence
(``identification.scoring.confidence``) and whether the card is right (a detection that matches no
object in the photo counts as wrong). From those pairs:

* ``high``: the lowest confidence above which at least ``HIGH_PRECISION`` of the detections are right
  and where the isotonic estimate of P(right | confidence) (below) has reached ``HIGH_P`` (so a
  large easy majority cannot carry a band of doubtful scores into High);
* ``medium``: the lowest confidence where the isotonic (pool-adjacent-violators) estimate of
  P(right | confidence) reaches ``MEDIUM_P``;
* ``low``: the same for ``LOW_P`` (below it a detection is dropped), and never below ``LOW_FLOOR``.

``--write`` stores the cuts in ``identification/calibration.json``; ``docs/vision-calibration.md``
describes the method and the current figures.
"""

from __future__ import annotations

import json
import math
from datetime import date
from pathlib import Path

HIGH_PRECISION = 0.99  # a margin over the 98 % target
HIGH_P = 0.98
MEDIUM_P = 0.85
LOW_P = 0.5
LOW_FLOOR = 0.25
MIN_HIGH = 20  # at least this many detections in the High band


def isotonic(scores: list[tuple[float, bool]]) -> list[tuple[float, float]]:
    """(confidence, P(right)) steps, non-decreasing in confidence (pool adjacent violators)."""
    groups: dict[float, list[float]] = {}  # equal confidences form one block from the start
    for conf, ok in scores:
        g = groups.setdefault(conf, [0.0, 0.0])
        g[0] += ok
        g[1] += 1
    blocks: list[list[float]] = []  # [sum right, count, lowest confidence]
    for conf in sorted(groups):
        blocks.append([groups[conf][0], groups[conf][1], conf])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            s, n, _ = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += n
    return [(b[2], b[0] / b[1]) for b in blocks]


def _first_at(steps: list[tuple[float, float]], p: float) -> float:
    return next((c for c, q in steps if q >= p), 1.0)


def choose(scores: list[tuple[float, bool]]) -> dict[str, float]:
    pts = sorted(scores, reverse=True)
    high, right = 1.0, 0
    for i, (conf, ok) in enumerate(pts, 1):
        right += ok
        tie_continues = i < len(pts) and pts[i][0] == conf  # cut only between different confidences
        if not tie_continues and i >= MIN_HIGH and right / i >= HIGH_PRECISION:
            high = conf
    steps = isotonic(scores)
    high = max(high, _first_at(steps, HIGH_P))
    medium = min(high, _first_at(steps, MEDIUM_P))
    low = min(medium, max(LOW_FLOOR, _first_at(steps, LOW_P)))
    return {"high": _down(high), "medium": _down(medium), "low": _down(low)}


def _down(x: float) -> float:
    """Three decimals, rounded down (a cut must keep the detection it was placed at)."""
    return math.floor(x * 1000) / 1000


def bands(scores: list[tuple[float, bool]], cuts: dict[str, float]) -> dict[str, tuple[int, int]]:
    out = {"High": [0, 0], "Medium": [0, 0], "Low": [0, 0], "dropped": [0, 0]}
    for conf, ok in scores:
        name = ("High" if conf >= cuts["high"] else "Medium" if conf >= cuts["medium"]
                else "Low" if conf >= cuts["low"] else "dropped")
        out[name][0] += 1
        out[name][1] += ok
    return {k: (v[0], v[1]) for k, v in out.items()}


def write(path: Path, cuts: dict[str, float], seed: int, photos: int, n: int) -> None:
    path.write_text(json.dumps({
        "method": f"evals/vision_calibration.py: {photos} generated photos per difficulty (easy, medium, hard, "
                  f"real-scan photos), text-only and with reference images, seed {seed}; {n} detections; "
                  f"high = precision >= {HIGH_PRECISION} and isotonic P(right) >= {HIGH_P}, medium/low = "
                  f"isotonic P(right) >= {MEDIUM_P}/{LOW_P} (low never below {LOW_FLOOR})",
        "date": date.today().isoformat(),
        "thresholds": cuts,
    }, indent=2) + "\n")
