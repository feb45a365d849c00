"""Collection analytics and breakdown (formulas in README, "Collection analytics")."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from pydantic import Field

from store.queries import analytics as aq
from tools._models import CamelIn, CamelOut, LooseUUIDStr, Order, Out, Skip, Take, cents_to_money
from tools._owned import collection_or_404
from tools._registry import tool
from tools.context import ToolContext


def pct(num: float | int | None, den: float | int | None) -> float | None:
    """num / den as a percentage rounded to 2 decimals; None when undefined."""
    if num is None or not den:
        return None
    return round(float(num) * 100.0 / float(den), 2)


def avg_money(total: int | None, count: int | None) -> str | None:
    if total is None or not count:
        return None
    return cents_to_money(int((Decimal(total) / Decimal(count)).quantize(Decimal(1), rounding=ROUND_HALF_UP)))


def overall_roi(t: dict[str, Any]) -> float | None:
    if t["realized"] is None and t["unrealized"] is None:
        return None
    gain = (t["realized"] or 0) + (t["unrealized"] or 0)
    return pct(gain, (t["realized_basis"] or 0) + (t["unrealized_basis"] or 0))


class CollectionRef(CamelIn):
    collection_id: LooseUUIDStr = Field(description="Collection id")


# --------------------------------------------------------------------------- analytics
class Overview(CamelOut):
    total_cards: int
    unique_cards: int
    total_quantity: int


class Financials(CamelOut):
    __keep_none__ = frozenset({"total_invested", "current_market_value", "total_realized_gains",
                               "total_unrealized_gains", "overall_roi", "realized_roi"})
    total_invested: str | None = None
    current_market_value: str | None = None
    total_realized_gains: str | None = None
    total_unrealized_gains: str | None = None
    overall_roi: float | None = Field(None, alias="overallROI")
    realized_roi: float | None = Field(None, alias="realizedROI")


class Composition(CamelOut):
    graded_count: int
    raw_count: int
    graded_percentage: float
    for_sale_count: int
    sold_count: int


class TopGainer(CamelOut):
    card_id: str
    card_name: str
    release_name: str
    release_year: str
    buy_price: str
    current_value: str
    gain: str
    gain_percentage: float


class TopValue(CamelOut):
    card_id: str
    card_name: str
    release_name: str
    release_year: str
    current_value: str
    quantity: int


class Performance(CamelOut):
    __keep_none__ = frozenset({"average_card_value", "average_roi", "top_gainer", "top_value"})
    average_card_value: str | None = None
    average_roi: float | None = Field(None, alias="averageROI")
    top_gainer: TopGainer | None = None
    top_value: TopValue | None = None


class Analytics(CamelOut):
    overview: Overview
    financials: Financials
    composition: Composition
    performance: Performance


@tool("collection_analytics", method="GET", path="/v1/collection/{collectionId}/analytics")
async def collection_analytics(ctx: ToolContext, ref: CollectionRef) -> Analytics:
    """Summarise a collection: counts, money invested, market value, realized/unrealized gains, ROI, top cards."""
    async with ctx.transaction() as s:
        coll = await collection_or_404(s, ctx, ref.collection_id)
        await aq.tune(session=s)
        t = await aq.totals(session=s, collection_id=coll.id, tops=True)
        details = await aq.entry_details(session=s, entry_ids=[t["gainer"], t["top"]])
    entries = t["entries"] or 0
    graded = t["graded"] or 0
    g, top = details.get(t["gainer"]), details.get(t["top"])
    gainer = None
    if g is not None:
        card_id, name, rel, year, buy, unit, _qty = g
        gainer = TopGainer(card_id=str(card_id), card_name=name, release_name=rel, release_year=year or "",
                           buy_price=cents_to_money(buy), current_value=cents_to_money(unit),
                           gain=cents_to_money(unit - buy), gain_percentage=pct(unit - buy, buy) or 0.0)
    top_value = None
    if top is not None:
        card_id, name, rel, year, _buy, unit, qty = top
        top_value = TopValue(card_id=str(card_id), card_name=name, release_name=rel, release_year=year or "",
                             current_value=cents_to_money(unit), quantity=int(qty))
    return Analytics(
        overview=Overview(total_cards=entries, unique_cards=t["unique"] or 0, total_quantity=t["qty"] or 0),
        financials=Financials(
            total_invested=cents_to_money(t["invested"]), current_market_value=cents_to_money(t["value"]),
            total_realized_gains=cents_to_money(t["realized"]), total_unrealized_gains=cents_to_money(t["unrealized"]),
            overall_roi=overall_roi(t), realized_roi=pct(t["realized"], t["realized_basis"])),
        composition=Composition(graded_count=graded, raw_count=entries - graded,
                                graded_percentage=pct(graded, entries) or 0.0, for_sale_count=t["for_sale"] or 0,
                                sold_count=t["sold_count"] or 0),
        performance=Performance(
            average_card_value=avg_money(t["value"], t["value_qty"]),
            average_roi=round(t["roi_sum"] / t["roi_n"], 2) if t["roi_n"] else None,
            top_gainer=gainer, top_value=top_value),
    )


# --------------------------------------------------------------------------- breakdown
class BreakdownQuery(CollectionRef):
    group_by: Literal["release", "year", "grade", "player", "manufacturer"] = Field(
        description="Dimension: release, year, grade, player or manufacturer (required)")
    take: Take = 20
    skip: Skip = 0
    sort_by: Literal["count", "value", "roi", "percentage"] = Field("value", description="Group sort key")
    order: Order = "desc"
    min_count: float | None = Field(None, ge=0, le=1_000_000_000, description="Only groups with at least this many entries")


class TopCard(CamelOut):
    card_id: str
    card_name: str
    set_name: str
    release_name: str
    release_year: str
    quantity: int
    buy_price: str | None = None
    current_value: str | None = None


class Group(CamelOut):
    group_key: str
    group_id: str | None = None
    card_count: int
    unique_card_count: int
    total_quantity: int
    total_buy_price: str | None = None
    total_current_value: str | None = None
    total_sold_price: str | None = None
    average_buy_price: str | None = None
    average_current_value: str | None = None
    roi: float | None = None
    percentage_of_collection: float
    top_cards: list[TopCard] = []


class NamedValue(Out):
    name: str
    value: str


class NamedRoi(Out):
    name: str
    roi: float


class BreakdownSummary(CamelOut):
    total_groups: int
    total_cards: int
    total_quantity: int
    grouped_by: str
    total_value: str | None = None
    total_invested: str | None = None
    overall_roi: float | None = None
    most_valuable_group: NamedValue | None = None
    best_performing_group: NamedRoi | None = None


class Pagination(Out):
    total_count: int
    skip: int
    take: int
    page: int
    pages: int


class Breakdown(CamelOut):
    summary: BreakdownSummary
    groups: list[Group]
    pagination: Pagination


_UNKNOWN = {"grade": "Raw"}
TOP_CARDS = 5  # topCards per group


def _label(r: dict[str, Any], group_by: str) -> str:
    return str(r["gname"]) if r["gname"] is not None else _UNKNOWN.get(group_by, "Unknown")


def _group_out(r: dict[str, Any], group_by: str, tops: list[tuple[Any, ...]]) -> Group:
    gid = r["gid"]
    return Group(
        group_key=r["key"], group_id=str(gid) if gid is not None and group_by in ("release", "grade", "manufacturer")
        else None, card_count=r["entries"], unique_card_count=r["unique"], total_quantity=r["qty"] or 0,
        total_buy_price=cents_to_money(r["invested"]), total_current_value=cents_to_money(r["value"]),
        total_sold_price=cents_to_money(r["sold_total"]), average_buy_price=avg_money(r["invested"], r["buy_qty"]),
        average_current_value=avg_money(r["value"], r["value_qty"]), roi=r["roi"], percentage_of_collection=r["pct"],
        top_cards=[TopCard(card_id=str(card_id), card_name=name, set_name=set_name, release_name=rel,
                           release_year=year or "", quantity=qty, buy_price=cents_to_money(buy),
                           current_value=cents_to_money(cur))
                   for card_id, name, set_name, rel, year, qty, buy, cur in tops],
    )


def _sum_groups(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("entries", "qty", "value", "invested", "realized", "realized_basis", "unrealized", "unrealized_basis"):
        present = [r[key] for r in rows if r[key] is not None]
        out[key] = sum(present) if present else None
    return out


@tool("collection_breakdown", method="GET", path="/v1/collection/{collectionId}/breakdown")
async def collection_breakdown(ctx: ToolContext, q: BreakdownQuery) -> Breakdown:
    """Break a collection down by release, year, grade, player or manufacturer: counts, value, ROI, top cards."""
    async with ctx.transaction() as s:
        coll = await collection_or_404(s, ctx, q.collection_id)
        await aq.tune(session=s)
        rows = await aq.groups(session=s, collection_id=coll.id, group_by=q.group_by)
        t = _sum_groups(rows)  # the groups partition the collection, so their sums are its totals
        total_qty = t["qty"] or 0
        chosen = [r for r in rows if q.min_count is None or r["entries"] >= q.min_count]
        for r in chosen:  # plain dicts: only the page becomes output models
            r["key"], r["roi"] = _label(r, q.group_by), overall_roi(r)
            r["pct"] = pct(r["qty"] or 0, total_qty) or 0.0
        field = {"count": "entries", "value": "value", "roi": "roi", "percentage": "pct"}[q.sort_by]
        sign = -1 if q.order == "desc" else 1
        chosen.sort(key=lambda r: (r[field] is None, sign * (r[field] or 0), r["key"], str(r["gid"])))
        page = chosen[q.skip:q.skip + q.take]
        tops = await aq.top_entries(session=s, collection_id=coll.id, group_by=q.group_by,
                                    keys=[r["gkey"] for r in page], per_group=TOP_CARDS)
        details = await aq.card_details(session=s, card_ids={t[0] for ts in tops.values() for t in ts})
    groups = [_group_out(r, q.group_by, [(card_id, *details[card_id], qty, buy, cur)
                                         for card_id, qty, buy, cur in tops.get(r["gkey"], [])]) for r in page]
    best_value = max((r for r in chosen if r["value"] is not None), key=lambda r: (r["value"], r["key"]), default=None)
    best_roi = max((r for r in chosen if r["roi"] is not None), key=lambda r: (r["roi"], r["key"]), default=None)
    total = len(chosen)
    return Breakdown(
        summary=BreakdownSummary(
            total_groups=total, total_cards=t["entries"] or 0, total_quantity=total_qty, grouped_by=q.group_by,
            total_value=cents_to_money(t["value"]), total_invested=cents_to_money(t["invested"]),
            overall_roi=overall_roi(t),
            most_valuable_group=NamedValue(name=best_value["key"], value=cents_to_money(best_value["value"]))
            if best_value else None,
            best_performing_group=NamedRoi(name=best_roi["key"], roi=best_roi["roi"]) if best_roi else None),
        groups=groups,
        pagination=Pagination(total_count=total, skip=q.skip, take=q.take, page=q.skip // q.take + 1,
                              pages=math.ceil(total / q.take)),
    )
