"""Requests per API key and month: added in batches, read for ``GET /v1/subscription/``."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import ApiKeyUsage


async def add(*, session: AsyncSession, counts: dict[tuple[uuid.UUID, str], int]) -> None:
    """Add ``{(key id, YYYY-MM): calls}`` to the stored totals (one upsert per row)."""
    insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    for (key_id, month), calls in sorted(counts.items()):
        stmt = insert(ApiKeyUsage).values(api_key_id=key_id, month=month, calls=calls)
        await session.execute(stmt.on_conflict_do_update(
            index_elements=["api_key_id", "month"], set_={"calls": ApiKeyUsage.calls + stmt.excluded.calls}))


async def calls(*, session: AsyncSession, key_id: uuid.UUID, month: str) -> int:
    found = await session.scalar(select(ApiKeyUsage.calls).where(ApiKeyUsage.api_key_id == key_id,
                                                                 ApiKeyUsage.month == month))
    return int(found or 0)
