"""A time budget per photo: once it is spent, no further closer read starts and the answer is what the reads
so far give (``CARDWISE_IDENTIFY_BUDGET_S``). The OCR is replaced by a fixed reading so that the test pins
which reads run, not how fast the machine is."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.factories import seed_catalog
from tests.vision.helpers import judge_in, photo
from tests.vision.ocr_fakes import read_lines
from tools import identify
from tools._models import Upload
from tools.context import ToolContext
from tools.identify import IdentifyIn, identify_card
from vision import pipeline


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)


def _closer_reads(monkeypatch) -> list:
    calls: list = []
    real = pipeline.read_closer

    def spy(crop, **kw):
        calls.append(kw.get("grey", False))
        return real(crop, **kw)

    monkeypatch.setattr(pipeline, "read_closer", spy)
    return calls


async def _answer(ctx, cat, budget: float):
    budgeted = ToolContext(ctx.sessions, replace(ctx.settings, identify_budget_s=budget), ctx.caller)
    data = photo(cat, ["judge"], seed=7)
    return await identify_card(budgeted, IdentifyIn(image=Upload(data=data, content_type="image/jpeg")))


async def test_a_spent_budget_starts_no_closer_read_and_answers_with_the_first(ctx, sessions, cat, monkeypatch):
    # three Aaron Judge cards and no number read: the first read names no single card, which would start
    # the closer reads; with the budget spent before they start, the namesakes come back as they are
    await judge_in(sessions, cat, [("2023 Topps", "77"), ("2022 Topps", "78")])
    read_lines(monkeypatch, ["Aaron Judge"])
    calls = _closer_reads(monkeypatch)
    res = await _answer(ctx, cat, 1e-9)
    assert calls == []
    (d,) = res.detections
    assert d.card.name == "Aaron Judge" and d.confidence != "High" and len(d.card.suggestions or []) >= 2


async def test_within_the_budget_the_closer_reads_run(ctx, sessions, cat, monkeypatch):
    await judge_in(sessions, cat, [("2023 Topps", "77"), ("2022 Topps", "78")])
    read_lines(monkeypatch, ["Aaron Judge"])
    calls = _closer_reads(monkeypatch)
    await _answer(ctx, cat, 3600.0)
    assert calls == [False, True]  # in colour, then in grey levels


def test_the_budget_grows_with_the_cards_of_a_photo(settings):
    budget = replace(settings, identify_budget_s=0.8, identify_budget_per_card_s=0.5)
    assert identify.deadline(budget, 10.0, 1) == pytest.approx(10.8)
    assert identify.deadline(budget, 10.0, 9) == pytest.approx(14.8)
    assert identify.deadline(replace(budget, identify_budget_s=0), 10.0, 9) is None
