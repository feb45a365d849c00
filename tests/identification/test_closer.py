"""The closer reads' first step: catalog names spotted in the lines the first read found (no engine)."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import numpy as np

from identification import closer
from identification.evidence import evidence
from identification.names import name_similarity
from identification.thresholds import THRESHOLDS
from vision import ocr, pipeline

VERNON = {"card": SimpleNamespace(id=uuid.uuid4(), name="Mike Vernon", number="Mc-20", set_id=uuid.uuid4(),
                                  variation_of=None),
          "release_name": "1991-92 Upper Deck McDonald's All-Stars", "set_name": "Upper Deck McDonald's All-Stars",
          "year": "1991-92"}


class Names:
    classes = np.arange(2)

    def spot(self, probs, *, segment_id, also, margin):
        return {"Mike Vernon": -0.2, "Mike Ferris": -0.7} if probs else {}

    def folded_in(self, lines):
        return []

    def near_in(self, lines):
        return []


class Lookup:
    async def by_names(self, names):
        return [VERNON] if "Mike Vernon" in names else []


async def test_a_name_too_garbled_to_look_up_is_spotted_in_the_first_reads_lines(monkeypatch):
    # a small re-save: "Nike Veroes" names no card, but its line is the clear best fit of Mike Vernon
    cut: list = []
    monkeypatch.setattr(ocr, "frames", lambda crops, classes: cut.extend(crops) or
                        [("", 0.0, np.zeros((4, 3), np.float32)) for _ in crops])
    wide, short = np.zeros((20, 160, 3), np.uint8), np.zeros((20, 30, 3), np.uint8)
    reading = pipeline.Reading(quad=np.zeros((4, 2)), kind="card", detect_score=1.0, crop=np.zeros((70, 50, 3), np.uint8),
                               lines=["HJO", "Nike Veroes"], line_crops=[short, wide])

    async def names():
        return Names()

    e = closer.Escalation(reading, evidence(reading.lines), {}, Lookup(), names)
    ev = await closer.escalate(e, None, steps=(closer.spot_read_lines,))
    assert len(cut) == 1 and cut[0] is wide  # only a line wide enough to hold a name
    assert name_similarity(ev, "Mike Vernon") >= THRESHOLDS.name_read and VERNON["card"].id in e.cands


async def test_spotting_reuses_the_first_reads_output_for_lines_it_recognised_the_same_way_up(monkeypatch):
    # the first read kept the recogniser's output for two wide lines: one it recognised as cut (spotted
    # from what was kept, not recognised again), one the angle classifier had turned round (recognised
    # again as cut, the way the card is read here)
    cut: list = []
    monkeypatch.setattr(ocr, "frames", lambda crops, classes: cut.extend(crops) or
                        [("", 0.0, np.full((4, 3), 0.5, np.float32)) for _ in crops])
    spotted: list = []

    class Spy(Names):
        def spot(self, probs, **kw):
            spotted.extend(probs)
            return super().spot(probs, **kw)

    same, turned = np.zeros((20, 160, 3), np.uint8), np.ones((20, 160, 3), np.uint8)
    kept = np.random.default_rng(0).random((5, 7)).astype(np.float32)
    reading = pipeline.Reading(quad=np.zeros((4, 2)), kind="card", detect_score=1.0, crop=np.zeros((70, 50, 3), np.uint8),
                               lines=["HJO", "Nike Veroes"], line_crops=[same, turned],
                               line_probs=[(False, kept), (True, np.zeros((5, 7), np.float32))])

    async def names():
        return Spy()

    e = closer.Escalation(reading, evidence(reading.lines), {}, Lookup(), names)
    ev = await closer.escalate(e, None, steps=(closer.spot_read_lines,))
    assert len(cut) == 1 and cut[0] is turned
    assert np.array_equal(spotted[0], ocr.columns(kept, Names.classes)) and spotted[1].shape == (4, 3)
    assert name_similarity(ev, "Mike Vernon") >= THRESHOLDS.name_read and reading.line_probs == []


async def test_a_closer_read_that_would_end_past_the_answer_time_does_not_start():
    # the first step took 0.3 s and ends before the budget (0.35 s); a second as long would end at
    # 0.6 s, past budget + overrun_s (0.55 s): it does not start. A quick first step lets it start.
    import asyncio
    import time

    ran: list[float] = []

    def step(seconds: float):
        async def run(e):
            ran.append(seconds)
            await asyncio.sleep(seconds)
        return run

    e = closer.Escalation(pipeline.Reading(quad=np.zeros((4, 2)), kind="card", detect_score=1.0,
                                           crop=np.zeros((70, 50, 3), np.uint8), lines=[]),
                          evidence([]), {}, Lookup(), None)
    assert THRESHOLDS.overrun_s == 0.2
    await closer.escalate(e, time.perf_counter() + 0.35, steps=(step(0.3), step(0.3)))
    assert ran == [0.3]
    ran.clear()
    await closer.escalate(e, time.perf_counter() + 0.35, steps=(step(0.05), step(0.3)))
    assert ran == [0.05, 0.3]
    ran.clear()
    await closer.escalate(e, None, steps=(step(0.3), step(0.3)))
    assert ran == [0.3, 0.3]  # no budget: every step


async def test_a_step_that_took_several_first_reads_does_not_start_where_it_would_end_past_the_answer_time(
        monkeypatch):
    # a closer read took 4x its card's first read: on a card whose first read took 0.1 s it is expected to
    # take 0.4 s, so with 0.3 s left (budget + overrun_s) it does not start, whatever the step before took
    import asyncio
    import time

    monkeypatch.setattr(closer, "_RELATIVE", {})
    ran: list[str] = []

    async def quick(e):
        ran.append("quick")

    async def slow(e):
        ran.append("slow")
        await asyncio.sleep(0.2)

    reading = pipeline.Reading(quad=np.zeros((4, 2)), kind="card", detect_score=1.0,
                               crop=np.zeros((70, 50, 3), np.uint8), lines=[], read_s=0.05)
    e = closer.Escalation(reading, evidence([]), {}, Lookup(), None)
    await closer.escalate(e, None, steps=(quick, slow))
    assert ran == ["quick", "slow"] and closer._RELATIVE["slow"] >= 3.5
    ran.clear()
    reading.read_s = 0.1
    await closer.escalate(e, time.perf_counter() + 0.3 - THRESHOLDS.overrun_s, steps=(quick, slow))
    assert ran == ["quick"]


BAILEY = {"card": SimpleNamespace(id=uuid.uuid4(), name="Mike Verona", number="40", set_id=uuid.uuid4(),
                                  variation_of=None),
          "release_name": "2024 Topps Baseball", "set_name": "Base Set", "year": "2024"}


VERNON_CC = {**VERNON, "card": SimpleNamespace(id=uuid.uuid4(), name="Mike Vernon", number="41", set_id=uuid.uuid4(),
                                               variation_of=None), "release_name": "1996-97 Collector's Choice"}


class CloserLookup(Lookup):
    async def by_names(self, names):
        return [VERNON, VERNON_CC] if "Mike Vernon" in names else []

    async def by_text(self, read, *, numbers=()):
        return [BAILEY] if "Verona" in read else []

    async def by_trigrams(self, words):
        return []


async def test_what_was_spotted_stays_evidence_after_a_closer_read_adds_lines(monkeypatch):
    # the first read's name line is spotted as a name of two cards (so the reads go on); a closer read then
    # reads the line as a near spelling of another name: the spotted name still counts (a further read adds lines, it does not unsay the print)
    monkeypatch.setattr(ocr, "frames", lambda crops, classes: [("", 0.0, np.zeros((4, 3), np.float32)) for _ in crops])
    monkeypatch.setattr(pipeline, "read_closer", lambda crop, grey=False, way=None, **_: (["Mke Verona"], []))
    reading = pipeline.Reading(quad=np.zeros((4, 2)), kind="card", detect_score=1.0, crop=np.zeros((70, 50, 3), np.uint8),
                               lines=["HJO", "Nike Veroes"], line_crops=[np.zeros((20, 160, 3), np.uint8)])

    async def names():
        return Names()

    e = closer.Escalation(reading, evidence(reading.lines), {}, CloserLookup(), names)
    ev = await closer.escalate(e, None, steps=(closer.spot_read_lines, closer.read_colour))
    assert "Mke Verona" in reading.lines and BAILEY["card"].id in e.cands
    assert ev.spotted.names.get("Mike Vernon", 0.0) >= THRESHOLDS.name_read
    assert name_similarity(ev, "Mike Vernon") >= THRESHOLDS.name_read


async def test_a_closer_reads_lines_are_spotted_as_soon_as_it_ends_from_the_output_it_kept(monkeypatch):
    # a small re-save: the 2x read garbles the name ("Mke Veras") but its line is the clear best fit of Mike
    # Vernon; the read kept the recogniser's output for its lines, so spotting needs no recogniser run for
    # those read the way the card is read (upright here), one for the line the angle classifier turned
    # round; and ``spot_names`` later reuses both outputs
    cut: list = []
    monkeypatch.setattr(ocr, "frames", lambda crops, classes: cut.extend(crops) or
                        [("", 0.0, np.full((4, 3), 0.5, np.float32)) for _ in crops])
    same, turned = np.zeros((20, 160, 3), np.uint8), np.ones((20, 160, 3), np.uint8)
    kept = np.random.default_rng(1).random((5, 3)).astype(np.float32)

    def read_closer(crop, *, grey=False, way=None, probs=None, classes=None):
        assert classes is Names.classes
        probs += [(False, kept), (True, np.zeros((5, 3), np.float32))]
        return ["Mke Veras"], [same, turned]

    monkeypatch.setattr(pipeline, "read_closer", read_closer)
    spotted: list = []

    class Spy(Names):
        def spot(self, probs, **kw):
            spotted.append(list(probs))
            return super().spot(probs, **kw)

    async def names():
        return Spy()

    reading = pipeline.Reading(quad=np.zeros((4, 2)), kind="card", detect_score=1.0, crop=np.zeros((70, 50, 3), np.uint8),
                               lines=["HJO"])
    e = closer.Escalation(reading, evidence(reading.lines), {}, CloserLookup(), names)
    ev = await closer.escalate(e, None, steps=(closer.read_colour,))
    assert len(cut) == 1 and cut[0] is turned
    assert spotted[0][0] is kept and spotted[0][1].shape == (4, 3)
    assert name_similarity(ev, "Mike Vernon") >= THRESHOLDS.name_read and VERNON["card"].id in e.cands
    given: list = []
    monkeypatch.setattr(closer.smallprint, "spotting_probs",
                        lambda crop, found, closer_crops, classes, way, known: given.append(known) or ([], []))
    await closer.spot_names(e)
    assert given[0][0] is kept and given[0][1] is e.closer_probs[1][1]
