"""``cardwise import grades``: load the grading reference data (idempotent upsert)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.models import Grade, GradeQualifier, GradingCompany, GradingType
from store.reference import grades as ref

NAME = "grades"
HELP = "grading companies, types and grades (reference data shipped with Cardwise)"
NEEDS_SOURCE = False


async def load(session: AsyncSession) -> dict[str, int]:
    counts = {"companies": 0, "types": 0, "grades": 0, "qualifiers": 0}
    for ci, c in enumerate(ref.COMPANIES):
        await session.merge(
            GradingCompany(id=ref.company_id(c.abbreviation), name=c.name, abbreviation=c.abbreviation,
                           description=c.description, note=c.note, sort_order=ci)
        )
        counts["companies"] += 1
        for ti, t in enumerate(c.types):
            tid = ref.type_id(c.abbreviation, t.name)
            await session.merge(GradingType(id=tid, company_id=ref.company_id(c.abbreviation), name=t.name,
                                            description=t.description, sort_order=ti))
            counts["types"] += 1
            for gi, (value, condition) in enumerate(t.grades):
                await session.merge(Grade(id=ref.grade_id(c.abbreviation, t.name, value), type_id=tid, value=value,
                                          condition=condition, numeric=ref.numeric_value(value), sort_order=gi))
                counts["grades"] += 1
        for code, qname in c.qualifiers or []:
            await session.merge(GradeQualifier(id=ref.grade_id(c.abbreviation, "qualifier", code),
                                               company_id=ref.company_id(c.abbreviation), code=code, name=qname))
            counts["qualifiers"] += 1
    return counts


async def run(sessions: async_sessionmaker[AsyncSession], source: str | None = None, *, progress: Any = None) -> dict[str, int]:
    async with sessions() as session, session.begin():
        return await load(session)
