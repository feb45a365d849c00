"""Closer reads of a card whose text names no single card, as an explicit list of steps (``STEPS``).

Each step reads the card (or its print) another way, merges what it reads into the card's evidence
and candidates, and the escalation stops at the first step after which the text names one card
(``scoring.weak_text`` is false), or when the photo's time budget is spent (no further step starts).
In order: catalog names spotted in the first read's own lines, the card enlarged and sharpened, the
same in grey levels (each with catalog names spotted in its own lines as it ends), the lines of both
recognised upside down (blurred print the angle classifier did not turn), the corners (a number no
line was found for), the small print found by morphology, catalog names spotted in it, and what tells
the cards of the name read apart (release words, then numbers: ``identification.namesakes``).

Once a read was sure of some line (``reading.upside_down``) and the text names some card (``way_up``),
the steps that follow read the card only the way it lies. The corners come after the closer reads
although they are the cheapest: their misreads ("392" for #391) decided cards the closer reads would
have read right.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from identification import namesakes as ns
from identification import names as nm
from identification import scoring as sc
from identification.catalog_names import CatalogNames
from identification.evidence import Evidence
from identification.lookup import CandidateLookup, Candidates, merge_lines
from identification.thresholds import THRESHOLDS as T
from identification.worker import past, run_cpu
from vision import ocr, pipeline, smallprint
from vision.text import serials


@dataclass
class Escalation:
    """One card's state while the steps run: its reading (lines merged in), evidence and candidates."""

    reading: pipeline.Reading
    ev: Evidence
    cands: Candidates
    lookup: CandidateLookup
    names: Callable[[], Awaitable[CatalogNames]]  # the catalog's names, built on first use
    segment_id: Any = None
    line_crops: list = field(default_factory=list)
    closer_probs: list = field(default_factory=list)  # per closer line crop: (read turned, its columns) or None
    corner_probs: list = field(default_factory=list)
    number_probs: list = field(default_factory=list)
    small: Any = None  # what ``smallprint.read`` found

    def way_up(self) -> bool | None:
        """Which way up the card lies, trusted only once its text names some card: upside-down print
        the angle classifier left as it was can read as sure garbage ("1999 Base Set" upside down
        reads "Ie aseg 666l")."""
        return self.reading.upside_down if sc.name_read(self.ev, self.cands) else None

    async def merge(self, lines: list[str]) -> None:
        """A read's new lines added to the reading, the evidence (what was spotted kept) and the candidates (a slab's grade
        printed on its own left out, as the first read leaves it: ``pipeline.without_grade``)."""
        r = self.reading
        if r.label is not None:
            lines = pipeline.without_grade(lines, r.label)
        more = [t for t in lines if t not in r.lines]
        names = await self.names()
        folded = names.folded_in(more) if more else []
        near = names.near_in(more) if more else []
        self.ev = await merge_lines(self.lookup, list(r.lines), more, self.cands, folded, near, self.ev.near,
                                    self.ev.spotted)
        if more:
            r.lines = [*r.lines, *more]
            r.serials = serials(r.lines)


Step = Callable[[Escalation], Awaitable[None]]


async def _closer(e: Escalation, grey: bool) -> None:
    """A closer read merged, then catalog names spotted in its own lines from the recogniser output it
    kept (``_spot_closer``)."""
    way: list[bool | None] = []
    names = await e.names()
    kept: list = []
    lines, crops = await run_cpu(pipeline.read_closer, e.reading.crop, grey=grey, way=way, probs=kept,
                                 classes=names.classes)
    kept = [*kept[:len(crops)], *[None] * (len(crops) - len(kept))]
    e.line_crops += crops
    e.closer_probs += kept
    if e.reading.upside_down is None and way:  # the first read was sure of no line; this one may be
        e.reading.upside_down = way[0]
    await e.merge(lines)
    if crops:
        await _spot_closer(e, names, len(e.line_crops) - len(crops))


async def _spot_closer(e: Escalation, names: CatalogNames, first: int) -> None:
    """Catalog names spotted in the closer read's lines wide enough to hold one (``e.line_crops`` from
    ``first``) as soon as it ends: a name it read garbled is often the clear best fit of the recogniser's
    output it already has (the same lines ``spot_names`` spots in, much later), so only lines the angle
    classifier read the other way are recognised again."""
    turn = bool(e.way_up())
    wide = [i for i in range(first, len(e.line_crops))
            if (c := e.line_crops[i]).shape[1] >= smallprint.NAME_ASPECT * c.shape[0]]
    todo = [i for i in wide if (k := e.closer_probs[i]) is None or k[0] != turn]
    crops = [np.ascontiguousarray(e.line_crops[i][::-1, ::-1]) if turn else e.line_crops[i] for i in todo]
    if todo:
        for i, (_, _, p) in zip(todo, await run_cpu(ocr.frames, crops, names.classes)):
            e.closer_probs[i] = (turn, p)
    probs = [k[1] for i in wide if (k := e.closer_probs[i]) is not None and k[0] == turn]
    if probs:
        await _spot(e, names, probs)


async def read_colour(e: Escalation) -> None:
    """The card enlarged 2x and sharpened, read again."""
    await _closer(e, grey=False)


async def read_grey(e: Escalation) -> None:
    """The same in grey levels."""
    await _closer(e, grey=True)


async def read_turned(e: Escalation) -> None:
    """The lines of both closer reads recognised upside down, unless the card lies upright."""
    if e.way_up() is not False:
        await e.merge(await run_cpu(pipeline.read_turned, e.line_crops))


async def read_corners(e: Escalation) -> None:
    """The corners by the recogniser alone (``smallprint.read_corners``)."""
    names = await e.names()
    lines, e.corner_probs = await run_cpu(smallprint.read_corners, e.reading.crop, names.classes, e.way_up())
    await e.merge(lines)


async def read_small_print(e: Escalation) -> None:
    """The lines of print the text detector passed over (small or blurred print, a name on a bar, a
    number in a corner), found by morphology and read."""
    names = await e.names()
    e.small = await run_cpu(smallprint.read, e.reading.crop, names.classes, e.way_up())
    await e.merge(e.small.texts)


async def spot_read_lines(e: Escalation) -> None:
    """Catalog names spotted in the lines the first read found wide enough to hold a name: a name read
    too garbled for any lookup ("Nike Veroes" for Mike Vernon on a small re-save) is often still the clear
    best fit of the recogniser's per-frame output, at a fraction of a closer read's cost."""
    r = e.reading
    wide = [i for i, c in enumerate(r.line_crops) if c.shape[1] >= smallprint.NAME_ASPECT * c.shape[0]]
    if not wide:
        return
    turn = bool(e.way_up())
    kept, r.line_probs = r.line_probs, []  # used once: no later step reads these lines as the first read cut them
    # the first read's output where it recognised the crop the way it is read here (the angle classifier's
    # verdict), the recogniser anew for the others
    reused: dict[int, np.ndarray] = {}
    for i in wide:
        if i < len(kept) and (k := kept[i]) is not None and k[0] == turn:
            reused[i] = k[1]
    todo = [i for i in wide if i not in reused]
    crops = [np.ascontiguousarray(r.line_crops[i][::-1, ::-1]) if turn else r.line_crops[i] for i in todo]
    names = await e.names()
    found = dict(zip(todo, await run_cpu(ocr.frames, crops, names.classes))) if todo else {}
    await _spot(e, names, [ocr.columns(reused[i], names.classes) if i in reused else found[i][2] for i in wide])


async def spot_names(e: Escalation) -> None:
    """Every catalog name scored against the recogniser's per-frame output of the small print and the
    closer reads' lines (``vision.spotting``, in a thread off the event loop; the closer reads' own output
    reused where they read a line the way it is read here); names spotted well enough to count as read,
    and their cards, join the evidence and the candidates."""
    names = await e.names()
    turn = bool(e.way_up())
    known = [k[1] if k is not None and k[0] == turn else None for k in e.closer_probs]
    name_probs, e.number_probs = await run_cpu(smallprint.spotting_probs, e.reading.crop, e.small, e.line_crops,
                                               names.classes, e.way_up(), known)
    await _spot(e, names, name_probs)


async def _spot(e: Escalation, names: CatalogNames, probs: list) -> None:
    scores = await asyncio.to_thread(names.spot, probs, segment_id=e.segment_id,
                                     also=sorted({c["card"].name for c in e.cands.values()}), margin=T.spot_margin)
    spotted = {**e.ev.spotted.names, **nm.spotted_names(scores)}
    e.ev = e.ev.with_spotted(names=spotted)
    read = [n for n, sim in e.ev.spotted.names.items() if sim >= T.name_read]
    for c in await e.lookup.by_names(read):
        e.cands.setdefault(c["card"].id, c)


async def spot_namesake(e: Escalation) -> None:
    """Cards whose name was read but whose numbers were not (a name several cards share): the words of
    each one's release and set are spotted in the lines, then the numbers of those left; clear winners
    go into the evidence (``identification.namesakes``)."""
    names = await e.names()
    e.ev = await asyncio.to_thread(_spot_namesake, e.ev, e.cands, names, [*e.number_probs, *e.corner_probs])


def _spot_namesake(ev: Evidence, cands: Candidates, names: CatalogNames, probs: list) -> Evidence:
    group = ns.namesakes(ev, cands)
    if not group:
        return ev
    words = ns.word_forms(set().union(*ns.distinguishing_words(group).values()))
    context = ns.spotted_context(group, names.spot_words(probs, words))
    if context:
        group = [c for c in group if c["card"].id in context]
    numbers = ns.numbers_to_spot(group)
    if not numbers:
        return ev.with_spotted(context=context)
    scores = names.spot_numbers(probs, numbers)
    tie_break = ns.likeliest_number(numbers, scores) if ns.printed_alike(numbers) else None
    return ev.with_spotted(context=context, numbers=ns.spotted_number(numbers, scores),
                           likeliest_number=tie_break)  # where none is spotted


STEPS: tuple[Step, ...] = (spot_read_lines, read_colour, read_grey, read_turned, read_corners, read_small_print,
                           spot_names, spot_namesake)


# per step: its recent time over the first read's of the card it ran on (an average): the steps' time scales
# with the card's size and the machine's load as its first read's does (a closer read: 2-4x)
_RELATIVE: dict[str, float] = {}


def expected_s(step: Step, reading: pipeline.Reading, last_s: float) -> float:
    """How long ``step`` should take on this card: as long as the last step did, or as its recent runs
    relative to their cards' first reads (``_RELATIVE``) say, whichever is longer."""
    return max(last_s, _RELATIVE.get(step.__name__, 0.0) * reading.read_s)


def _ran(step: Step, reading: pipeline.Reading, took_s: float) -> None:
    if reading.read_s > 0:
        ratio, name = took_s / reading.read_s, step.__name__
        _RELATIVE[name] = ratio if name not in _RELATIVE else 0.5 * (_RELATIVE[name] + ratio)


async def escalate(e: Escalation, until: float | None, steps: tuple[Step, ...] = STEPS) -> Evidence:
    """Run ``steps`` in order until the text names one card or the budget (``until``) is spent; a step
    expected to end more than ``overrun_s`` past it (``expected_s``) does not start."""
    last_s = 0.0
    for step in steps:
        began = time.perf_counter()
        if past(until) or (until is not None and began + expected_s(step, e.reading, last_s) > until + T.overrun_s):
            break  # the photo's time is spent: answer with what the reads so far give
        await step(e)
        last_s = time.perf_counter() - began
        _ran(step, e.reading, last_s)
        if not sc.weak_text(e.ev, e.cands):
            break
    return e.ev
