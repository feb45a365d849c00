"""The collector parts run through the built-in agent on the real catalog, each held to its suite's
``min_pass`` and ``trap_wrong_card_max`` (shared by the two test files that split the parts)."""

from __future__ import annotations

import time
from pathlib import Path

from evals.judge import RIGHT, WRONG_CARD
from evals.suite import load_suite, suite_settings

SUITES = Path(__file__).resolve().parents[2] / "evals" / "suites"
PARTS = {"tuning": SUITES / "collector-tuning.yaml", "dev": SUITES / "collector-dev.yaml",
         "dev2": SUITES / "collector-dev2.yaml", "dev3": SUITES / "collector-dev3.yaml",
         "dev4": SUITES / "collector-dev4.yaml", "dev5": SUITES / "collector-dev5.yaml",
         "dev6": SUITES / "collector-dev6.yaml", "dev7": SUITES / "collector-dev7.yaml",
         "dev8": SUITES / "collector-dev8.yaml", "dev9": SUITES / "collector-dev9.yaml",
         "held-out": SUITES / "collector-heldout.yaml", "fresh": SUITES / "collector-fresh.yaml"}
TUNED = ["tuning", "dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8"]  # the agent was tuned on these
UNSEEN = [part for part in PARTS if part not in TUNED]  # never tuned on: dev9, held-out, fresh
# the parts split in two halves of about the same size, one a test file, so two test processes share them
EARLY = ["tuning", "dev", "dev2", "dev3", "dev4", "dev5"]
LATER = [part for part in PARTS if part not in EARLY]


async def run_parts(parts: list[str], real_fixture, tmp_path: Path, capsys) -> None:
    """Answer every question of these parts on a working copy of the real catalog; print each part's
    table as it ends and fail on the first part under its floor."""
    from agent.llm import make_llm
    from config import Settings
    from evals.collector import check_expectations, real_catalog
    from evals.runner import run_cases

    fixture, built = real_fixture
    lines: list[str] = [built]
    async with real_catalog(fixture, tmp_path, Settings(), echo=lines.append) as (ctx, values, judging):
        for part in parts:
            path = PARTS[part]
            cases = load_suite(path)
            assert await check_expectations(cases, judging) == []
            t = time.perf_counter()
            report = await run_cases(cases, ctx, make_llm(ctx.settings), values=values, judging=judging, echo=None,
                                     has=lambda need: need == "real")
            lines += report.collector_table() + [f"{len(cases)} questions in {time.perf_counter() - t:.1f} s"]
            settings = suite_settings(path)
            ran = [r for r in report.results if r.verdict]
            right = sum(r.verdict == RIGHT for r in ran) / len(ran)
            traps_wrong = sum(r.verdict == WRONG_CARD for r in ran if r.case.kind == "trap")
            with capsys.disabled():
                print("\n" + "\n".join(lines))
            lines.clear()
            assert len(ran) == len(cases), f"{part}: {len(cases) - len(ran)} cases did not run"
            assert right >= (settings.min_pass or 0.0), f"{part}: {right:.1%} right < min_pass {settings.min_pass}"
            if settings.trap_wrong_card_max is not None:
                assert traps_wrong <= settings.trap_wrong_card_max, f"{part}: {traps_wrong} wrong cards on traps"
