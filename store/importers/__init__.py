"""Importers: ``cardwise import NAME [PATH]``. Each module here defines ``NAME``, ``HELP`` and
``async def run(sessions, source, *, progress) -> dict[str, int]`` (counts for the summary).

Importers stream their input, report bad records with their location and go on, and are
idempotent: ids are kept from the source or derived with uuid5, so re-importing updates in place.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def available() -> dict[str, ModuleType]:
    out: dict[str, ModuleType] = {}
    for mod in pkgutil.iter_modules(__path__):
        if mod.name.startswith("_"):
            continue
        m = importlib.import_module(f"{__name__}.{mod.name}")
        if hasattr(m, "NAME") and hasattr(m, "run"):
            out[m.NAME] = m
    return out
