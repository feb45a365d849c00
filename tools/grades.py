"""Grading reference data: companies > grading types > grades."""

from __future__ import annotations

import uuid

from pydantic import Field

from store.models import GradingCompany as CompanyRow
from store.models import GradingType as TypeRow
from store.queries import grades as q
from tools._models import CamelOut, In, UUIDStr
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import not_found


class Qualifier(CamelOut):
    code: str = Field(description="As printed after the grade on a label: OC, ST, PD, OF, MK, MC")
    name: str = Field(description="The flaw it marks (Off Center, Staining, Print Defect ...)")


class GradingCompany(CamelOut):
    __keep_none__ = frozenset({"description"})
    id: str
    name: str = Field(description="The company's short name, as on its labels: PSA, BGS, SGC, CGC ...")
    full_name: str = Field(description="The company's full name (Professional Sports Authenticator ...)")
    description: str | None = None
    note: str | None = None
    abbreviation: str | None = None
    qualifiers: list[Qualifier] | None = Field(None, description="Label qualifiers the company uses (extension; "
                                                                 "in the company list only)")


class GradingType(CamelOut):
    __keep_none__ = frozenset({"description"})
    id: str
    grading_company_id: str
    grading_company_name: str = Field(description="The company's short name (PSA, BGS ...)")
    name: str
    description: str | None = None


class Grade(CamelOut):
    __keep_none__ = frozenset({"condition"})
    id: str
    grading_type_id: str
    grading_type_name: str
    grading_company_id: str
    grading_company_name: str = Field(description="The company's short name (PSA, BGS ...)")
    grade: str
    condition: str | None = None


class CompaniesQuery(In):
    pass


class CompaniesPage(CamelOut):
    companies: list[GradingCompany]
    total: int


class TypesQuery(In):
    company_id: UUIDStr = Field(alias="companyId", description="Grading company id")


class TypesPage(CamelOut):
    types: list[GradingType]
    total: int
    grading_company: GradingCompany


class GradesQuery(In):
    company_id: UUIDStr = Field(alias="companyId", description="Grading company id")
    type_id: UUIDStr = Field(alias="typeId", description="Grading type id")


class GradesPage(CamelOut):
    grades: list[Grade]
    total: int
    grading_type: GradingType
    grading_company: GradingCompany


def _company(c: CompanyRow, qualifiers: list[tuple[str, str]] | None = None) -> GradingCompany:
    return GradingCompany(id=str(c.id), name=c.abbreviation, full_name=c.name, description=c.description,
                          note=c.note, abbreviation=c.abbreviation,
                          qualifiers=[Qualifier(code=k, name=n) for k, n in qualifiers] if qualifiers else None)


def _type(t: TypeRow, c: CompanyRow) -> GradingType:
    return GradingType(id=str(t.id), grading_company_id=str(c.id), grading_company_name=c.abbreviation,
                       name=t.name, description=t.description)


@tool("grades_companies", method="GET", path="/v1/grades/companies", cache=True)
async def list_companies(ctx: ToolContext, _: CompaniesQuery) -> CompaniesPage:
    """List the grading companies (PSA, BGS, SGC, CGC, TAG, HGA, CSG, ISA...), sorted by short name."""
    async with ctx.transaction() as s:
        rows = sorted(await q.companies(session=s), key=lambda c: c.abbreviation.upper())
        marks = await q.qualifiers(session=s)
    return CompaniesPage(companies=[_company(c, marks.get(c.id)) for c in rows], total=len(rows))


@tool("grades_types", method="GET", path="/v1/grades/companies/{companyId}/types", cache=True)
async def list_types(ctx: ToolContext, query: TypesQuery) -> TypesPage:
    """List the grading types a company offers (e.g. Card, Autograph, Subgrade)."""
    async with ctx.transaction() as s:
        company = await q.company(session=s, company_id=uuid.UUID(query.company_id))
        if company is None:
            raise not_found("Grading company", query.company_id)
        rows = await q.types_of(session=s, company_id=company.id)
    return TypesPage(types=[_type(t, company) for t in rows], total=len(rows), grading_company=_company(company))


@tool("grades_grades", method="GET", path="/v1/grades/companies/{companyId}/types/{typeId}/grades", cache=True)
async def list_grades(ctx: ToolContext, query: GradesQuery) -> GradesPage:
    """List every grade of a grading type (e.g. PSA Card: 10 Gem Mint, 9 Mint, 8.5 ... 1 Poor)."""
    async with ctx.transaction() as s:
        company = await q.company(session=s, company_id=uuid.UUID(query.company_id))
        if company is None:
            raise not_found("Grading company", query.company_id)
        gtype = await q.grading_type(session=s, type_id=uuid.UUID(query.type_id))
        if gtype is None or gtype.company_id != company.id:
            raise not_found("Grading type", query.type_id)
        rows = await q.grades_of(session=s, type_id=gtype.id)
    t = _type(gtype, company)
    grades = [
        Grade(id=str(g.id), grading_type_id=t.id, grading_type_name=t.name, grading_company_id=str(company.id),
              grading_company_name=company.abbreviation, grade=g.value, condition=g.condition)
        for g in rows
    ]
    return GradesPage(grades=grades, total=len(grades), grading_type=t, grading_company=_company(company))
