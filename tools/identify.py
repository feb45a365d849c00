"""Identification tools: cards in a photo matched to the catalog, detection, CardMagic, identifiable sets.

The image work (``vision/``) runs in a worker thread so the server keeps answering other
requests, and so does spotting names in small print (numpy over every catalog name); catalog
matching runs here against the database (``store/queries/identify.py``), for the cards of one
photo at once (``match_readings``).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

from pydantic import Field, PrivateAttr

from store.queries import identify as q
from tools import _identify_match as m
from tools import _identify_namesakes as ns
from tools._catalog_models import FieldKV
from tools._identify_extras import (
    AutoGradeRef, ParallelMatch, QualifierRef, add_card_fields, label_auto_grade, label_qualifier, photo_messages,
)
from tools._identify_spot import CatalogNames, RequestNames
from tools._models import CamelOut, In, Out, Page, ServerMessage, Skip, Take, UUIDStr, Upload, listed_as
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import ServiceError, not_found
from vision import memory, pipeline, smallprint
from vision.decode import CONTENT_TYPES, sniff
from vision.errors import VisionError
from vision.features import HashIndex
from vision.text import FOLD_PAIRS, serials

log = logging.getLogger("cardwise.vision")
_EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardwise-vision")
_OTHER_IMAGE_MAGIC = (b"GIF8", b"BM", b"II*\x00", b"MM\x00*", b"%PDF", b"\x00\x00\x01\x00", b"8BPS")


async def run_cpu(fn, *args, **kwargs):
    """Run CPU-bound image work off the event loop (one image at a time per process)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_EXECUTOR, lambda: fn(*args, **kwargs))


def release_memory() -> None:
    """After an image request: the word similarities cached for its matching are dropped, and the
    memory its work freed goes back to the system (``vision.memory``), in the image worker once its
    queued work is done, without holding up the response."""
    m.forget_word_similarities()
    _EXECUTOR.submit(memory.release)


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


# --------------------------------------------------------------------------- output models
class ParallelSuggestion(CamelOut):
    id: str
    name: str
    numbered_to: int | None = None
    confidence: Literal["High", "Medium", "Low"] | None = None


class CardRecord(CamelOut):
    id: str | None = None
    segment_id: str | None = None
    release_id: str | None = None
    set_id: str | None = None
    year: str | None = None
    manufacturer: str | None = None
    release_name: str | None = None
    set_name: str | None = None
    name: str | None = None
    number: str | None = None
    description: str | None = None
    numbered_to: int | None = None
    attributes: list[str] | None = None
    variation_of: str | None = None
    fields: list[FieldKV] | None = None


class DetectionCard(CardRecord):
    parallel: ParallelMatch | None = Field(None, description="The parallel, when one is named with High confidence")
    parallel_suggestions: list[ParallelSuggestion] | None = None
    suggestions: list[CardRecord] | None = None


class GradeRef(CamelOut):
    id: str | None = None
    value: str | None = None
    condition: str | None = None


class CompanyRef(CamelOut):
    id: str | None = None
    name: str


class Grading(CamelOut):
    confidence: Literal["High", "Medium", "Low"]
    company: CompanyRef
    grade: GradeRef | None = None
    qualifier: QualifierRef | None = None
    auto_grade: AutoGradeRef | None = None
    cert_number: str | None = None


class Detection(CamelOut):
    confidence: Literal["High", "Medium", "Low"]
    card: DetectionCard
    grading: Grading | None = None
    _score: float = PrivateAttr(default=0.0)  # the fused confidence behind the tier (for calibration)


class IdentifyResult(CamelOut):
    success: bool
    request_id: str
    detections: list[Detection]
    processing_time: float
    detected_count: int
    identified_count: int
    messages: list[ServerMessage] | None = None


class IdentifyIn(In):
    image: Upload = Field(description="The photo: multipart field 'image' or a raw image body")


class IdentifySegmentIn(IdentifyIn):
    segment: str = Field(min_length=1, max_length=200, description="Segment UUID, name or short code")


# --------------------------------------------------------------------------- matching
async def _reference_index(ctx: ToolContext, s) -> HashIndex:
    async def build() -> HashIndex:
        rows = await q.image_features(session=s)
        return HashIndex([r[0] for r in rows], [r[1] for r in rows], [(r[2] or {}).get("color") for r in rows])

    return await ctx.service("vision_index", await q.image_index_version(session=s), build)


def _record(c: dict[str, Any], attrs: dict, *, exact: bool = True) -> dict[str, Any]:
    card = c["card"]
    rec = dict(segment_id=str(c["segment_id"]), release_id=str(card.release_id), set_id=str(card.set_id),
               year=c["year"], manufacturer=c["manufacturer"], release_name=c["release_name"], set_name=c["set_name"])
    if exact:
        rec.update(id=str(card.id), name=card.name, number=card.number, description=card.description,
                   numbered_to=card.numbered_to, attributes=attrs.get(card.id) or None,
                   variation_of=str(card.variation_of) if card.variation_of else None)
    return rec


async def _text_candidates(s, ev: m.TextEvidence, segment_id) -> dict[uuid.UUID, dict]:
    """Catalog cards the text read may show: names read as a whole line (also names of short words,
    "Ho Oh", which no word lookup finds; noted in ``ev.read_whole``) and names containing a word
    read, those with a number read first; if none scores as a name read (0.6), names matching with
    OCR-confusable letters folded ("Riek Toeehet"); if still none, the names sharing the most letter
    triples with the words read ("Bayne Greizky"). A lookup returns a few hundred cards at most (by
    letter triples a few dozen), some of a name's cards: the best names' cards numbered as read are
    added, and so are the cards of a year and number read whose release and set were read too (a header
    read whole over a name that is not: ``_identify_match.set_and_number_read``). Last, candidates'
    names read whole but for a letter of their suffix ("Maushold es") join ``ev.read_whole``
    (``_identify_match.suffix_misread``)."""
    cands = {c["card"].id: c for c in await _read_whole(s, ev, segment_id)}
    for c in await q.candidates_by_words(session=s, words=ev.query_words, segment_id=segment_id,
                                         numbers=m.number_forms(ev)):
        cands.setdefault(c["card"].id, c)
    if ev.trigram_words and max((m.text_score(ev, c) for c in cands.values()), default=0.0) < 0.6:
        for c in await q.candidates_by_words(session=s, words=m.folded_query(ev), segment_id=segment_id,
                                             fold_pairs=FOLD_PAIRS):
            cands.setdefault(c["card"].id, c)
        if max((m.text_score(ev, c) for c in cands.values()), default=0.0) < 0.6:
            for c in await q.candidates_by_trigrams(session=s, words=ev.trigram_words, segment_id=segment_id):
                cands.setdefault(c["card"].id, c)
    if ev.numbers and cands:  # the lookups return some of a name's cards: add those of the number read
        names = m.likeliest_names(ev, cands.values())
        for c in await q.candidates_by_names_and_numbers(session=s, names=names, numbers=m.number_forms(ev),
                                                         segment_id=segment_id):
            cands.setdefault(c["card"].id, c)
    if ev.numbers and ev.years:  # a header read whole names its card when the name is not read
        for c in await q.candidates_by_years_and_numbers(session=s, years=sorted(ev.years),
                                                         numbers=m.number_forms(ev), segment_id=segment_id):
            if m.set_and_number_read(ev, c):
                cands.setdefault(c["card"].id, c)
    misread = m.names_read_whole(ev, cands.values()) - ev.read_whole  # a suffix misread: "Maushold es"
    if misread:
        ev.read_whole |= misread
        ev.read_names.clear()  # the names inside them no longer count as read exactly
    return cands


async def _read_whole(s, ev: m.TextEvidence, segment_id) -> list[dict]:
    """The cards of the names read as a whole line; their names go into ``ev.read_whole``."""
    whole = await q.candidates_by_names(session=s, names=m.line_names(ev), segment_id=segment_id)
    ev.read_whole = m.names_read_whole(ev, whole)
    return whole


async def _merge_lines(s, reading: pipeline.Reading, lines: list[str], cands: dict, segment_id) -> m.TextEvidence:
    """A further read's new lines added to ``reading`` and the cards they suggest to ``cands`` (a slab's
    grade printed on its own left out, as the first read leaves it: ``pipeline.without_grade``)."""
    if reading.label is not None:
        lines = pipeline.without_grade(lines, reading.label)
    more = [t for t in lines if t not in reading.lines]
    ev = m.evidence(reading.lines + more)
    if not more:  # the same lines: their names read whole are among the candidates already
        ev.read_whole = m.names_read_whole(ev, cands.values())
        return ev
    reading.lines = [*reading.lines, *more]
    reading.serials = serials(reading.lines)
    for cid, c in (await _text_candidates(s, ev, segment_id)).items():
        cands.setdefault(cid, c)
    return ev


def _way_up(reading: pipeline.Reading, ev: m.TextEvidence, cands: dict) -> bool | None:
    """Which way up the card lies (``reading.upside_down``), trusted only once its text names some
    card: upside-down print the angle classifier left as it was can read as sure garbage ("1999 Base
    Set" upside down reads "Ie aseg 666l": 6 and 9 are each other turned round)."""
    return reading.upside_down if m.name_read(ev, cands) else None


def deadline(settings, started: float, cards: int) -> float | None:
    """When a photo's closer reads must stop starting (``time.perf_counter()``): the upload's start plus the
    one-card budget and more for each further card (``Settings.identify_budget_s``); None: no budget."""
    if settings.identify_budget_s <= 0:
        return None
    return started + settings.identify_budget_s + settings.identify_budget_per_card_s * max(0, cards - 1)


def _past(until: float | None) -> bool:
    return until is not None and time.perf_counter() >= until


async def _read_closer(s, reading: pipeline.Reading, ev: m.TextEvidence, cands: dict, segment_id,
                       request_names: RequestNames, until: float | None = None) -> m.TextEvidence:
    """Neither the text nor the picture names one card (no name read, or two cards tie, e.g. the
    same name with a number not read): read the card again closer (small print), then closer in grey
    levels, then its lines upside down (blurred print the angle classifier did not turn), then its
    corners (``smallprint.read_corners``: a number the text detector passed over), until the text
    names one card. The reads are merged into ``reading`` and their candidates into ``cands``. If
    none names a card, the small print is read (``_read_small_print``). Once a read was sure of
    some line (``reading.upside_down``, from the first read or a closer one) and the text names some
    card (``_way_up``), the reads that follow read the card only the way it lies: no lines re-read
    upside down on a card lying upright, the top corners and small print one way (a name read with
    its number not: the namesakes' case, the commonest on hard photos).

    The corners come last although they are the cheapest read: first, their misreads ("392" for
    #391) decided cards the closer reads would have read right (real catalogs, hard photos, seed 1:
    81.8 % right first, 83.0 % last; seed 7: 73.9 % either way)."""
    corner_probs: list = []
    line_crops: list = []
    for step in ("colour", "grey", "turned", "corners"):
        if _past(until):  # the photo's time is spent: answer with what the reads so far give
            return ev
        if step == "corners":
            names = await request_names.get(s)
            closer, corner_probs = await run_cpu(smallprint.read_corners, reading.crop, names.classes,
                                                 _way_up(reading, ev, cands))
        elif step == "turned":
            if _way_up(reading, ev, cands) is False:  # it lies upright: no print on it is upside down
                continue
            closer = await run_cpu(pipeline.read_turned, line_crops)
        else:
            way: list[bool | None] = []
            closer, crops = await run_cpu(pipeline.read_closer, reading.crop, grey=step == "grey", way=way)
            line_crops += crops
            if reading.upside_down is None and way:  # the first read was sure of no line; this one may be
                reading.upside_down = way[0]
        ev = await _merge_lines(s, reading, closer, cands, segment_id)
        if not m.weak_text(ev, cands):
            return ev
    if _past(until):
        return ev
    return await _read_small_print(s, reading, ev, cands, segment_id, names, line_crops, corner_probs)


async def _read_small_print(s, reading: pipeline.Reading, ev: m.TextEvidence, cands: dict, segment_id,
                            names: CatalogNames, line_crops: list, corner_probs: list) -> m.TextEvidence:
    """The last resort when the closer reads still name no card: the lines of print the text detector
    passed over (small or blurred print, a name on a bar, a number in a corner) are found by
    morphology and read (merged like ``_read_closer``'s reads); if the text still names no card,
    catalog names are spotted in them (``_spot_names``), then what tells apart the cards of the name
    read (``_spot_namesake``, also in the corners read)."""
    found = await run_cpu(smallprint.read, reading.crop, names.classes, _way_up(reading, ev, cands))
    ev = await _merge_lines(s, reading, found.texts, cands, segment_id)
    if m.weak_text(ev, cands):
        name_probs, number_probs = await run_cpu(smallprint.spotting_probs, reading.crop, found, line_crops,
                                                 names.classes, _way_up(reading, ev, cands))
        await _spot_names(s, ev, cands, segment_id, names, name_probs)
        if m.weak_text(ev, cands):
            await asyncio.to_thread(_spot_namesake, ev, cands, names, [*number_probs, *corner_probs])
    return ev


async def _spot_names(s, ev: m.TextEvidence, cands: dict, segment_id, names: CatalogNames,
                      probs: list) -> None:
    """For print too small to read: the small-print lines and the closer reads' lines
    (``smallprint.spotting_probs``) are scored against every catalog name by the recogniser's
    per-frame output (``vision.spotting``), in a thread off the event loop (up to ~0.15 s a card).
    Names spotted well enough to count as read go into ``ev.spotted`` and their cards into ``cands``."""
    scores = await asyncio.to_thread(names.spot, probs, segment_id=segment_id,
                                     also=sorted({c["card"].name for c in cands.values()}), margin=m.SPOT_MARGIN)
    ev.spotted = m.spotted_names(scores)
    read = [n for n, sim in ev.spotted.items() if sim >= m.NAME_READ]
    for c in await q.candidates_by_names(session=s, names=read, segment_id=segment_id):
        cands.setdefault(c["card"].id, c)


def _spot_namesake(ev: m.TextEvidence, cands: dict, names: CatalogNames, probs: list) -> None:
    """Cards whose name was read but whose numbers were not (a name several cards share): the words
    of each one's release and set are spotted in the lines, then the numbers of those left
    (``_identify_namesakes``); clear winners go into ``ev.spotted_context`` and ``ev.spotted_numbers``."""
    group = ns.namesakes(ev, cands)
    if not group:
        return
    words = ns.word_forms(set().union(*ns.distinguishing_words(group).values()))
    ev.spotted_context = ns.spotted_context(group, names.spot_words(probs, words))
    if ev.spotted_context:
        group = [c for c in group if c["card"].id in ev.spotted_context]
    numbers = ns.numbers_to_spot(group)
    if numbers:
        scores = names.spot_numbers(probs, numbers)
        ev.spotted_numbers = ns.spotted_number(numbers, scores)
        ev.likeliest_number = ns.likeliest_number(numbers, scores)  # a tie-break where none is spotted


CARDS_AT_ONCE = 2  # one card's catalog work overlaps another's reads


async def match_readings(ctx: ToolContext, readings: list[pipeline.Reading], segment_id,
                         until: float | None = None) -> list[Detection | None]:
    """Every card located in a photo matched to the catalog, ``CARDS_AT_ONCE`` at a time, each in a
    transaction of its own: while one card's closer reads run in the image worker, another's catalog
    lookups and spotting run here (one card after another, a four-card photo of the real catalogs
    waited for them: 0.2-0.8 s of its 2.6-4.3 s). The image work itself stays one step at a time;
    more cards at once would only hold more of the pool's connections while they wait for it. The
    answers keep the photo's order. ``until``: when closer reads stop starting (``deadline``)."""
    async with ctx.transaction() as s:
        index = await _reference_index(ctx, s)
    names = RequestNames(ctx)
    turns = asyncio.Semaphore(CARDS_AT_ONCE)

    async def one(r: pipeline.Reading) -> Detection | None:
        async with turns, ctx.transaction() as s:
            return await _match(s, r, index, segment_id, names, until)

    try:
        async with asyncio.TaskGroup() as tg:  # one card failing cancels the others
            tasks = [tg.create_task(one(r)) for r in readings]
    except ExceptionGroup as eg:
        raise eg.exceptions[0] from None
    return [t.result() for t in tasks]


async def _match(s, reading: pipeline.Reading, index: HashIndex, segment_id, names: RequestNames,
                 until: float | None = None) -> Detection | None:
    ev = m.evidence(reading.lines)
    cands = await _text_candidates(s, ev, segment_id)
    visual: dict[uuid.UUID, float] = {}
    if len(index):
        for feats in reading.features:
            for cid, sim in index.query(feats, k=8):
                visual[cid] = max(visual.get(cid, 0.0), sim)
    if max(visual.values(), default=0.0) < 0.8 and m.weak_text(ev, cands):
        ev = await _read_closer(s, reading, ev, cands, segment_id, names, until)
    if len(index):
        missing = [cid for cid in visual if cid not in cands]
        for c in await q.cards_by_ids(session=s, ids=missing, segment_id=segment_id):
            cands[c["card"].id] = c
        unscored = [c for c in cands if c not in visual]
        for feats in reading.features:  # text candidates with a reference image the shortlist missed
            for cid, sim in index.similarity(feats, unscored).items():
                visual[cid] = max(visual.get(cid, 0.0), sim)
    # a card without a reference image gets a neutral visual prior of 0.6 when the photo looks like some
    # reference image (so an imaged twin that matches wins); otherwise its text score stands alone
    looks_known = max(visual.values(), default=0.0) >= 0.6
    lead_id, lead = _visual_lead(visual)
    led = False
    scored = []
    for cid, c in cands.items():
        t = m.text_score(ev, c)
        if cid in visual and ev.lines:
            v = visual[cid]
            f = max(0.5 * t + 0.5 * v, 0.8 * t)  # a poor crop (glare, slab window) must not sink good text
            if t >= 0.6 and v >= 0.8:  # text and image agree: independent evidence compounds
                f = max(f, 1 - (1 - t) * (1 - v))
            if cid == lead_id and t + VISUAL_LEAD_WEIGHT * lead > f:  # the picture tells it from its namesakes
                f, led = min(1.0, t + VISUAL_LEAD_WEIGHT * lead), not looks_known
        elif cid in visual:
            f = visual[cid]
        elif looks_known:
            f = 0.5 * t + 0.3
        else:
            f = t
        scored.append((f, cid))
    # at a tie the namesake whose number the blur fits best (``ev.likeliest_number``), and the base
    # card before its image variations, whatever order the database returned them in
    scored.sort(key=lambda x: (-x[0], cands[x[1]]["card"].number != ev.likeliest_number,
                               cands[x[1]]["card"].variation_of is not None))
    grading = await _grading(s, reading)
    conf = 0.0
    if scored:
        best_f, best_id = scored[0]
        best = cands[best_id]
        runner = next((f for f, cid in scored[1:] if cands[cid]["card"].name != best["card"].name
                       or cands[cid]["card"].number != best["card"].number), 0.0)
        conf = m.confidence(best_f, best_f - runner)
    level = m.tier(conf) if scored else None
    if level is None:
        if grading is not None:
            return Detection(confidence=grading.confidence, card=DetectionCard(), grading=grading)
        return None
    log.debug("match scores %s", [(round(f, 3), str(c), round(visual.get(c, -1), 3)) for f, c in scored[:3]])
    tied = next((f for f, cid in scored[1:] if f > best_f - 0.02), None)  # e.g. a variation with the same text
    if level == "High" and (best_f - runner < 0.06 or tied is not None
                            or (m.number_read(ev, best["card"].number) > 0  # a number read decided it
                                and _confusable_number(best, [cands[c] for _, c in scored[1:6]]))
                            or (0 < m.number_read(ev, best["card"].number) < 1  # a stray character guessed, a
                                and not (best_id == lead_id and visual[best_id] >= SAME_PICTURE))  # number spotted
                            or _stray_pick(ev, best, [cands[c] for _, c in scored[1:]])
                            or best_id in ev.spotted_context  # its release spotted among its namesakes
                            or (led and best_id == lead_id)):  # a picture ahead of the rest, but not alike
        level = "Medium"
    if level != "Low" and (_twin_ties(best, [(f, cands[cid]) for f, cid in scored[1:]], best_f)
                           or _name_read_better(ev, best, [cands[c] for _, c in scored[1:]])):
        level = "Low"
    alt_ids = [cid for f, cid in scored[1:6] if f >= 0.3]
    attrs = await q.attributes_of(session=s, card_ids=[best_id, *alt_ids])
    card = DetectionCard(**_record(best, attrs))
    pars = await q.parallels_for(session=s, card=best["card"])
    ranked = m.parallel_ranking(pars, reading.features[0].get("border") if reading.features else None, reading.serials)
    if ranked:
        card.parallel_suggestions = [ParallelSuggestion(id=str(p.id), name=p.name, numbered_to=p.numbered_to,
                                                        confidence=t) for p, _, t in ranked[:5]]
        top, _, tier = ranked[0]
        if tier == "High":
            card.parallel = ParallelMatch(id=str(top.id), name=top.name, description=top.description,
                                          numbered_to=top.numbered_to, is_partial=bool(top.is_partial))
    if level in ("Medium", "Low") and alt_ids:
        card.suggestions = [CardRecord(**_record(cands[cid], attrs)) for cid in alt_ids]
    det = Detection(confidence=level, card=card, grading=grading)
    det._score = conf
    return det


SAME_PICTURE = 0.85  # a photo this like one card's reference image, and no other's, shows that card
VISUAL_LEAD, VISUAL_LEAD_MIN = 0.15, 0.4  # a reference image this far ahead of every other card's, and this alike
VISUAL_LEAD_WEIGHT = 0.5  # the share of that lead added to the card's text score


def _visual_lead(visual: dict) -> tuple[Any, float]:
    """The card whose reference image the photo is most like, and by how much more than any other card's
    (``VISUAL_LEAD`` or more, at ``VISUAL_LEAD_MIN`` or more; else ``(None, 0.0)``): a scan re-saved smaller,
    turned and recompressed is only 0.4-0.6 like its own scan, but every other card's is 0.1-0.3, which tells
    a card from its namesakes without images (the same player's cards of other sets)."""
    ranked = sorted(visual.items(), key=lambda kv: -kv[1])
    if not ranked or ranked[0][1] < VISUAL_LEAD_MIN:
        return None, 0.0
    lead = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0.0)
    return (ranked[0][0], lead) if lead >= VISUAL_LEAD else (None, 0.0)


def _stray_pick(ev: m.TextEvidence, best: dict, others: list[dict]) -> bool:
    """The number that picked the best card among its namesakes was read only as a line of one
    character (``_identify_match.stray_number``): Meganium #001 of some twenty Meganium came back
    High for Meganium #9 on a "1" read in the artwork. A name with one card needs no number."""
    card = best["card"]
    return m.stray_number(ev, card.number) and any(o["card"].name == card.name and not m.same_print(o["card"], card)
                                                   for o in others)


def _twin_ties(best: dict, others: list[tuple[float, dict]], best_f: float) -> bool:
    """A card of the best one's name and number in another set (Ampharos #1 of seven Pokemon sets)
    scores the same (within 0.02): the name and number are sure, which set is a guess, as likely
    wrong as right, so the answer is Low whatever its confidence (the other sets' cards are among
    the suggestions). An image variation, in the same set, is the same card and does not count."""
    card = best["card"]
    return any(f > best_f - 0.02 and (o["card"].name, o["card"].number) == (card.name, card.number)
               and not m.same_print(o["card"], card) for f, o in others)


CLEARLY_READ = 0.9  # a name similarity from which a name counts as read clearly (``_name_read_better``)


def _name_read_better(ev: m.TextEvidence, best: dict, others: list[dict]) -> bool:
    """Another name was read clearly (``CLEARLY_READ``) where the best card's name was only a loose fit
    (under ``CLEAR_NAME``): a number read in a later, noisier read lifted a misread name over the one the
    card prints ("KARIYA" / "PAUL" read, then "41": Hariyama #41 came back High for Paul Kariya #1)."""
    if m.name_similarity(ev, best["card"].name) >= m.CLEAR_NAME:
        return False
    return any(o["card"].name != best["card"].name and m.name_similarity(ev, o["card"].name) >= CLEARLY_READ
               for o in others)


def _confusable_number(best: dict, others: list[dict]) -> bool:
    """Another card of the same name whose number contains the best one's, or the reverse (#3 / #39)."""
    b = (best["card"].number or "").lower()
    for o in others:
        n = (o["card"].number or "").lower()
        if o["card"].name == best["card"].name and n != b and b and n and (b in n or n in b):
            return True
    return False


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
