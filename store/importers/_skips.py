"""What an import left out, and why: one entry per skipped file or row (file, row, reason).

Each skip is logged as a warning naming its file and row, counted, and listed in the importer's
summary (``skipped``; the first ``LIMIT`` entries, ``skipped_more`` says how many were left off).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

LIMIT = 200


class Skips:
    def __init__(self, log: logging.Logger, importer: str) -> None:
        self.log = log
        self.importer = importer
        self.entries: list[dict[str, Any]] = []
        self.total = 0

    def add(self, file: str | Path, row: int | str | None, reason: str) -> None:
        name = Path(str(file)).name if str(file) else ""
        self.total += 1
        where = f"{name}:{row}" if row is not None else name
        self.log.warning("%s skipped %s: %s", self.importer, where, reason,
                         extra={"file": name, "row": row, "reason": reason})
        if len(self.entries) < LIMIT:
            self.entries.append({"file": name, "row": row, "reason": reason})

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"skipped": self.entries}
        if self.total > len(self.entries):
            out["skipped_more"] = self.total - len(self.entries)
        return out
