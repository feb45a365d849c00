"""``cardwise import grades``: load the grading reference data (idempotent upsert)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.importers._bulk import upsert
from store.models import Grade, GradeQualifier, GradingCompany, GradingType
from store.reference import grades as ref

NAME = "grades"
HELP = "grading companies, types and grades (reference data shipped with Cardwise)"
NEEDS_SOURCE = False


async def load(session: AsyncSession) -> dict[str, int]:
    """Insert or update every company, type, grade and qualifier: one statement per table (every importer
    calls this first; a merge per row took seconds on PostgreSQL)."""
    companies, types, grades, qualifiers = [], [], [], []
    for ci, c in enumerate(ref.COMPANIES):
        companies.append(dict(id=ref.company_id(c.abbreviation), name=c.name, abbreviation=c.abbreviation,
                              description=c.description, note=c.note, sort_order=ci))
        for ti, t in enumerate(c.types):
            tid = ref.type_id(c.abbreviation, t.name)
            types.append(dict(id=tid, company_id=ref.company_id(c.abbreviation), name=t.name,
                              description=t.description, sort_order=ti))
            for gi, (value, condition) in enumerate(t.grades):
                grades.append(dict(id=ref.grade_id(c.abbreviation, t.name, value), type_id=tid, value=value,
                                   condition=condition, numeric=ref.numeric_value(value), sort_order=gi))
        for code, qname in c.qualifiers or []:
            qualifiers.append(dict(id=ref.grade_id(c.abbreviation, "qualifier", code),
                                   company_id=ref.company_id(c.abbreviation), code=code, name=qname))
    for model, rows in ((GradingCompany, companies), (GradingType, types), (Grade, grades),
                        (GradeQualifier, qualifiers)):
        await upsert(session, model, rows)
    return {"companies": len(companies), "types": len(types), "grades": len(grades), "qualifiers": len(qualifiers)}


async def run(sessions: async_sessionmaker[AsyncSession], source: str | None = None, *, progress: Any = None) -> dict[str, int]:
    async with sessions() as session, session.begin():
        return await load(session)
