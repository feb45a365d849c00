"""Collection analytics and breakdown as aggregate SQL over the valued entries of one collection.

``valued(collection_id)`` is a CTE with one row per collection entry and its unit value: the
``card_price`` row for exactly (card, parallel or base, grade or raw). Every figure is a SUM/COUNT
over that CTE; money stays in integer cents (products are widened to BIGINT first).
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from sqlalchemy import BigInteger, Float, Uuid, and_, case, cast, func, literal, null, or_, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import (
    Card,
    CardPrice,
    CardSet,
    CollectionCard,
    Grade,
    GradingCompany,
    GradingType,
    Manufacturer,
    Release,
)

GroupBy = Literal["release", "year", "grade", "player", "manufacturer"]
CC = CollectionCard


async def tune(*, session: AsyncSession) -> None:
    """Per-transaction planner settings for these aggregate reads.

    PostgreSQL's JIT compiler kicks in on the cost estimates of a 10,000-entry collection and
    spends far longer compiling than the query takes to run (1-2 s against ~30 ms), so it is off
    for the current transaction only.
    """
    if session.bind.dialect.name == "postgresql":
        await session.execute(text("SET LOCAL jit = off"))


def unit_price(card_id: Any, parallel_id: Any, grade_id: Any) -> Any:
    """Scalar subquery: the current price in cents of one copy in this condition (NULL if none).

    ``card_price`` holds one row per condition; should a duplicate slip in, the higher value counts.
    """
    def same(col: Any, value: Any) -> Any:
        return col.is_(None) if value is None else col.is_not_distinct_from(value)

    return (
        select(func.max(CardPrice.value_cents))
        .where(CardPrice.card_id == card_id, same(CardPrice.parallel_id, parallel_id), same(CardPrice.grade_id, grade_id))
        .scalar_subquery()
    )


def valued(collection_id: uuid.UUID) -> Any:
    sold = and_(CC.sold_price_cents.is_not(None), CC.sold_date.is_not(None))
    return (
        select(
            CC.id.label("id"), CC.card_id.label("card_id"), CC.parallel_id.label("parallel_id"),
            CC.grade_id.label("grade_id"), cast(CC.quantity, BigInteger).label("qty"),
            CC.buy_price_cents.label("buy"), CC.sell_price_cents.label("sell"), CC.sold_price_cents.label("sold_price"),
            case((sold, 1), else_=0).label("sold"),
            unit_price(CC.card_id, CC.parallel_id, CC.grade_id).label("unit"),
        )
        .where(CC.collection_id == collection_id)
        .cte("v")
        .prefix_with("MATERIALIZED")  # price each entry once, however many aggregates read it
    )


def _money_columns(v: Any) -> dict[str, Any]:
    """Aggregates shared by the analytics totals and each breakdown group (see README formulas)."""
    held = v.c.sold == 0
    is_sold = v.c.sold == 1
    has_buy = v.c.buy.is_not(None)
    priced = and_(held, v.c.unit.is_not(None))
    realized_row = and_(is_sold, has_buy)
    unrealized_row = and_(priced, has_buy)
    return {
        "entries": func.count(v.c.id),
        "unique": func.count(func.distinct(v.c.card_id)),
        "qty": func.sum(v.c.qty),
        "invested": func.sum(case((has_buy, v.c.buy * v.c.qty))),
        "buy_qty": func.sum(case((has_buy, v.c.qty))),
        "value": func.sum(case((priced, v.c.unit * v.c.qty))),
        "value_qty": func.sum(case((priced, v.c.qty))),
        "sold_total": func.sum(case((is_sold, v.c.sold_price * v.c.qty))),
        "realized": func.sum(case((realized_row, (v.c.sold_price - v.c.buy) * v.c.qty))),
        "realized_basis": func.sum(case((realized_row, v.c.buy * v.c.qty))),
        "unrealized": func.sum(case((unrealized_row, (v.c.unit - v.c.buy) * v.c.qty))),
        "unrealized_basis": func.sum(case((unrealized_row, v.c.buy * v.c.qty))),
    }


def _num(value: Any) -> int | None:
    return None if value is None else int(value)


async def totals(*, session: AsyncSession, collection_id: uuid.UUID, tops: bool = False) -> dict[str, Any]:
    """Collection-wide aggregates in one pass; with ``tops`` also the entry ids of the top gainer
    (largest gain per copy over a positive buy price) and the top value (highest price per copy)."""
    v = valued(collection_id)
    cols = _money_columns(v)
    held = v.c.sold == 0
    roi_row = and_(v.c.buy > 0, or_(v.c.sold == 1, v.c.unit.is_not(None)))
    exit_value = case((v.c.sold == 1, v.c.sold_price), else_=v.c.unit)
    cols.update({
        "graded": func.sum(case((v.c.grade_id.is_not(None), 1), else_=0)),
        "for_sale": func.sum(case((and_(held, v.c.sell.is_not(None)), 1), else_=0)),
        "sold_count": func.sum(v.c.sold),
        "roi_sum": func.sum(case((roi_row, cast(exit_value - v.c.buy, Float) * 100.0 / v.c.buy))),
        "roi_n": func.sum(case((roi_row, 1), else_=0)),
    })
    extra = []
    if tops:
        priced = and_(held, v.c.unit.is_not(None))
        extra = [
            select(v.c.id).where(priced, v.c.buy > 0)
            .order_by((v.c.unit - v.c.buy).desc(), v.c.unit.desc(), v.c.id).limit(1).scalar_subquery().label("gainer"),
            select(v.c.id).where(priced).order_by(v.c.unit.desc(), v.c.qty.desc(), v.c.id).limit(1)
            .scalar_subquery().label("top"),
        ]
    row = (await session.execute(select(*[c.label(k) for k, c in cols.items()], *extra))).one()._mapping
    out: dict[str, Any] = {k: (float(row[k]) if k == "roi_sum" and row[k] is not None else _num(row[k])) for k in cols}
    if tops:
        out["gainer"], out["top"] = row["gainer"], row["top"]
    return out


def _card_details(stmt: Any, card_id: Any) -> Any:
    return (stmt.join(Card, Card.id == card_id).join(CardSet, CardSet.id == Card.set_id)
            .join(Release, Release.id == Card.release_id))


async def entry_details(*, session: AsyncSession, entry_ids: list[uuid.UUID]) -> dict[uuid.UUID, Any]:
    """entry id -> (card id, card name, release name, release year, buy cents, unit cents, quantity)."""
    ids = [i for i in entry_ids if i is not None]
    if not ids:
        return {}
    unit = unit_price(CC.card_id, CC.parallel_id, CC.grade_id)
    rows = (await session.execute(_card_details(
        select(CC.id, CC.card_id, Card.name, Release.name, Release.year, CC.buy_price_cents, unit, CC.quantity)
        .select_from(CC), CC.card_id).where(CC.id.in_(ids)))).all()
    return {r[0]: tuple(r[1:]) for r in rows}


def group_columns(group_by: GroupBy) -> tuple[Any, Any, list[tuple[Any, Any]]]:
    """(group id expression, group name expression, outer joins needed) for a breakdown dimension."""
    if group_by == "release":
        return Card.release_id, Release.name, []
    if group_by == "year":
        return Release.year, Release.year, []
    if group_by == "player":
        return Card.name, Card.name, []
    if group_by == "manufacturer":
        return Release.manufacturer_id, Manufacturer.name, [(Manufacturer, Manufacturer.id == Release.manufacturer_id)]
    return (CC.grade_id, GradingCompany.abbreviation + literal(" ") + Grade.value,
            [(Grade, Grade.id == CC.grade_id), (GradingType, GradingType.id == Grade.type_id),
             (GradingCompany, GradingCompany.id == GradingType.company_id)])


_NIL = uuid.UUID(int=0)


def _grouped_source(collection_id: uuid.UUID, group_by: GroupBy, dialect: str) -> Any:
    """A CTE of valued entries carrying their group id, a never-null group key and the group name.

    The key keeps the id's type (uuids compare fast); text keys use byte order on PostgreSQL, which
    sorts far faster than a locale collation and is all grouping needs.
    """
    gid, gname, joins = group_columns(group_by)
    if group_by in ("year", "player"):
        gkey = func.coalesce(gid, "")
        if dialect == "postgresql":
            gkey = gkey.collate("C")
    else:
        gkey = func.coalesce(gid, literal(_NIL, Uuid))
    sold = and_(CC.sold_price_cents.is_not(None), CC.sold_date.is_not(None))
    stmt = (
        select(CC.id.label("id"), CC.card_id.label("card_id"), cast(CC.quantity, BigInteger).label("qty"),
               CC.buy_price_cents.label("buy"), CC.sold_price_cents.label("sold_price"),
               case((sold, 1), else_=0).label("sold"),
               unit_price(CC.card_id, CC.parallel_id, CC.grade_id).label("unit"),
               gid.label("gid"), gkey.label("gkey"), gname.label("gname"))
        .select_from(CC).join(Card, Card.id == CC.card_id).join(Release, Release.id == Card.release_id)
    )
    for model, on in joins:
        stmt = stmt.outerjoin(model, on)
    return stmt.where(CC.collection_id == collection_id).cte("g").prefix_with("MATERIALIZED")


async def groups(*, session: AsyncSession, collection_id: uuid.UUID, group_by: GroupBy, per_group: int = 5
                 ) -> list[dict[str, Any]]:
    """Every group's aggregates plus its top ``per_group`` entries, in one statement (one pricing pass).

    Top entries: the most valuable held copy first, unpriced and sold entries last. Each returned row
    is one top entry with its group's aggregates repeated; the caller folds them, sorts and pages.
    """
    v = _grouped_source(collection_id, group_by, session.bind.dialect.name)
    cols = _money_columns(v)
    agg = (select(v.c.gkey, v.c.gid, func.min(v.c.gname).label("gname"),
                  *[c.label(k) for k, c in cols.items()]).group_by(v.c.gkey, v.c.gid).subquery("agg"))
    current = case((v.c.sold == 0, v.c.unit), else_=null())
    rank = func.row_number().over(
        partition_by=v.c.gkey, order_by=(current.is_(None), current.desc(), v.c.qty.desc(), v.c.id)).label("rn")
    ranked = select(v.c.gkey, v.c.card_id, v.c.qty, v.c.buy, current.label("cur"), rank).subquery("ranked")
    stmt = (
        select(agg, ranked.c.card_id.label("t_card"), ranked.c.qty.label("t_qty"), ranked.c.buy.label("t_buy"),
               ranked.c.cur.label("t_cur"), Card.name.label("t_name"), CardSet.name.label("t_set"),
               Release.name.label("t_release"), Release.year.label("t_year"))
        .select_from(agg)
        .join(ranked, and_(ranked.c.gkey == agg.c.gkey, ranked.c.rn <= per_group))
        .join(Card, Card.id == ranked.c.card_id).join(CardSet, CardSet.id == Card.set_id)
        .join(Release, Release.id == Card.release_id)
        .order_by(agg.c.gkey, ranked.c.rn)
    )
    out: dict[str, dict[str, Any]] = {}
    for r in (await session.execute(stmt)).all():
        m = r._mapping
        g = out.get(m["gkey"])
        if g is None:
            g = out[m["gkey"]] = {"gid": m["gid"], "gname": m["gname"], "tops": [],
                                  **{k: _num(m[k]) for k in cols}}
        g["tops"].append((m["t_card"], m["t_name"], m["t_set"], m["t_release"], m["t_year"], int(m["t_qty"]),
                          m["t_buy"], m["t_cur"]))
    return list(out.values())
