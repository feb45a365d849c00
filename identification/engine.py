"""One located card matched to the catalog: its text's candidates, the picture's likeness to reference
images, closer reads while neither names one card (``identification.closer``), then the decision
(``identification.decide``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from identification import scoring as sc
from identification.catalog_names import CatalogNames
from identification.closer import STEPS, Escalation, Step, escalate
from identification.decide import Match, decide
from identification.evidence import evidence
from identification.lookup import CandidateLookup, text_candidates
from identification.thresholds import THRESHOLDS as T
from vision import pipeline
from vision.features import HashIndex, sheen


async def match(reading: pipeline.Reading, *, lookup: CandidateLookup, index: HashIndex,
                names: Callable[[], Awaitable[CatalogNames]], until: float | None = None,
                segment_id: Any = None, steps: tuple[Step, ...] = STEPS) -> Match | None:
    """The card ``reading`` shows, or None. ``lookup``: the catalog (bound to a segment or not, and
    ``segment_id`` the same for spotting names); ``index``: the reference images' features; ``names``:
    the catalog's names for spotting, built on first use; ``until``: when closer reads stop starting."""
    catalog = await names()
    folded = catalog.folded_in(reading.lines) if reading.lines else []
    near = catalog.near_in(reading.lines) if reading.lines else []
    cands, ev = await text_candidates(lookup, evidence(reading.lines), folded=folded, near=near)
    visual: dict[Any, float] = {}
    if len(index):
        for feats in reading.features:
            for cid, sim in index.query(feats, k=8):
                visual[cid] = max(visual.get(cid, 0.0), sim)
    if max(visual.values(), default=0.0) < T.sure_picture and sc.weak_text(ev, cands):
        ev = await escalate(Escalation(reading, ev, cands, lookup, names, segment_id), until, steps)
    if len(index):
        missing = [cid for cid in visual if cid not in cands]
        for c in await lookup.by_ids(missing):
            cands[c["card"].id] = c
        unscored = [c for c in cands if c not in visual]
        for feats in reading.features:  # text candidates with a reference image the shortlist missed
            for cid, sim in index.similarity(feats, unscored).items():
                visual[cid] = max(visual.get(cid, 0.0), sim)
    return decide(ev, cands, visual, foil=sheen(reading.crop) >= T.foil_sheen)
