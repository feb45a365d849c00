"""Set completion of a collection: per set, per parallel, and the difficulty of finishing a set.

Only base cards count (variations are excluded); a card counts as owned when the collection holds
an unsold copy of it in any parallel or grade. Formulas: README, "Collection analytics".
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from store.queries import analytics as aq
from store.queries import set_progress as sq
from tools._models import BoolStr, CamelIn, CamelOut, LooseUUIDStr, Order, Page, Skip, Take, cents_to_money, listed_as
from tools._owned import collection_or_404, uid
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import not_found

NEAR_COMPLETE = 80.0       # summary / nearComplete filter: strictly above this percentage
LIST_MISSING_FROM = 85.0   # the list route names missing cards only from this percentage on
PRICE_CAP_CENTS = 10_000   # an average missing card of $100 or more counts as maximally expensive


def completion(owned: int, total: int) -> float:
    return round(owned * 100.0 / total, 2) if total else 0.0


def difficulty(s: dict[str, Any]) -> float:
    """0 (complete) to 100: 50% share missing + 30% price of missing cards + 20% share serial-numbered."""
    missing = s["total"] - s["owned"]
    if missing <= 0 or not s["total"]:
        return 0.0
    avg_missing = s["missing_cost"] / s["missing_priced"] if s["missing_priced"] else 0.0
    price_factor = min(1.0, avg_missing / PRICE_CAP_CENTS)
    score = 100.0 * (0.5 * missing / s["total"] + 0.3 * price_factor + 0.2 * s["missing_numbered"] / missing)
    return round(score, 1)


def cost_to_complete(s: dict[str, Any]) -> int | None:
    if s["total"] - s["owned"] <= 0:
        return 0
    return s["missing_cost"]


class CollectionRef(CamelIn):
    collection_id: LooseUUIDStr = Field(description="Collection id")


class ProgressQuery(CollectionRef):
    take: Take = 20
    skip: Skip = 0
    sort_by: Literal["completion", "missing", "cost", "difficulty"] = Field("completion", description="Sort key: completion, missing, cost or difficulty")
    order: Order = "desc"
    min_completion: float | None = Field(None, ge=0, le=100, description="Only sets at least this % complete")
    near_complete: BoolStr | None = Field(None, description='"true": only sets over 80% complete')


class SetProgress(CamelOut):
    set_id: str
    set_name: str
    release_name: str
    release_year: str
    total_cards: int
    owned_cards: int
    missing_cards: list[str]
    completion_percentage: float
    estimated_cost_to_complete: str | None = None
    difficulty_score: float | None = None
    average_card_value: str | None = None


class ProgressSummary(CamelOut):
    total_sets: int
    near_complete_sets: int
    fully_complete_sets: int
    total_estimated_cost: str | None = None


class ProgressPage(Page[SetProgress], alias_generator=listed_as("sets")):
    summary: ProgressSummary


def _set_out(s: dict[str, Any], missing: list[Any]) -> SetProgress:
    avg = s["avg_price"]
    return SetProgress(
        set_id=str(s["set_id"]), set_name=s["set_name"], release_name=s["release_name"],
        release_year=s["release_year"] or "", total_cards=s["total"], owned_cards=s["owned"],
        missing_cards=[str(c) for c in missing], completion_percentage=completion(s["owned"], s["total"]),
        estimated_cost_to_complete=cents_to_money(cost_to_complete(s)), difficulty_score=difficulty(s),
        average_card_value=cents_to_money(round(avg)) if avg is not None else None,
    )


@tool("collection_set_progress", method="GET", path="/v1/collection/{collectionId}/set-progress")
async def collection_set_progress(ctx: ToolContext, q: ProgressQuery) -> ProgressPage:
    """Completion of every set the collection touches: owned/total base cards, cost and difficulty to finish."""
    async with ctx.transaction() as s:
        coll = await collection_or_404(s, ctx, q.collection_id)
        await aq.tune(session=s)
        sets = await sq.per_set(session=s, collection_id=coll.id)
        for row in sets:
            row["completion"] = completion(row["owned"], row["total"])
            row["missing"] = row["total"] - row["owned"]
            row["cost"] = cost_to_complete(row)
            row["difficulty"] = difficulty(row)
        chosen = sets
        if q.min_completion is not None:
            chosen = [r for r in chosen if r["completion"] >= q.min_completion]
        if q.near_complete == "true":
            chosen = [r for r in chosen if r["completion"] > NEAR_COMPLETE]
        elif q.near_complete == "false":
            chosen = [r for r in chosen if r["completion"] <= NEAR_COMPLETE]
        sign = -1 if q.order == "desc" else 1
        chosen.sort(key=lambda r: (r[q.sort_by] is None, sign * (r[q.sort_by] or 0), r["set_name"], str(r["set_id"])))
        page = chosen[q.skip:q.skip + q.take]
        listed = [r["set_id"] for r in page if r["completion"] >= LIST_MISSING_FROM and r["missing"] > 0]
        missing = await sq.missing_cards(session=s, collection_id=coll.id, set_ids=listed)
    costs = [r["cost"] for r in sets if r["cost"] is not None]
    summary = ProgressSummary(
        total_sets=len(sets), near_complete_sets=sum(1 for r in sets if r["completion"] > NEAR_COMPLETE),
        fully_complete_sets=sum(1 for r in sets if r["total"] and r["owned"] >= r["total"]),
        total_estimated_cost=cents_to_money(sum(costs)) if costs else None)
    return ProgressPage.of([_set_out(r, missing.get(r["set_id"], [])) for r in page], len(chosen), q, summary=summary)


class SetRef(CollectionRef):
    set_id: LooseUUIDStr = Field(description="Catalog set id")


@tool("collection_set_progress_set", method="GET", path="/v1/collection/{collectionId}/set-progress/{setId}")
async def collection_set_progress_set(ctx: ToolContext, ref: SetRef) -> SetProgress:
    """Completion of one set in the collection, with the full list of missing base cards."""
    async with ctx.transaction() as s:
        coll = await collection_or_404(s, ctx, ref.collection_id)
        await aq.tune(session=s)
        rows = await sq.per_set(session=s, collection_id=coll.id, set_id=uid(ref.set_id))
        if not rows:
            raise not_found("Set in this collection", ref.set_id)
        missing = await sq.missing_cards(session=s, collection_id=coll.id, set_ids=[rows[0]["set_id"]])
    return _set_out(rows[0], missing[rows[0]["set_id"]])


class ParallelRef(SetRef):
    parallel_id: LooseUUIDStr = Field(description="Parallel of the set")


class ParallelProgress(CamelOut):
    set_id: str
    set_name: str
    release_name: str
    release_year: str
    parallel_id: str
    parallel_name: str
    total_cards: int
    owned_cards: int
    missing_cards: list[str]
    completion_percentage: float


@tool("collection_set_progress_parallel", method="GET",
      path="/v1/collection/{collectionId}/set-progress/{setId}/{parallelId}")
async def collection_set_progress_parallel(ctx: ToolContext, ref: ParallelRef) -> ParallelProgress:
    """Completion of one parallel of a set: base cards the parallel covers, owned in exactly that parallel."""
    set_id = uid(ref.set_id)
    async with ctx.transaction() as s:
        coll = await collection_or_404(s, ctx, ref.collection_id)
        await aq.tune(session=s)
        if not await sq.set_in_collection(session=s, collection_id=coll.id, set_id=set_id):
            raise not_found("Set in this collection", ref.set_id)
        par = await sq.parallel(session=s, set_id=set_id, parallel_id=uid(ref.parallel_id))
        if par is None:
            raise not_found("Parallel of this set", ref.parallel_id)
        head = await sq.set_header(session=s, set_id=set_id)
        total, owned, missing = await sq.parallel_progress(session=s, collection_id=coll.id, set_id=set_id, par=par)
    return ParallelProgress(
        set_id=str(head[0]), set_name=head[1], release_name=head[2], release_year=head[3] or "",
        parallel_id=str(par.id), parallel_name=par.name, total_cards=total, owned_cards=owned,
        missing_cards=[str(c) for c in missing], completion_percentage=completion(owned, total))
