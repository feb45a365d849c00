"""How name spotting (``vision/spotting.py``) scales with the catalog's distinct names.

    python bench/spotting_scale.py [--sizes 10000,100000,300000] [--lines 8]

For each size: the time to build the ``NameSpotter`` (once per process and catalog version), the
time to score one line against every name (the letter-bag shortlist over all names, then the
exact likelihood of 32), and the memory its arrays take. The reference, measured in the same run,
is the recogniser reading the same line (``ocr.frames``), which spotting follows every time:
the ratio says what spotting adds to a line already read. The names are random (first and last
names of plausible lengths); the line is a rendered name in small print.
"""

from __future__ import annotations

import argparse
import random
import statistics
import string
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import ocr  # noqa: E402
from vision.spotting import NameSpotter, alphabet  # noqa: E402


def _names(n: int, rng: random.Random) -> list[str]:
    def word(lo: int, hi: int) -> str:
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(lo, hi))).title()

    first = [word(3, 8) for _ in range(max(100, n // 30))]
    last = [word(4, 10) for _ in range(max(100, n // 5))]
    out: set[str] = set()
    while len(out) < n:
        out.add(f"{rng.choice(first)} {rng.choice(last)}")
    return sorted(out)


def _line() -> np.ndarray:
    img = np.full((22, 130, 3), 245, np.uint8)
    cv2.putText(img, "Darren Turcotte", (4, 15), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (30, 30, 30), 1, cv2.LINE_AA)
    return cv2.GaussianBlur(img, (0, 0), 0.8)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="10000,100000,300000")
    p.add_argument("--lines", type=int, default=8, help="timed repeats per size")
    args = p.parse_args()
    rng = random.Random(1)
    line = _line()
    charset = ocr.charset()  # loads the recogniser
    for size in (int(s) for s in args.sizes.split(",")):
        names = _names(size - 1, rng) + ["Darren Turcotte"]
        print(f"{size:>8} names: building ...", end="", flush=True)
        t = time.perf_counter()
        columns, classes = alphabet(names, charset)
        spotter = NameSpotter(names, columns)
        build = time.perf_counter() - t
        rec_times = []
        for _ in range(args.lines):
            t = time.perf_counter()
            ((_, _, probs),) = ocr.frames([line], classes)
            rec_times.append(time.perf_counter() - t)
        rec = statistics.median(rec_times)
        times = []
        for _ in range(args.lines):
            t = time.perf_counter()
            scores = spotter.spot(probs)
            times.append(time.perf_counter() - t)
        spot = statistics.median(times)
        top = names[max(scores, key=scores.get)]
        mb = (spotter.labels.nbytes + spotter.owner.nbytes + spotter.lengths.nbytes) / 2**20
        print(f"\r{size:>8} names: build {build:.2f}s, recognising the line {1000 * rec:.1f} ms, spot it "
              f"{1000 * spot:.1f} ms ({spot / rec:.1f}x), arrays {mb:.0f} MB, line {probs.nbytes / 1024:.0f} KB, "
              f"top name {top!r}")


if __name__ == "__main__":
    main()
