"""Collection analytics and breakdown as aggregate SQL over the valued entries of one collection.

``valued(collection_id)`` is a CTE with one row per collection entry and its unit value: the
``card_price`` row for exactly (card, parallel or base, grade or raw). Every figure is a SUM/COUNT
over that CTE; money stays in integer cents (products are widened to BIGINT first).
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from sqlalchemy import BigInteger, Float, and_, case, cast, func, literal, null, or_, select
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


def unit_price(card_id: Any, parallel_id: Any, grade_id: Any) -> Any:
    """Scalar subquery: the current price in cents of one copy in this condition (NULL if none)."""
    def same(col: Any, value: Any) -> Any:
        return col.is_(None) if value is None else col.is_not_distinct_from(value)

    return (
        select(CardPrice.value_cents)
        .where(CardPrice.card_id == card_id, same(CardPrice.parallel_id, parallel_id), same(CardPrice.grade_id, grade_id))
        .order_by(CardPrice.as_of.is_(None), CardPrice.as_of.desc(), CardPrice.id)
        .limit(1)
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


async def totals(*, session: AsyncSession, collection_id: uuid.UUID) -> dict[str, Any]:
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
    row = (await session.execute(select(*[c.label(k) for k, c in cols.items()]))).one()._mapping
    out = {k: (float(row[k]) if k == "roi_sum" and row[k] is not None else _num(row[k])) for k in cols}
    return out


def _card_details(stmt: Any, card_id: Any) -> Any:
    return (stmt.join(Card, Card.id == card_id).join(CardSet, CardSet.id == Card.set_id)
            .join(Release, Release.id == Card.release_id))


async def top_entries(*, session: AsyncSession, collection_id: uuid.UUID) -> dict[str, Any]:
    """The held entry with the largest gain per copy over a positive buy price, and the most valuable one."""
    v = valued(collection_id)
    base = select(v.c.card_id, Card.name, Release.name, Release.year, v.c.buy, v.c.unit, v.c.qty)
    gainer = (await session.execute(
        _card_details(base, v.c.card_id)
        .where(v.c.sold == 0, v.c.unit.is_not(None), v.c.buy > 0)
        .order_by((v.c.unit - v.c.buy).desc(), v.c.unit.desc(), v.c.id).limit(1)
    )).first()
    top = (await session.execute(
        _card_details(base, v.c.card_id)
        .where(v.c.sold == 0, v.c.unit.is_not(None))
        .order_by(v.c.unit.desc(), v.c.qty.desc(), v.c.id).limit(1)
    )).first()
    return {"gainer": gainer, "top": top}


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


def _grouped_source(collection_id: uuid.UUID, group_by: GroupBy) -> tuple[Any, Any, Any]:
    """A CTE of valued entries carrying their group id and name."""
    gid, gname, joins = group_columns(group_by)
    sold = and_(CC.sold_price_cents.is_not(None), CC.sold_date.is_not(None))
    stmt = (
        select(CC.id.label("id"), CC.card_id.label("card_id"), cast(CC.quantity, BigInteger).label("qty"),
               CC.buy_price_cents.label("buy"), CC.sold_price_cents.label("sold_price"),
               case((sold, 1), else_=0).label("sold"),
               unit_price(CC.card_id, CC.parallel_id, CC.grade_id).label("unit"),
               gid.label("gid"), gname.label("gname"))
        .select_from(CC).join(Card, Card.id == CC.card_id).join(Release, Release.id == Card.release_id)
    )
    for model, on in joins:
        stmt = stmt.outerjoin(model, on)
    v = stmt.where(CC.collection_id == collection_id).cte("g")
    return v, v.c.gid, v.c.gname


async def groups(*, session: AsyncSession, collection_id: uuid.UUID, group_by: GroupBy, min_count: int | None
                 ) -> list[dict[str, Any]]:
    """One aggregate row per group (all groups; the caller sorts and pages them)."""
    v, gid, gname = _grouped_source(collection_id, group_by)
    cols = _money_columns(v)
    stmt = select(gid.label("gid"), func.min(gname).label("gname"), *[c.label(k) for k, c in cols.items()]).group_by(gid)
    if min_count:
        stmt = stmt.having(func.count(v.c.id) >= min_count)
    rows = (await session.execute(stmt)).all()
    return [{"gid": r.gid, "gname": r.gname, **{k: _num(r._mapping[k]) for k in cols}} for r in rows]


async def top_cards(*, session: AsyncSession, collection_id: uuid.UUID, group_by: GroupBy, group_ids: list[Any],
                    per_group: int = 5) -> list[Any]:
    """Up to ``per_group`` entries per listed group, most valuable copy first (unpriced and sold last)."""
    if not group_ids:
        return []
    v, gid, _ = _grouped_source(collection_id, group_by)
    current = case((v.c.sold == 0, v.c.unit), else_=null())
    rank = func.row_number().over(
        partition_by=gid, order_by=(current.is_(None), current.desc(), v.c.qty.desc(), v.c.id)).label("rn")
    keys = [g for g in group_ids if g is not None]
    cond = gid.in_(keys) if keys else literal(False)
    if None in group_ids:
        cond = or_(cond, gid.is_(None))
    inner = (select(v.c.gid, v.c.card_id, v.c.qty, v.c.buy, current.label("unit"), rank).where(cond)).subquery()
    stmt = (_card_details(select(inner.c.gid, inner.c.card_id, Card.name, CardSet.name, Release.name, Release.year,
                                 inner.c.qty, inner.c.buy, inner.c.unit).select_from(inner), inner.c.card_id)
            .where(inner.c.rn <= per_group).order_by(inner.c.gid, inner.c.rn))
    return list((await session.execute(stmt)).all())
