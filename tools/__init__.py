"""Capabilities as typed tools: one module per area, each function served by REST and the agent.

Modules whose names do not start with ``_`` and that are not infrastructure are discovered and
imported by ``load_all()``, which fills the registry.
"""

from __future__ import annotations

import importlib
import pkgutil

_INFRA = {"errors", "context"}
_loaded = False


def load_all() -> None:
    global _loaded
    if _loaded:
        return
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name.startswith("_") or mod.name in _INFRA:
            continue
        importlib.import_module(f"{__name__}.{mod.name}")
    _loaded = True
