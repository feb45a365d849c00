"""``cardwise import prices-refresh``: recompute every CardPrice row from the price records.

Method (store/queries/pricing.py): median of the most recent 10 completed sales within 365 days
of a variant's newest sale, falling back to fixed-price asks; qualified grades left out.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.queries.pricing import refresh_prices

NAME = "prices-refresh"
HELP = "recompute card prices (raw, psa-10...) from price records (median of recent completed sales)"
NEEDS_SOURCE = False


async def run(sessions: async_sessionmaker[AsyncSession], source: str | None = None, *, progress: Any = None) -> dict[str, int]:
    async with sessions() as s, s.begin():
        return {"prices": await refresh_prices(session=s)}
