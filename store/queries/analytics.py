"""Collection analytics and breakdown as aggregate SQL over the valued entries of one collection.

Each ``collection_card`` row carries its unit value (``unit_cents``: the ``card_price`` row for
exactly card, parallel or base, grade or raw) and the card's release and name, kept current by
triggers (migration ``collection_0002``); so every figure is one SUM/COUNT pass over the
collection's own rows, with no per-entry catalog or price lookup. Money stays in integer cents
(products are widened to BIGINT first).
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
    for the current transaction only. ``random_page_cost`` 1.1 (the default 4 prices a spinning
    disk): with it the planner joins a collection's entries to their cards through the card index
    (~10k probes, ~13 ms) instead of hashing the whole 172k-card catalog (~30 ms).
    """
    if session.bind.dialect.name == "postgresql":
        await session.execute(text("SET LOCAL jit = off"))
        await session.execute(text("SET LOCAL random_page_cost = 1.1"))


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


def _sold() -> Any:
    return and_(CC.sold_price_cents.is_not(None), CC.sold_date.is_not(None))


def valued(collection_id: uuid.UUID) -> Any:
    return (
        select(
            CC.id.label("id"), CC.card_id.label("card_id"), CC.parallel_id.label("parallel_id"),
            CC.grade_id.label("grade_id"), cast(CC.quantity, BigInteger).label("qty"),
            CC.buy_price_cents.label("buy"), CC.sell_price_cents.label("sell"), CC.sold_price_cents.label("sold_price"),
            case((_sold(), 1), else_=0).label("sold"), CC.unit_cents.label("unit"),
        )
        .where(CC.collection_id == collection_id)
        .cte("v")
        .prefix_with("MATERIALIZED")  # read the entries once, however many aggregates use them
    )


def _money_columns(v: Any) -> dict[str, Any]:
    """Aggregates shared by the analytics totals and each breakdown group (see README formulas)."""
    held = v.c.sold == 0
    is_sold = v.c.sold == 1
    has_buy = v.c.buy.is_not(None)
    priced = and_(held, v.c.unit.is_not(None))
    realized_row = and_(is_sold, has_buy)
    unrealized_row = and_(priced, has_buy)

    def total(x: Any) -> Any:  # BIGINT, not NUMERIC (PostgreSQL's SUM of BIGINT): ints, not Decimals, to Python
        return cast(func.sum(x), BigInteger)

    return {
        "entries": func.count(v.c.id),
        "unique": func.count(func.distinct(v.c.card_id)),
        "qty": total(v.c.qty),
        "invested": total(case((has_buy, v.c.buy * v.c.qty))),
        "buy_qty": total(case((has_buy, v.c.qty))),
        "value": total(case((priced, v.c.unit * v.c.qty))),
        "value_qty": total(case((priced, v.c.qty))),
        "sold_total": total(case((is_sold, v.c.sold_price * v.c.qty))),
        "realized": total(case((realized_row, (v.c.sold_price - v.c.buy) * v.c.qty))),
        "realized_basis": total(case((realized_row, v.c.buy * v.c.qty))),
        "unrealized": total(case((unrealized_row, (v.c.unit - v.c.buy) * v.c.qty))),
        "unrealized_basis": total(case((unrealized_row, v.c.buy * v.c.qty))),
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
    rows = (await session.execute(_card_details(
        select(CC.id, CC.card_id, Card.name, Release.name, Release.year, CC.buy_price_cents, CC.unit_cents, CC.quantity)
        .select_from(CC), CC.card_id).where(CC.id.in_(ids)))).all()
    return {r[0]: tuple(r[1:]) for r in rows}


def group_columns(group_by: GroupBy) -> tuple[Any, Any, list[tuple[Any, Any]]]:
    """(group id expression, group name expression, joins needed) for a breakdown dimension: the
    entry's own release id, card name or grade, or its release's year or manufacturer."""
    release = (Release, Release.id == CC.release_id)
    if group_by == "release":
        return CC.release_id, Release.name, [release]
    if group_by == "year":
        return Release.year, Release.year, [release]
    if group_by == "player":
        return CC.card_name, CC.card_name, []
    if group_by == "manufacturer":
        return Release.manufacturer_id, Manufacturer.name, [release, (Manufacturer, Manufacturer.id == Release.manufacturer_id)]
    return (CC.grade_id, GradingCompany.abbreviation + literal(" ") + Grade.value,
            [(Grade, Grade.id == CC.grade_id), (GradingType, GradingType.id == Grade.type_id),
             (GradingCompany, GradingCompany.id == GradingType.company_id)])


_NIL = uuid.UUID(int=0)


def _grouped_source(collection_id: uuid.UUID, group_by: GroupBy, dialect: str, keys: list[Any] | None = None) -> Any:
    """A CTE of valued entries carrying their group id, a never-null group key and the group name;
    with ``keys``, only the entries of those groups.

    The key keeps the id's type (uuids compare fast); text keys use byte order on PostgreSQL, which
    sorts far faster than a locale collation and is all grouping needs. Only small tables are joined
    (releases, manufacturers, grades), never the card or price tables.
    """
    gid, gname, joins = group_columns(group_by)
    nil: Any = "" if group_by in ("year", "player") else literal(_NIL, Uuid)
    gkey = func.coalesce(gid, nil)
    if group_by in ("year", "player") and dialect == "postgresql":
        gkey = gkey.collate("C")
    stmt = (
        select(CC.id.label("id"), CC.card_id.label("card_id"), cast(CC.quantity, BigInteger).label("qty"),
               CC.buy_price_cents.label("buy"), CC.sold_price_cents.label("sold_price"),
               case((_sold(), 1), else_=0).label("sold"), CC.unit_cents.label("unit"),
               gid.label("gid"), gkey.label("gkey"), gname.label("gname"))
        .select_from(CC)
    )
    for model, on in joins:
        stmt = stmt.outerjoin(model, on)
    stmt = stmt.where(CC.collection_id == collection_id)
    if keys is not None:  # filter on the id itself, the nil key standing for "no id"
        nil = "" if group_by in ("year", "player") else _NIL
        real = [k for k in keys if k != _NIL]  # "" stays: it is also a text id of its own
        stmt = stmt.where(or_(gid.in_(real), gid.is_(None)) if nil in keys else gid.in_(real))
    return stmt.cte("g").prefix_with("MATERIALIZED")


def _ranked(v: Any, per_group: int) -> Any:
    """Each group's top ``per_group`` entries of ``v`` as (gkey, card id, quantity, buy, current unit, rank):
    the most valuable held copy first, unpriced and sold entries last."""
    current = case((v.c.sold == 0, v.c.unit), else_=null())
    rank = func.row_number().over(
        partition_by=v.c.gkey, order_by=(current.is_(None), current.desc(), v.c.qty.desc(), v.c.id)).label("rn")
    ranked = select(v.c.gkey, v.c.card_id, v.c.qty, v.c.buy, current.label("cur"), rank).subquery("ranked")
    return select(ranked).where(ranked.c.rn <= per_group).subquery("tops")


def _top(m: Any, prefix: str = "") -> tuple[Any, ...]:
    return m[f"{prefix}card_id"], int(m[f"{prefix}qty"]), m[f"{prefix}buy"], m[f"{prefix}cur"]


async def groups(*, session: AsyncSession, collection_id: uuid.UUID, group_by: GroupBy, per_group: int = 0
                 ) -> list[dict[str, Any]]:
    """Every group's aggregates (``gkey``, ``gid``, ``gname`` and the money columns), one row per group.

    With ``per_group``, each group also carries ``tops``, its top entries as (card id, quantity, buy
    cents, current unit cents), from the same pricing pass; worth it where groups are few (a release,
    a year...). Otherwise the caller sorts and pages the groups and asks ``top_entries`` for the listed
    ones only (players: one group per distinct card name; releases: hundreds).
    """
    v = _grouped_source(collection_id, group_by, session.bind.dialect.name)
    cols = _money_columns(v)
    agg = (select(v.c.gkey, v.c.gid, func.min(v.c.gname).label("gname"), *[c.label(k) for k, c in cols.items()])
           .group_by(v.c.gkey, v.c.gid))
    if not per_group:
        out = []
        for r in (await session.execute(agg)).all():
            m = r._mapping
            out.append({"gkey": m["gkey"], "gid": m["gid"], "gname": m["gname"], **{k: _num(m[k]) for k in cols}})
        return out
    agg = agg.subquery("agg")
    tops = _ranked(v, per_group)
    stmt = (select(agg, tops.c.card_id.label("t_card_id"), tops.c.qty.label("t_qty"), tops.c.buy.label("t_buy"),
                   tops.c.cur.label("t_cur"))
            .join(tops, tops.c.gkey == agg.c.gkey).order_by(agg.c.gkey, tops.c.rn))
    by_key: dict[Any, dict[str, Any]] = {}
    for r in (await session.execute(stmt)).all():
        m = r._mapping
        g = by_key.get(m["gkey"])
        if g is None:
            g = by_key[m["gkey"]] = {"gkey": m["gkey"], "gid": m["gid"], "gname": m["gname"], "tops": [],
                                     **{k: _num(m[k]) for k in cols}}
        g["tops"].append(_top(m, "t_"))
    return list(by_key.values())


async def top_entries(*, session: AsyncSession, collection_id: uuid.UUID, group_by: GroupBy, keys: list[Any],
                      per_group: int = 5) -> dict[Any, list[tuple[Any, ...]]]:
    """gkey -> the top ``per_group`` entries (as in ``groups``) of the listed groups only."""
    if not keys:
        return {}
    tops = _ranked(_grouped_source(collection_id, group_by, session.bind.dialect.name, keys=keys), per_group)
    out: dict[Any, list[tuple[Any, ...]]] = {}
    for r in (await session.execute(select(tops).order_by(tops.c.gkey, tops.c.rn))).all():
        out.setdefault(r._mapping["gkey"], []).append(_top(r._mapping))
    return out


async def card_details(*, session: AsyncSession, card_ids: set[Any]) -> dict[Any, tuple[Any, ...]]:
    """card id -> (card name, set name, release name, release year), by id (a join would make
    PostgreSQL hash the whole card table for a hundred rows)."""
    if not card_ids:
        return {}
    rows = (await session.execute(
        select(Card.id, Card.name, CardSet.name, Release.name, Release.year)
        .join(CardSet, CardSet.id == Card.set_id).join(Release, Release.id == Card.release_id)
        .where(Card.id.in_(card_ids)))).all()
    return {r[0]: tuple(r[1:]) for r in rows}
