"""The tier calibration: cuts chosen on labelled (confidence, right) pairs."""

from __future__ import annotations

import random

from evals.vision_calibration import bands, choose


def _pairs(seed: int = 0, n: int = 600) -> list[tuple[float, bool]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        conf = round(rng.random(), 3)
        out.append((conf, rng.random() < min(1.0, 0.2 + conf)))  # P(right) grows with confidence
    return out


def test_high_band_is_at_least_99_percent_right_and_low_drops_the_mostly_wrong():
    pairs = _pairs()
    cuts = choose(pairs)
    assert cuts["low"] <= cuts["medium"] <= cuts["high"]
    got = bands(pairs, cuts)
    n, right = got["High"]
    assert n >= 20 and right / n >= 0.99
    n, right = got["dropped"]
    assert right / n < 0.5


def test_a_cut_never_splits_equal_confidences():
    pairs = [(0.9, True)] * 200 + [(0.6, True), (0.6, False), (0.6, False)] + [(0.61, True)] * 50
    cuts = choose(pairs)
    assert cuts["high"] > 0.6  # the 0.6 group (one right in three) stays out of High
