"""Collection analytics and breakdown as aggregate SQL over the valued entries of one collection.

Each ``collection_card`` row carries its unit value (``unit_cents``: the ``card_price`` row for
exactly card, parallel or base, grade or raw) and the card's release and name, kept current by
triggers (migration ``collection_0002``); so every figure is one SUM/COUNT pass over the
collection's own rows, with no per-entry catalog or price lookup. Money stays in integer cents
(products are widened to BIGINT first).
"""

from __future__ import annotations

import functools
import uuid
from typing import Any, Literal

from sqlalchemy import (
    BigInteger,
    Float,
    Uuid,
    and_,
    bindparam,
    case,
    cast,
    func,
    literal,
    null,
    or_,
    select,
    text,
    union_all,
)
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import (
    Card,
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


def _sold() -> Any:
    return and_(CC.sold_price_cents.is_not(None), CC.sold_date.is_not(None))


def valued(collection_id: Any, name: str = "v") -> Any:
    """The collection's entries with the columns the aggregates read: a plain subquery, so that the
    engine reads only the columns a statement uses (from a covering index where one has them)."""
    return (
        select(
            CC.id.label("id"), CC.card_id.label("card_id"), CC.grade_id.label("grade_id"),
            cast(CC.quantity, BigInteger).label("qty"), CC.buy_price_cents.label("buy"),
            CC.sell_price_cents.label("sell"), CC.sold_price_cents.label("sold_price"),
            case((_sold(), 1), else_=0).label("sold"), CC.unit_cents.label("unit"),
        )
        .where(CC.collection_id == collection_id)
        .subquery(name)
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


@functools.lru_cache(maxsize=None)
def _totals_statement(tops: bool) -> tuple[Any, list[str]]:
    """The totals statement, built once (the collection is the bound ``c``)."""
    v = valued(bindparam("c", type_=Uuid))
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
    if tops:  # each its own pass over the entries, keeping only the best row (no full sort)
        g, t = valued(bindparam("c", type_=Uuid), "g"), valued(bindparam("c", type_=Uuid), "t")
        extra = [
            select(g.c.id).where(g.c.sold == 0, g.c.unit.is_not(None), g.c.buy > 0)
            .order_by((g.c.unit - g.c.buy).desc(), g.c.unit.desc(), g.c.id).limit(1).scalar_subquery().label("gainer"),
            select(t.c.id).where(t.c.sold == 0, t.c.unit.is_not(None)).order_by(t.c.unit.desc(), t.c.qty.desc(), t.c.id)
            .limit(1).scalar_subquery().label("top"),
        ]
    return select(*[c.label(k) for k, c in cols.items()], *extra), list(cols)


async def totals(*, session: AsyncSession, collection_id: uuid.UUID, tops: bool = False) -> dict[str, Any]:
    """Collection-wide aggregates in one pass; with ``tops`` also the entry ids of the top gainer
    (largest gain per copy over a positive buy price) and the top value (highest price per copy)."""
    stmt, cols = _totals_statement(tops)
    row = (await session.execute(stmt, {"c": collection_id})).one()._mapping
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


# the entry column each breakdown dimension groups by (kept current by triggers, migration collection_0002)
GROUP_COLUMNS = {"release": CC.release_id, "year": CC.release_year, "player": CC.card_name,
                 "manufacturer": CC.manufacturer_id, "grade": CC.grade_id}
_TEXT = ("year", "player")
_NIL = uuid.UUID(int=0)


def held_value() -> Any:
    """An entry's unit value while held, NULL once sold."""
    return case((_sold(), null()), else_=CC.unit_cents)


def top_order() -> list[Any]:
    """topCards order: held and priced first, highest value, larger quantity, then id. The
    ``ix_collection_card_by_<group>`` indexes hold (collection, group column, this order)."""
    cur = held_value()
    return [cur.is_(None), cur.desc(), CC.quantity.desc(), CC.id]


def _group_name(group_by: GroupBy, gid: Any) -> tuple[Any, list[tuple[Any, Any]]]:
    """(group name expression, outer joins) for aggregated rows with group id ``gid``: names come from
    the small tables (releases, manufacturers, grades), read once per group."""
    if group_by == "release":
        return Release.name, [(Release, Release.id == gid)]
    if group_by == "manufacturer":
        return Manufacturer.name, [(Manufacturer, Manufacturer.id == gid)]
    if group_by == "grade":
        return (GradingCompany.abbreviation + literal(" ") + Grade.value,
                [(Grade, Grade.id == gid), (GradingType, GradingType.id == Grade.type_id),
                 (GradingCompany, GradingCompany.id == GradingType.company_id)])
    return gid, []


@functools.lru_cache(maxsize=None)
def _groups_statement(group_by: GroupBy) -> tuple[Any, list[str]]:
    """The groups statement of a dimension, built once (the collection is the bound ``c``)."""
    gid = GROUP_COLUMNS[group_by]
    sold = case((_sold(), 1), else_=0)
    v = (select(CC.id.label("id"), CC.card_id.label("card_id"), cast(CC.quantity, BigInteger).label("qty"),
                CC.buy_price_cents.label("buy"), CC.sold_price_cents.label("sold_price"), sold.label("sold"),
                CC.unit_cents.label("unit"), gid.label("gid"))
         .where(CC.collection_id == bindparam("c", type_=Uuid)).subquery("v"))
    cols = _money_columns(v)
    agg = select(v.c.gid, *[c.label(k) for k, c in cols.items()]).group_by(v.c.gid).subquery("agg")
    name, joins = _group_name(group_by, agg.c.gid)
    gkey = func.coalesce(agg.c.gid, "" if group_by in _TEXT else literal(_NIL, Uuid))
    stmt = select(gkey.label("gkey"), agg, name.label("gname")).select_from(agg)
    for model, on in joins:
        stmt = stmt.outerjoin(model, on)
    return stmt, ["gkey", "gid", *cols, "gname"]


async def groups(*, session: AsyncSession, collection_id: uuid.UUID, group_by: GroupBy) -> list[dict[str, Any]]:
    """Every group's aggregates (``gkey``, ``gid``, ``gname`` and the money columns), one row per group.

    One pass over the collection's entries, grouped on their own column (in index order, so without
    a sort where the engine can); the never-null key keeps the id's type (uuids compare fast), the
    missing id becoming the nil uuid or "". Names are joined to the groups, not to the entries.
    """
    stmt, names = _groups_statement(group_by)
    return [dict(zip(names, row)) for row in (await session.execute(stmt, {"c": collection_id})).all()]


@functools.lru_cache(maxsize=64)
def _tops_statement(group_by: GroupBy, nil_keys: tuple[bool, ...], per_group: int) -> Any:
    """UNION ALL of one index range per listed group (``k0``, ``k1``... bound; a missing id when
    ``nil_keys`` says so), built once per shape: building a 20-part union costs more than running it."""
    gid, cur = GROUP_COLUMNS[group_by], held_value()
    parts = []
    for i, nil in enumerate(nil_keys):
        if not nil:
            match = gid == bindparam(f"k{i}")
        elif group_by in _TEXT:  # the "" key stands for no name and for an empty one
            match = or_(gid.is_(None), gid == "")
        else:
            match = gid.is_(None)
        parts.append(select(literal(i).label("g"), CC.card_id.label("card_id"), CC.quantity.label("qty"),
                            CC.buy_price_cents.label("buy"), cur.label("cur"), CC.id.label("id"))
                     .where(CC.collection_id == bindparam("c", type_=Uuid), match).order_by(*top_order())
                     .limit(per_group).subquery().select())
    u = union_all(*parts).subquery("tops")
    return select(u).order_by(u.c.g, u.c.cur.is_(None), u.c.cur.desc(), u.c.qty.desc(), u.c.id)


async def top_entries(*, session: AsyncSession, collection_id: uuid.UUID, group_by: GroupBy, keys: list[Any],
                      per_group: int = 5) -> dict[Any, list[tuple[Any, ...]]]:
    """gkey -> the top ``per_group`` entries of each listed group as (card id, quantity, buy cents,
    current unit cents): one short range of the group's index per group, no sort of the collection."""
    if not keys:
        return {}
    nil = "" if group_by in _TEXT else _NIL
    nils = tuple(k == nil for k in keys)
    params: dict[str, Any] = {f"k{i}": k for i, k in enumerate(keys) if not nils[i]}
    stmt = _tops_statement(group_by, nils, per_group)
    out: dict[Any, list[tuple[Any, ...]]] = {}
    for g, card_id, qty, buy, unit, _id in (await session.execute(stmt, {"c": collection_id, **params})).all():
        out.setdefault(keys[g], []).append((card_id, int(qty), buy, unit))
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
