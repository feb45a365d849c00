"""Price candles of a card: daily, weekly or monthly buckets, raw and graded separately.

Buckets start on the UTC day, the ISO-week Monday or the 1st of the month; the newest bucket
contains ``as_of_date`` (UTC, default today). Candles are oldest first; empty buckets, listing
types and grades are omitted. Before bucketing, an outlier filter runs per variant (parallel x
grade) and listing type: with 5 or more listings, prices outside Tukey fences (k = 3) on the log
price are dropped; ``totals.<type>.filtered_count`` says how many.
"""

from __future__ import annotations

import math
import statistics
import uuid
from collections import defaultdict
from datetime import date, timedelta, timezone
from typing import Any, Literal

from pydantic import Field, model_validator

from store.queries import pricing as q
from tools._market import (
    CardContext,
    CompanyNames,
    ListingType,
    UUIDOrNull,
    as_of,
    card_and_parallel,
    card_context,
    company_names,
    parse_filter,
)
from tools._models import DateStr, In, Out, UUIDStr
from tools._registry import tool
from tools.context import ToolContext

DEFAULTS = {"daily": 90, "weekly": 52, "monthly": 24}
CLAMP = {"daily": 365, "weekly": 156, "monthly": 120}


class TimeseriesQuery(In):
    card_id: UUIDStr = Field(description="Catalog card id")
    interval: Literal["daily", "weekly", "monthly"] = Field(description="Bucket size: daily, weekly or monthly")
    periods: int | None = Field(None, ge=1, le=365, description="Number of buckets (default 90/52/24; weekly max 156, "
                                                              "monthly max 120, over 365 rejected)")
    as_of_date: DateStr | None = Field(None, description="YYYY-MM-DD (UTC); the newest bucket contains it")
    listing_type: ListingType = Field("both", description="auction, fixed (buy-it-now) or both")
    parallel_id: UUIDOrNull | None = Field(None, description='Parallel UUID for that parallel; "null" or omitted for the '
                                                             "base card (parallels are never blended into it)")
    grade_id: UUIDOrNull | None = Field(None, description='Grade UUID, "null" for ungraded only; omit for all')

    @model_validator(mode="after")
    def _effective_periods(self) -> "TimeseriesQuery":
        self.periods = min(self.periods or DEFAULTS[self.interval], CLAMP[self.interval])
        return self


class CandleStats(Out):
    mean: float
    median: float
    high: float
    low: float
    open: float
    close: float
    count: int


class CandlePeriod(Out):
    period_start: str
    types: dict[str, CandleStats]


class TypeTotals(Out):
    total_count: int
    filtered_count: int


class RawSeries(Out):
    candles: list[CandlePeriod]
    totals: dict[str, TypeTotals]


class GradeSeries(Out):
    grade_value: str
    grade_id: str
    candles: list[CandlePeriod]
    totals: dict[str, TypeTotals]


class CompanySeries(CompanyNames):
    grades: list[GradeSeries]


class SeriesEcho(Out):
    interval: str
    periods: int
    as_of_date: str
    listing_type: str
    parallel_id: str | None = None
    grade_id: str | None = None


class TimeseriesResponse(Out):
    card: CardContext
    query: SeriesEcho
    raw: RawSeries
    graded: list[CompanySeries]


def bucket_start(d: date, interval: str) -> date:
    if interval == "weekly":
        return d - timedelta(days=d.weekday())
    if interval == "monthly":
        return d.replace(day=1)
    return d


def first_bucket(end: date, interval: str, periods: int) -> date:
    newest = bucket_start(end, interval)
    if interval == "daily":
        return newest - timedelta(days=periods - 1)
    if interval == "weekly":
        return newest - timedelta(weeks=periods - 1)
    months = newest.year * 12 + newest.month - 1 - (periods - 1)
    return date(months // 12, months % 12 + 1, 1)


def outliers(prices: list[float]) -> set[int]:
    """Indexes dropped by the Tukey fence (k=3) on log prices; groups under 5 are kept whole."""
    if len(prices) < 5:
        return set()
    logs = [math.log(max(p, 0.01)) for p in prices]
    qs = statistics.quantiles(logs, n=4)
    iqr = qs[2] - qs[0]
    lo, hi = qs[0] - 3 * iqr, qs[2] + 3 * iqr
    return {i for i, v in enumerate(logs) if v < lo or v > hi}


def series(recs: list[Any], interval: str) -> tuple[list[CandlePeriod], dict[str, TypeTotals]]:
    """Candles and totals from records (already limited to the window) of one grade or of raw."""
    groups: dict[tuple, list[Any]] = defaultdict(list)
    for r in recs:
        groups[(r.parallel_id, r.listing_type)].append(r)
    kept: list[Any] = []
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for (_par, kind), rows in groups.items():
        drop = outliers([r.price_cents / 100 for r in rows])
        totals[kind][0] += len(rows)
        totals[kind][1] += len(drop)
        kept.extend(r for i, r in enumerate(rows) if i not in drop)
    buckets: dict[date, dict[str, list[Any]]] = defaultdict(lambda: defaultdict(list))
    for r in sorted(kept, key=lambda r: (r.date, str(r.id))):
        buckets[bucket_start(r.date, interval)][r.listing_type].append(r)
    candles = []
    for start in sorted(buckets):
        types = {}
        for kind, rows in sorted(buckets[start].items()):
            prices = [r.price_cents / 100 for r in rows]
            types[kind] = CandleStats(mean=round(statistics.fmean(prices), 2), median=round(statistics.median(prices), 2),
                                      high=max(prices), low=min(prices), open=prices[0], close=prices[-1],
                                      count=len(prices))
        candles.append(CandlePeriod(period_start=start.isoformat(), types=types))
    return candles, {k: TypeTotals(total_count=v[0], filtered_count=v[1]) for k, v in sorted(totals.items())}


@tool("pricing_timeseries", method="GET", path="/v1/pricing/{card_id}/timeseries")
async def pricing_timeseries(ctx: ToolContext, query: TimeseriesQuery) -> TimeseriesResponse:
    """Price candles (mean, median, high, low, open, close, count) of a card per day, week or month, raw and graded."""
    periods = int(query.periods or DEFAULTS[query.interval])
    end = as_of(query.as_of_date, ctx.clock(), timezone.utc)
    start = first_bucket(end, query.interval, periods)
    par_filter, grade_filter = parse_filter(query.parallel_id), parse_filter(query.grade_id)
    async with ctx.transaction() as s:
        row, par = await card_and_parallel(s, uuid.UUID(query.card_id), par_filter[1])
        base_or_one = par_filter if par_filter[0] else (True, None)  # a parallel's sales are not the base card's
        recs, _ = await q.records(session=s, card_id=row[0].id, parallel=base_or_one, grade=grade_filter,
                                  listing_type=query.listing_type, start=start, end=end, limit=10**6)
        info = await q.grade_info(session=s, ids=[r.grade_id for r in recs])
    raw_candles, raw_totals = series([r for r in recs if r.grade_id is None], query.interval)
    by_grade: dict[uuid.UUID, list[Any]] = defaultdict(list)
    for r in recs:
        if r.grade_id in info:
            by_grade[r.grade_id].append(r)
    companies: dict[uuid.UUID, list[GradeSeries]] = defaultdict(list)
    for gid in sorted(by_grade, key=lambda g: (info[g][1].sort_order, info[g][0].sort_order)):
        candles, totals = series(by_grade[gid], query.interval)
        if candles:
            companies[info[gid][1].id].append(GradeSeries(grade_value=info[gid][0].value, grade_id=str(gid),
                                                          candles=candles, totals=totals))
    graded = [CompanySeries(**company_names(info[uuid.UUID(grades[0].grade_id)][1]), grades=grades)
              for grades in companies.values()]
    return TimeseriesResponse(
        card=card_context(row, par),
        query=SeriesEcho(interval=query.interval, periods=periods, as_of_date=end.isoformat(),
                         listing_type=query.listing_type, parallel_id=query.parallel_id, grade_id=query.grade_id),
        raw=RawSeries(candles=raw_candles, totals=raw_totals), graded=graded)
