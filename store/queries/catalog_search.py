"""One ranked search across cards, sets, releases and parallels (``GET /v1/catalog/search``).

Every word of the query must appear in the entity's name (index-backed partial match). Ranking:
exact name 1.0 (matchKind "exact"), name starting with the query 0.8, otherwise 0.6 (both "fuzzy"), minus a small penalty for longer
names, so "Charizard" ranks the card before "Charizard ex" and sets named after it.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Card, CardSet, Manufacturer, Parallel, Release, Segment
from store.queries.catalog_filters import (
    dialect_of,
    field_conds,
    manufacturer_cond,
    name_match,
    segment_cond,
    year_conds,
)

KINDS = ("card", "set", "release", "parallel")


def _rank(name: str, q: str) -> tuple[float, str]:
    n, t = name.lower(), q.lower()
    if n == t:
        base, kind = 1.0, "exact"
    elif n.startswith(t):
        base, kind = 0.8, "fuzzy"
    else:
        base, kind = 0.6, "fuzzy"
    return round(base - min(0.19, max(0, len(n) - len(t)) * 0.005), 4), kind


def _statements(words: list[str], d: str, rel_conds: list, fields: list[tuple[str, str]]) -> dict[str, Any]:
    """One statement per kind: the entity's display columns, its name matching every word."""
    base_cols = (Release.name.label("release_name"), Release.year.label("year"),
                 Manufacturer.name.label("manufacturer_name"), Segment.name.label("segment_name"))

    def join_rel(stmt):
        return (stmt.join(Segment, Segment.id == Release.segment_id)
                .outerjoin(Manufacturer, Manufacturer.id == Release.manufacturer_id).where(*rel_conds))

    stmts = {
        "card": join_rel(select(Card.id, Card.name, Card.number, CardSet.name.label("set_name"), *base_cols)
                         .join(CardSet, CardSet.id == Card.set_id).join(Release, Release.id == Card.release_id))
        .where(*[name_match(Card.name, w, d) for w in words], *field_conds(fields, "card", Card.id)),
        "set": join_rel(select(CardSet.id, CardSet.name, *base_cols).join(Release, Release.id == CardSet.release_id))
        .where(*[name_match(CardSet.name, w, d) for w in words]),
        "release": join_rel(select(Release.id, Release.name, *base_cols))
        .where(*[name_match(Release.name, w, d) for w in words]),
        "parallel": join_rel(select(Parallel.id, Parallel.name, Parallel.numbered_to, CardSet.name.label("set_name"),
                                    *base_cols).join(CardSet, CardSet.id == Parallel.set_id)
                             .join(Release, Release.id == CardSet.release_id))
        .where(*[name_match(Parallel.name, w, d) for w in words]),
    }
    if fields:  # metadata fields exist on cards only here
        stmts = {"card": stmts["card"]}
    return stmts


def _item(k: str, m: Any, q: str) -> dict[str, Any]:
    rel, match = _rank(m["name"], q)
    item = {"type": k, "id": str(m["id"]), "name": m["name"], "relevance": rel, "matchKind": match,
            "year": m["year"], "releaseName": m["release_name"], "manufacturerName": m["manufacturer_name"],
            "segmentName": m["segment_name"]}
    if k in ("card", "parallel"):
        item["setName"] = m["set_name"]
    if k == "card":
        item["cardNumber"] = m["number"]
    if k == "parallel":
        item["parallelName"] = m["name"]
        item["numberedTo"] = m["numbered_to"]
    if k == "set":
        item["setName"] = m["name"]
    return item


async def details(*, session: AsyncSession, picks: list[tuple[str, uuid.UUID]]) -> dict[tuple[str, str], dict]:
    """The display fields of entities the search index ranked, by (kind, id)."""
    stmts = _statements([], dialect_of(session), [], [])
    out: dict[tuple[str, str], dict] = {}
    id_cols = {"card": Card.id, "set": CardSet.id, "release": Release.id, "parallel": Parallel.id}
    for k in KINDS:
        ids = [i for kind, i in picks if kind == k]
        if ids:
            for row in (await session.execute(stmts[k].where(id_cols[k].in_(ids)))).all():
                out[(k, str(row._mapping["id"]))] = _item(k, row._mapping, "")
    return out


async def search(*, session: AsyncSession, q: str, kind: str | None, segment: str | None, manufacturer: str | None,
                 year: str | None, min_year: str | None, max_year: str | None, fields: list[tuple[str, str]],
                 skip: int, take: int) -> tuple[list[dict[str, Any]], int]:
    d = dialect_of(session)
    words = [w for w in q.split() if w] or [q]
    rel_conds = year_conds(year, min_year, max_year)
    if segment:
        rel_conds.append(segment_cond(segment))
    if manufacturer:
        rel_conds.append(manufacturer_cond(manufacturer))
    stmts = _statements(words, d, rel_conds, fields)
    total = 0
    results: list[dict[str, Any]] = []
    want = skip + take
    for k, stmt in stmts.items():
        if kind and k != kind:
            continue
        total += int((await session.execute(select(func.count()).select_from(stmt.subquery()))).scalar_one())
        name_col = stmt.selected_columns[1]
        exact_first = (func.lower(name_col) != q.lower(), func.length(name_col), name_col)
        for row in (await session.execute(stmt.order_by(*exact_first).limit(want))).all():
            results.append(_item(k, row._mapping, q))
    order = {k: i for i, k in enumerate(KINDS)}
    results.sort(key=lambda r: (-r["relevance"], order[r["type"]], r["name"].lower(), r["id"]))
    return results[skip:skip + take], total
