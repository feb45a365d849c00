"""The eval suites in CI: through the built-in model and through replayed cassettes.

Suites needing the demo catalog or a collection run here against the seed catalog with
stand-ins for the tools other branches provide (``tests/agent/fakes.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.llm import OpenAILLM, make_llm, openai_client
from evals.runner import CASSETTES, run_cases
from evals.suite import load_suite, score
from tests.agent import fakes
from tests.factories import seed_catalog

SUITES = Path(__file__).resolve().parents[2] / "evals" / "suites"


def _cases(*names: str):
    return [c for n in names for c in load_suite(SUITES / f"{n}.yaml")]


def test_there_are_at_least_60_cases_with_unique_ids():
    cases = [c for f in sorted(SUITES.glob("*.yaml")) for c in load_suite(f)]
    assert len(cases) >= 60
    assert len({c.key for c in cases}) == len(cases)


async def test_reference_suite_through_the_builtin_model(ctx):
    report = await run_cases(_cases("reference"), ctx, make_llm(ctx.settings), echo=None)
    assert [r.line() for r in report.results if r.status != "pass"] == []


async def test_reference_suite_replays_its_cassettes_offline(ctx):
    # the client points at a port nothing listens on: every answer comes from the cassettes
    llm = OpenAILLM(openai_client("http://127.0.0.1:9/v1", "sk-test"), "cardwise-builtin", attempts=1)
    report = await run_cases(_cases("reference"), ctx, llm, mode="replay", echo=None)
    assert [r.line() for r in report.results if r.status != "pass"] == []
    assert report.passed == len(report.results)


async def test_cassettes_hold_no_credentials():
    for path in CASSETTES.rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert "Bearer " not in text or "REDACTED" in text
        assert "sk-" not in text


async def test_replay_fails_on_an_unmatched_request(ctx, tmp_path):
    case = _cases("reference")[0]
    (tmp_path / case.cassette).parent.mkdir(parents=True)
    (tmp_path / case.cassette).write_text("interactions: []\nversion: 1\n")
    llm = OpenAILLM(openai_client("http://127.0.0.1:9/v1", "x"), "m", attempts=1)
    report = await run_cases([case], ctx, llm, mode="replay", cassettes=tmp_path, echo=None)
    assert report.failed == 1


async def test_replay_fails_without_a_cassette(ctx, tmp_path):
    llm = OpenAILLM(openai_client("http://127.0.0.1:9/v1", "x"), "m", attempts=1)
    report = await run_cases(_cases("reference")[:1], ctx, llm, mode="replay", cassettes=tmp_path, echo=None)
    assert report.failed == 1 and "no cassette" in report.results[0].reason


@pytest.mark.parametrize("suite", ["catalog", "market", "collections", "feedback"])
async def test_catalog_market_collection_suites_with_stand_in_tools(ctx, sessions, monkeypatch, suite):
    fakes.install(monkeypatch)
    await seed_catalog(sessions)
    report = await run_cases(_cases(suite), ctx, make_llm(ctx.settings), echo=None,
                             values={"collection": fakes.FAKE_COLLECTION})
    assert [r.line() + " :: " + r.answer for r in report.results if r.status != "pass"] == []


async def test_cases_are_skipped_when_their_tools_are_missing(ctx):
    from dataclasses import replace

    case = replace(_cases("reference")[0], calls=[{"name": "no_such_tool"}])
    report = await run_cases([case], ctx, make_llm(ctx.settings), echo=None)
    assert report.skipped == 1 and "no_such_tool" in report.results[0].reason
    assert report.summary_lines()[-1] == "0 passed, 0 failed"


def test_scoring_modes():
    case = _cases("reference")[2]  # psa-grade-scale, exact
    calls = [("grades_companies", "{}"), ("grades_types", '{"companyId": "x"}'),
             ("grades_grades", '{"companyId": "x", "typeId": "y"}')]
    assert score(case, calls, "10 Gem Mint ... 1 Poor", "answer").passed
    assert not score(case, calls[:2], "10 Gem Mint ... 1 Poor", "answer").passed
    assert not score(case, calls, "nothing", "answer").passed
    s = score(case, list(reversed(calls)), "10 Gem Mint 1 Poor", "answer")
    assert not s.tools_ok and s.precision == 1.0 and not s.right_tool

