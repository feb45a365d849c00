"""Progress bars for long commands (tqdm on stderr); silent when stderr is not a terminal or with --quiet."""

from __future__ import annotations

import sys
from typing import Any

from tqdm import tqdm


class Bar:
    """The ``progress(label, total)`` object importers and the vision commands use: ``advance``, ``close``."""

    def __init__(self, label: str, total: int | None = None, *, enabled: bool = True) -> None:
        self._bar = tqdm(total=total, desc=label, unit=" rows", unit_scale=True, file=sys.stderr, leave=True,
                         dynamic_ncols=True, disable=not enabled or not sys.stderr.isatty())

    def advance(self, n: int = 1) -> None:
        self._bar.update(n)

    def close(self) -> None:
        self._bar.close()


def factory(*, quiet: bool = False) -> Any:
    """A ``progress(label, total=None)`` callable for ``index_images``, ``render_missing`` and importers."""

    def make(label: str, total: int | None = None) -> Bar:
        return Bar(label, total, enabled=not quiet)

    return make
