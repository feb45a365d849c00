"""Bulk upserts and shared lookups for the catalog importers.

``upsert(session, Model, rows)`` sends ``INSERT ... ON CONFLICT (pk) DO UPDATE`` as an executemany
(one compiled statement; SQLAlchemy batches the rows into multi-row VALUES under the drivers'
parameter limits); rows whose values did
not change are left as they were (``WHERE`` on the update), so a re-import changes nothing.
Association rows use ``DO NOTHING``. Segments, manufacturers, attributes and metadata fields are
unique by name/key and may already exist with other ids (another importer, hand-made rows), so
they are resolved by name first and created with a uuid5 id otherwise.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Attribute, Manufacturer, MetadataField, Segment

# namespace of every id Cardwise derives (uuid5) where a source has none
NS = uuid.UUID("6f1d4c52-8a7e-5b0e-9d1c-2a4b7e3f9c10")


def derive_id(*parts: object) -> uuid.UUID:
    return uuid.uuid5(NS, "|".join(str(p) for p in parts))


def clip(value: str | None, limit: int) -> str | None:
    """Fit a source string into a column of ``limit`` characters (ellipsis when cut)."""
    if value is None or len(value) <= limit:
        return value
    return value[: limit - 1] + "\u2026"


def number_sort(number: str | None) -> int | None:
    digits = ""
    for ch in number or "":
        if ch.isdigit():
            digits += ch
        elif digits:
            break
    return int(digits[:9]) if digits else None


def _insert(session: AsyncSession, table: Any):
    name = session.get_bind().dialect.name
    return (postgresql.insert if name == "postgresql" else sqlite.insert)(table)


async def upsert(session: AsyncSession, model: Any, rows: Sequence[dict[str, Any]], *,
                 keys: Sequence[str] = ("id",), nothing: bool = False) -> int:
    """Insert or update ``rows`` (dicts of column values, all with the same keys)."""
    if not rows:
        return 0
    table = model.__table__
    cols = list(rows[0].keys())
    stmt = _insert(session, table)
    if nothing:
        stmt = stmt.on_conflict_do_nothing(index_elements=list(keys))
    else:
        upd = [c for c in cols if c not in keys and c != "created_at"]
        if not upd:
            stmt = stmt.on_conflict_do_nothing(index_elements=list(keys))
        else:
            changed = or_(*[table.c[c].is_distinct_from(stmt.excluded[c]) for c in upd])
            stmt = stmt.on_conflict_do_update(index_elements=list(keys),
                                              set_={c: stmt.excluded[c] for c in upd}, where=changed)
    # executemany: compiled once, sent by SQLAlchemy's "insertmanyvalues" in parameter-limited batches
    for i in range(0, len(rows), 5000):
        await session.execute(stmt, list(rows[i:i + 5000]))
    return len(rows)


class Lookups:
    """Name -> id caches for the small, name-unique tables (created on first use)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], uuid.UUID] = {}

    async def _get(self, session: AsyncSession, kind: str, model: Any, col: Any, value: str,
                   make: dict[str, Any]) -> uuid.UUID:
        key = (kind, value.lower())
        if key in self._cache:
            return self._cache[key]
        found = (await session.execute(select(model.id).where(col == value))).scalar_one_or_none()
        if found is None:
            found = derive_id(kind, value.lower())
            await upsert(session, model, [{"id": found, **make}])
        self._cache[key] = found
        return found

    async def segment(self, session: AsyncSession, name: str, shortname: str | None = None) -> uuid.UUID:
        return await self._get(session, "segment", Segment, Segment.name, name,
                               {"name": name, "shortname": shortname})

    async def manufacturer(self, session: AsyncSession, name: str) -> uuid.UUID:
        return await self._get(session, "manufacturer", Manufacturer, Manufacturer.name, name, {"name": name})

    async def attribute(self, session: AsyncSession, short: str, name: str | None = None) -> uuid.UUID:
        return await self._get(session, "attribute", Attribute, Attribute.short_name, short,
                               {"short_name": short, "name": name or ATTRIBUTE_NAMES.get(short, short)})

    async def field(self, session: AsyncSession, key: str, name: str | None = None) -> uuid.UUID:
        key = key.upper()
        return await self._get(session, "field", MetadataField, MetadataField.key, key,
                               {"key": key, "name": name or key.replace("_", " ").title()})


ATTRIBUTE_NAMES = {
    "RC": "Rookie Card", "AU": "Autograph", "SP": "Short Print", "SSP": "Super Short Print",
    "MEM": "Memorabilia", "RELIC": "Relic", "1st": "First Bowman", "FBC": "First Bowman Card",
    "HOF": "Hall of Fame", "PATCH": "Patch", "VAR": "Variation", "ERR": "Error", "COR": "Corrected",
}


def chunks(items: Iterable[Any], size: int) -> Iterable[list[Any]]:
    batch: list[Any] = []
    for it in items:
        batch.append(it)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
