"""A dependency-free progress bar for long imports (stderr; redraws at most a few times a second)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, label: str, total: int | None = None, *, stream: TextIO | None = None, enabled: bool = True):
        self.label = label
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self._start = time.monotonic()
        self._last = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.enabled and now - self._last > 0.25:
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        rate = self.done / max(now - self._start, 1e-9)
        if self.total:
            frac = min(self.done / self.total, 1.0)
            bar = "#" * int(frac * 30)
            line = f"\r{self.label} [{bar:<30}] {self.done}/{self.total} ({rate:,.0f}/s)"
        else:
            line = f"\r{self.label} {self.done:,} ({rate:,.0f}/s)"
        self.stream.write(line)
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()


class NullProgress(Progress):
    def __init__(self, label: str = "", total: int | None = None):
        super().__init__(label, total, enabled=False)
