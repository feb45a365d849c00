"""Identification tools: the cards in a photo matched to the catalog, and the identifiable sets.

The engine is ``identification/``; here it is wired to the store (``store.queries.identify``: the
candidate lookup, reference images, catalog names) and its answers are shaped for the API. The image work
runs in the engine's worker thread, off the event loop; the cards of one photo are matched at once
(``match_readings``), each in a transaction of its own.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import Any

from pydantic import Field

import identification
from identification.catalog_names import CatalogNames
from identification.parallels import parallel_ranking
from identification.worker import deadline as _deadline
from identification.worker import release_memory, run_cpu
from store.queries import identify as q
from tools._identify_extras import (
    AutoGradeRef, ParallelMatch, QualifierRef, add_card_fields, label_auto_grade, label_qualifier, photo_messages,
)
from tools._identify_models import (
    CardRecord, CompanyRef, Detection, DetectionCard, GradeRef, Grading, IdentifyIn, IdentifyResult,
    IdentifySegmentIn, ParallelSuggestion,
)
from tools._models import In, Out, Page, Skip, Take, Upload, UUIDStr, listed_as
from tools._registry import tool
from tools._search import catalog_index
from tools.context import ToolContext
from tools.errors import ServiceError, not_found
from vision import pipeline
from vision.decode import CONTENT_TYPES, sniff
from vision.errors import VisionError
from vision.features import HashIndex

__all__ = ["IdentifyIn", "IdentifyResult", "IdentifySegmentIn", "deadline", "identify_card", "identify_card_segment",
           "image_bytes", "match_readings", "release_memory", "run_cpu", "vision_error"]
log = logging.getLogger("cardwise.vision")
_OTHER_IMAGE_MAGIC = (b"GIF8", b"BM", b"II*\x00", b"MM\x00*", b"%PDF", b"\x00\x00\x01\x00", b"8BPS")
CARDS_AT_ONCE = 2  # one card's catalog work overlaps another's reads


def image_bytes(upload: Upload) -> bytes:
    """The upload's bytes if they are JPEG, PNG, WebP or HEIC; 415 for other formats."""
    data = upload.data
    if sniff(data) is not None:
        return data
    declared = (upload.content_type or "").split(";")[0].strip().lower()
    if data.startswith(_OTHER_IMAGE_MAGIC) or declared not in set(CONTENT_TYPES.values()) | {"image/jpg", "image/heif"}:
        raise ServiceError("UNSUPPORTED_MEDIA_TYPE", "Unsupported image format; send JPEG, PNG, WebP or HEIC")
    raise ServiceError("VALIDATION_ERROR", "The image is corrupt or truncated")


def vision_error(exc: VisionError) -> ServiceError:
    if exc.kind == "unsupported":
        return ServiceError("UNSUPPORTED_MEDIA_TYPE", exc.message)
    return ServiceError("VALIDATION_ERROR", exc.message)


def deadline(settings, started: float, cards: int) -> float | None:
    """When a photo's closer reads stop starting: ``Settings.identify_budget_s`` from the upload's start,
    and ``identify_budget_per_card_s`` more for each further card; None: no budget."""
    return _deadline(started, cards, settings.identify_budget_s, settings.identify_budget_per_card_s)


async def _reference_index(ctx: ToolContext, s) -> HashIndex:
    async def build() -> HashIndex:
        rows = await q.image_features(session=s)
        return HashIndex([r[0] for r in rows], [r[1] for r in rows], [(r[2] or {}).get("color") for r in rows])

    return await ctx.service("vision_index", await q.image_index_version(session=s), build)


class RequestNames:
    """The catalog's names for spotting, for one request's cards: checked against the catalog's version
    once, by the first card that needs it (the check counts the card table, which costs on a catalog of
    millions), while the request's other cards, matched at the same time, wait for it."""

    def __init__(self, ctx: ToolContext):
        self._ctx = ctx
        self._names: CatalogNames | None = None
        self._lock = asyncio.Lock()

    async def get(self, s) -> CatalogNames:
        async with self._lock:
            if self._names is None:
                async def build() -> CatalogNames:
                    return await asyncio.to_thread(CatalogNames, await q.identifiable_names(session=s))

                self._names = await self._ctx.service("vision_names", await q.name_index_version(session=s), build)
        return self._names


async def warm_up(ctx: ToolContext) -> None:
    """What a process's first photo would otherwise wait for (2-4 s), done ahead: the text models loaded and
    run once, the reference images' index, the catalog's names for spotting and its search index."""
    await run_cpu(pipeline.warm)
    async with ctx.transaction() as s:
        await _reference_index(ctx, s)
        await RequestNames(ctx).get(s)
    await catalog_index(ctx)


async def match_readings(ctx: ToolContext, readings: list[pipeline.Reading], segment_id,
                         until: float | None = None) -> list[Detection | None]:
    """Every card located in a photo matched to the catalog, ``CARDS_AT_ONCE`` at a time, each in a
    transaction of its own: while one card's closer reads run in the image worker, another's catalog
    lookups and spotting run here. The image work itself stays one step at a time; more cards at once
    would only hold more of the pool's connections while they wait for it. The answers keep the photo's
    order. ``until``: when closer reads stop starting (``deadline``)."""
    if not readings:
        return []
    async with ctx.transaction() as s:
        index = await _reference_index(ctx, s)
    search = await catalog_index(ctx)
    names = RequestNames(ctx)
    turns = asyncio.Semaphore(CARDS_AT_ONCE)

    async def one(r: pipeline.Reading) -> Detection | None:
        async with turns, ctx.transaction() as s:
            return await _match(s, r, q.CandidateQueries(s, search, segment_id), index, segment_id, names, until)

    try:
        async with asyncio.TaskGroup() as tg:  # one card failing cancels the others
            tasks = [tg.create_task(one(r)) for r in readings]
    except ExceptionGroup as eg:
        raise eg.exceptions[0] from None
    return [t.result() for t in tasks]


async def _match(s, reading: pipeline.Reading, lookup: q.CandidateQueries, index: HashIndex, segment_id,
                 names: RequestNames, until: float | None = None) -> Detection | None:
    """One card: the engine's answer (``identification.match``) as a detection, with its parallels and
    a slab's grading."""
    found = await identification.match(reading, lookup=lookup, index=index,
                                       names=lambda: names.get(s), until=until, segment_id=segment_id)
    grading = await _grading(s, reading)
    if found is None:
        return None if grading is None else Detection(confidence=grading.confidence, card=DetectionCard(),
                                                      grading=grading)
    best = found.best
    attrs = await q.attributes_of(session=s, card_ids=[best["card"].id, *(c["card"].id for c in found.alternatives)])
    card = DetectionCard(**_record(best, attrs))
    pars = await q.parallels_for(session=s, card=best["card"])
    ranked = parallel_ranking(pars, reading.features[0].get("border") if reading.features else None, reading.serials)
    if ranked:
        card.parallel_suggestions = [ParallelSuggestion(id=str(p.id), name=p.name, numbered_to=p.numbered_to,
                                                        confidence=t) for p, _, t in ranked[:5]]
        top, _, tier = ranked[0]
        if tier == "High":
            card.parallel = ParallelMatch(id=str(top.id), name=top.name, description=top.description,
                                          numbered_to=top.numbered_to, is_partial=bool(top.is_partial))
    if found.tier in ("Medium", "Low") and found.alternatives:
        card.suggestions = [CardRecord(**_record(c, attrs)) for c in found.alternatives]
    det = Detection(confidence=found.tier, card=card, grading=grading)
    det._score = found.confidence
    return det


def _record(c: Any, attrs: dict, *, exact: bool = True) -> dict[str, Any]:
    card = c["card"]
    rec = dict(segment_id=str(c["segment_id"]), release_id=str(card.release_id), set_id=str(card.set_id),
               year=c["year"], manufacturer=c["manufacturer"], release_name=c["release_name"], set_name=c["set_name"])
    if exact:
        rec.update(id=str(card.id), name=card.name, number=card.number, description=card.description,
                   numbered_to=card.numbered_to, attributes=attrs.get(card.id) or None,
                   variation_of=str(card.variation_of) if card.variation_of else None)
    return rec


async def _grading(s, reading: pipeline.Reading) -> Grading | None:
    if reading.kind != "slab" or reading.label is None or reading.label.company is None:
        return None
    company, grade = await q.grading(session=s, abbreviation=reading.label.company, grade=reading.label.grade)
    name = company.abbreviation if company else reading.label.company
    gref = None
    if reading.label.grade:
        gref = GradeRef(id=str(grade.id) if grade else None, value=reading.label.grade,
                        condition=grade.condition if grade else None)
    conf = "Low" if reading.label.by_colour else "High" if reading.label.grade else "Medium"
    qualifier, auto = label_qualifier(reading.label.text), label_auto_grade(reading.label.text)
    return Grading(confidence=conf, company=CompanyRef(id=str(company.id) if company else None, name=name),
                   grade=gref, cert_number=reading.label.cert,
                   qualifier=QualifierRef(code=qualifier) if qualifier else None,
                   auto_grade=AutoGradeRef(value=auto) if auto else None)


async def _identify(ctx: ToolContext, upload: Upload, segment: str | None) -> IdentifyResult:
    key_id = ctx.key_id()
    started = time.perf_counter()
    segment_id = None
    if segment is not None:
        async with ctx.transaction() as s:
            seg = await q.resolve_segment(session=s, ident=segment)
        if seg is None:
            raise not_found("Segment", segment)
        segment_id = seg.id
    data = image_bytes(upload)
    try:
        return await _identify_image(ctx, data, key_id, segment_id, started)
    finally:
        release_memory()


async def _identify_image(ctx: ToolContext, data: bytes, key_id, segment_id, started: float) -> IdentifyResult:
    try:
        analysis = await run_cpu(pipeline.analyse, data)
    except VisionError as exc:
        raise vision_error(exc) from None
    request_id = uuid.uuid4()
    until = deadline(ctx.settings, started, len(analysis.readings))
    detections = [d for d in await match_readings(ctx, analysis.readings, segment_id, until) if d is not None]
    ms = round((time.perf_counter() - started) * 1000, 1)
    result = IdentifyResult(success=True, request_id=str(request_id), detections=detections, processing_time=ms,
                            detected_count=len(analysis.readings),
                            identified_count=sum(1 for d in detections if d.card.id),
                            messages=photo_messages(analysis.width, analysis.height, len(analysis.readings)))
    async with ctx.transaction() as s:
        await add_card_fields(s, [c for d in detections for c in [d.card, *(d.card.suggestions or [])]])
        await q.save_request(session=s, request_id=request_id, key_id=key_id, segment_id=segment_id,
                             detected=len(analysis.readings), ms=ms, result=result.model_dump(mode="json"))
    log.info("identified", extra={"request_id": str(request_id), "detected": result.detected_count,
                                  "identified": result.identified_count, "ms": ms, **analysis.timings})
    return result


@tool("identify_card", method="POST", path="/v1/identify/card", body="binary", agent=False,
      extra_statuses=(413, 415))
async def identify_card(ctx: ToolContext, inp: IdentifyIn) -> IdentifyResult:
    """Identify every card and graded slab in a photo, inferring each card's segment."""
    return await _identify(ctx, inp.image, None)


@tool("identify_card_segment", method="POST", path="/v1/identify/card/{segment}", body="binary", agent=False,
      extra_statuses=(404, 413, 415))
async def identify_card_segment(ctx: ToolContext, inp: IdentifySegmentIn) -> IdentifyResult:
    """Identify the cards in a photo within one segment (UUID, name or short code, case-insensitive)."""
    return await _identify(ctx, inp.image, inp.segment)


class IdentifiableSet(Out):
    year: str
    release_name: str
    segment_name: str
    set_name: str
    set_id: str


class IdentifiableSetsPage(Page[IdentifiableSet], alias_generator=listed_as("sets")):
    pass


class ListSetsIn(In):
    take: Take = 20
    skip: Skip = 0


@tool("identify_list_sets", method="GET", path="/v1/identify/list/sets")
async def identify_list_sets(ctx: ToolContext, inp: ListSetsIn) -> IdentifiableSetsPage:
    """List the sets whose cards photo identification can recognise (year, release, segment, set name and id)."""
    async with ctx.transaction() as s:
        rows, total = await q.identifiable_sets(session=s, skip=inp.skip, take=inp.take)
    return IdentifiableSetsPage.of([IdentifiableSet(year=r[0] or "", release_name=r[1], segment_name=r[2],
                                                    set_name=r[3], set_id=str(r[4])) for r in rows], total, inp)


class CheckSetIn(In):
    set_id: UUIDStr = Field(description="Set id (UUID)")


class SetIdentifiable(Out):
    set_id: str
    is_identifiable: bool


@tool("identify_check_set", method="GET", path="/v1/identify/check/set/{set_id}")
async def identify_check_set(ctx: ToolContext, inp: CheckSetIn) -> SetIdentifiable:
    """Tell whether photo identification can recognise the cards of one set (404 for an unknown set)."""
    async with ctx.transaction() as s:
        ok = await q.set_identifiable(session=s, set_id=uuid.UUID(inp.set_id))
    if ok is None:
        raise not_found("Set", inp.set_id)
    return SetIdentifiable(set_id=inp.set_id, is_identifiable=ok)
