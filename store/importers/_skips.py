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
    def __init__(self, log: logging.Logger, importer: str, root: str | Path | None = None) -> None:
        self.log = log
        self.root = Path(root) if root is not None else None
        self.importer = importer
        self.entries: list[dict[str, Any]] = []
        self.total = 0

    def add(self, file: str | Path, row: int | str | None, reason: str) -> None:
        path = Path(str(file))
        if self.root is not None and self.root.is_dir() and path.is_relative_to(self.root):
            name = str(path.relative_to(self.root))
        else:
            name = path.name
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
