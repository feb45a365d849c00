"""The store as the HTTP layer needs it: engine and sessions, the catalog version and API-key lookup.

``api`` reaches the database only through the tools and this module, so the import direction stays
``api -> tools -> store``.
"""

from __future__ import annotations

from store.db import create_engine, normalize_url, sessionmaker
from store.queries import catalog_version
from store.queries import keys as api_keys

__all__ = ["api_keys", "catalog_version", "create_engine", "normalize_url", "sessionmaker"]
