"""Small helpers shared by the query modules."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession


def icontains(column: Any, text: str) -> ColumnElement[bool]:
    """Case-insensitive partial match, with LIKE wildcards in ``text`` escaped."""
    return func.lower(column).contains(text.lower(), autoescape=True)


async def count_of(session: AsyncSession, stmt: Select[Any]) -> int:
    return int((await session.execute(select(func.count()).select_from(stmt.order_by(None).subquery()))).scalar_one())


async def page(session: AsyncSession, stmt: Select[Any], *, skip: int, take: int) -> tuple[list[Any], int]:
    """Rows of one page plus the total number matching."""
    total = await count_of(session, stmt)
    rows = (await session.execute(stmt.offset(skip).limit(take))).all()
    return list(rows), total
