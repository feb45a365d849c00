"""``cardwise import population FILE``: graded population counts from a CSV or JSON file.

No public population data exists, so this is Cardwise's own documented format.

CSV (one row per card or parallel x grade; a header row is required):

    card_id,parallel_id,company,grading_type,grade,population,qualified_population
    0b0e...,,PSA,Card,10,12,0
    0b0e...,7d1c...,PSA,Card,9,40,3

``parallel_id`` empty = the base card; ``company`` is the abbreviation (PSA, BGS, SGC...);
``grading_type`` defaults to ``Card``. Re-importing a row replaces its counts. Every company in
the file gets ``last_synced_at`` = the import time (or ``synced_at`` from JSON).

JSON: ``{"synthetic": false, "synced_at": {"PSA": "2026-11-01T00:00:00Z"},
"links": [{"set_id": ..., "company": "PSA", "external_name": "...", "confirmed": true}],
"counts": [{...same keys as the CSV...}]}``. Only confirmed links put a company into the set
and release reports.
"""

from __future__ import annotations

import csv
import json
import logging
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.importers._skips import Skips
from store.importers.grades import load as load_grades
from store.models import Card, PopulationCount, PopulationSetLink, PopulationSync
from store.reference import grades as ref

NAME = "population"
HELP = "graded population counts from a CSV or JSON file (format in store/importers/population.py)"
NEEDS_SOURCE = True

log = logging.getLogger("cardwise.market")
NS = uuid.uuid5(uuid.NAMESPACE_URL, "https://cardwise.invalid/population")


def count_id(card_id: uuid.UUID, parallel_id: uuid.UUID | None, grade_id: uuid.UUID) -> uuid.UUID:
    return uuid.uuid5(NS, f"{card_id}:{parallel_id or 'base'}:{grade_id}")


def link_id(company_id: uuid.UUID, set_id: uuid.UUID) -> uuid.UUID:
    return uuid.uuid5(NS, f"link:{company_id}:{set_id}")


async def upsert_count(session: AsyncSession, card_id: uuid.UUID, parallel_id: uuid.UUID | None,
                       grade_id: uuid.UUID, population: int, qualified: int, *, synthetic: bool) -> None:
    await session.merge(PopulationCount(id=count_id(card_id, parallel_id, grade_id), card_id=card_id,
                                        parallel_id=parallel_id, grade_id=grade_id, population=population,
                                        qualified_population=qualified, synthetic=synthetic))


async def upsert_link(session: AsyncSession, company_id: uuid.UUID, set_id: uuid.UUID, external_name: str | None,
                      confirmed: bool) -> None:
    existing = await session.scalar(select(PopulationSetLink).where(
        PopulationSetLink.company_id == company_id, PopulationSetLink.set_id == set_id))
    if existing is None:
        session.add(PopulationSetLink(id=link_id(company_id, set_id), company_id=company_id, set_id=set_id,
                                      external_name=external_name, confirmed=confirmed))
    else:
        existing.external_name = external_name
        existing.confirmed = confirmed


async def mark_synced(session: AsyncSession, company_id: uuid.UUID, when: datetime, *, synthetic: bool) -> None:
    await session.merge(PopulationSync(company_id=company_id, last_synced_at=when, synthetic=synthetic))


def _grade_id(row: dict[str, Any]) -> uuid.UUID:
    company = str(row["company"]).strip().upper()
    gtype = (row.get("grading_type") or "Card").strip()
    value = str(row["grade"]).strip()
    if value.endswith(".0"):
        value = value[:-2]
    return ref.grade_id(company, gtype, value)


def _read(path: Path) -> dict[str, Any]:
    if path.suffix.lower() == ".json":
        return json.loads(path.read_text())
    with path.open(newline="") as fh:
        return {"counts": list(csv.DictReader(fh))}


async def run(sessions: async_sessionmaker[AsyncSession], source: str | None, *, progress: Any = None) -> dict[str, Any]:
    doc = _read(Path(str(source)))
    first = 2 if Path(str(source)).suffix.lower() == ".csv" else 0  # a CSV line, or an index in "counts"
    synthetic = bool(doc.get("synthetic", False))
    now = datetime.now(timezone.utc)
    counts: dict[str, Any] = {"counts": 0, "links": 0, "skipped_rows": 0}
    skips = Skips(log, NAME)
    path = Path(str(source))
    bar = progress("population", len(doc.get("counts", []))) if progress else None
    async with sessions() as s, s.begin():
        from store.models import Grade

        await load_grades(s)

        known_cards = set()
        companies: set[str] = set()
        for i, row in enumerate(doc.get("counts", []), start=first):
            try:
                card_id = uuid.UUID(str(row["card_id"]))
                par = row.get("parallel_id") or None
                parallel_id = uuid.UUID(str(par)) if par else None
                grade_id = _grade_id(row)
                pop, qual = int(row.get("population") or 0), int(row.get("qualified_population") or 0)
                if pop < 0 or qual < 0:
                    raise ValueError("negative count")
                if card_id not in known_cards:
                    if await s.get(Card, card_id) is None:
                        raise ValueError(f"unknown card {card_id}")
                    known_cards.add(card_id)
                if await s.get(Grade, grade_id) is None:
                    raise ValueError(f"unknown grade {row.get('company')} {row.get('grade')}")
            except (KeyError, ValueError, TypeError) as exc:
                skips.add(path, i, str(exc))
                counts["skipped_rows"] += 1
                continue
            await upsert_count(s, card_id, parallel_id, grade_id, pop, qual, synthetic=synthetic)
            companies.add(str(row["company"]).strip().upper())
            counts["counts"] += 1
            if bar:
                bar.advance()
        for link in doc.get("links", []):
            company = str(link["company"]).upper()
            await upsert_link(s, ref.company_id(company), uuid.UUID(str(link["set_id"])), link.get("external_name"),
                              bool(link.get("confirmed", False)))
            companies.add(company)
            counts["links"] += 1
        synced = doc.get("synced_at") or {}
        for company in companies:
            when = datetime.fromisoformat(synced[company].replace("Z", "+00:00")) if company in synced else now
            await mark_synced(s, ref.company_id(company), when, synthetic=synthetic)
    if bar:
        bar.close()
    return {**counts, **skips.summary()}
