"""The catalog's version counter: raised by catalog-changing commands, read by serving processes."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from store.base import utcnow
from store.models import CatalogVersion


async def current(*, session: AsyncSession) -> int:
    """The catalog's version (0 before any catalog-changing command ran)."""
    return int((await session.execute(select(CatalogVersion.version).where(CatalogVersion.id == 1))
                ).scalar_one_or_none() or 0)


async def bump(*, session: AsyncSession) -> None:
    """Raise the version by one (its row is made by the migration)."""
    await session.execute(update(CatalogVersion).where(CatalogVersion.id == 1)
                          .values(version=CatalogVersion.version + 1, changed_at=utcnow()))
