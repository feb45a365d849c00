"""Grading reference data queries."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Grade, GradeQualifier, GradingCompany, GradingType


async def companies(*, session: AsyncSession) -> list[GradingCompany]:
    return list((await session.scalars(select(GradingCompany).order_by(GradingCompany.name))).all())


async def company(*, session: AsyncSession, company_id: uuid.UUID) -> GradingCompany | None:
    return await session.get(GradingCompany, company_id)


async def types_of(*, session: AsyncSession, company_id: uuid.UUID) -> list[GradingType]:
    stmt = select(GradingType).where(GradingType.company_id == company_id).order_by(GradingType.name)
    return list((await session.scalars(stmt)).all())


async def grading_type(*, session: AsyncSession, type_id: uuid.UUID) -> GradingType | None:
    return await session.get(GradingType, type_id)


async def grades_of(*, session: AsyncSession, type_id: uuid.UUID) -> list[Grade]:
    stmt = select(Grade).where(Grade.type_id == type_id).order_by(Grade.sort_order)
    return list((await session.scalars(stmt)).all())


async def qualifiers(*, session: AsyncSession) -> dict[uuid.UUID, list[tuple[str, str]]]:
    """Each company's label qualifiers (code, name): PSA's OC Off Center, MC Miscut ..."""
    out: dict[uuid.UUID, list[tuple[str, str]]] = {}
    for row in (await session.scalars(select(GradeQualifier).order_by(GradeQualifier.code))).all():
        out.setdefault(row.company_id, []).append((row.code, row.name))
    return out
