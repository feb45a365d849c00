"""Latency and memory of the photo pipeline in one process (what a server worker pays per photo).

    python bench/vision_latency.py [--repeat 5]

Prints the median and best wall time for a one-card and a four-card generated photo (decode,
locate, straighten, OCR, features; catalog matching excluded) and the peak RSS with the OCR
engine loaded, and the machine's yardstick (``vision.ocr.yardstick_ms``) with the four-card median
as a multiple of it, so figures from two machines compare. Targets (issue 6): <= 1.0 s one card,
<= 2.0 s four cards on 2 cores, < 500 MB.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.ocr import yardstick_line, yardstick_ms  # noqa: E402
from vision.photos import make_photo  # noqa: E402
from vision.pipeline import analyse  # noqa: E402
from vision.render import CardSpec, render_card  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    cards = [render_card(CardSpec(id=f"bench{i}", name=n, number=str(i + 1), release_name="2024 Topps Chrome",
                                  year="2024", team="New York Yankees"))
             for i, n in enumerate(["Aaron Judge", "Shohei Ohtani", "Paul Skenes", "Mike Trout"])]
    photos = {1: make_photo(cards[:1], "medium", seed=1)[0], 4: make_photo(cards, "medium", seed=2)[0]}
    analyse(photos[1])  # loads the OCR engine once, as a server does at its first request
    medians = {}
    for n, data in photos.items():
        times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            found = len(analyse(data).readings)
            times.append(time.perf_counter() - t)
        print(f"{n}-card photo: found {found}, median {statistics.median(times):.3f}s, best {min(times):.3f}s")
        medians[n] = statistics.median(times)
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    ms = yardstick_ms()
    print(f"{yardstick_line(ms)}; four-card median / yardstick: {medians[4] * 1000 / ms:.1f}")


if __name__ == "__main__":
    main()
