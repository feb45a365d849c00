"""Run eval suites through the agent loop: the built-in model or an OpenAI-compatible server,
optionally recording the model HTTP traffic to vcrpy cassettes or replaying it offline.

Replay (``mode="replay"``) matches requests on method, path and body and fails a case whose
cassette is missing, has an unmatched request or leaves interactions unplayed.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.llm import LLMClient
from agent.loop import run_query
from evals.isolation import kept
from evals.suite import Case, Score, bind, score
from tools._registry import get_tool
from tools.context import ToolContext

CASSETTES = Path(__file__).with_name("cassettes")


@dataclass
class CaseResult:
    case: Case
    status: str                       # pass | fail | skip
    score: Score | None = None
    tools: list[str] = field(default_factory=list)
    iterations: int = 0
    latency_ms: float = 0.0
    answer: str = ""
    reason: str = ""
    verdict: str | None = None        # collector cases: right | wrong card | unhelpful

    def line(self) -> str:
        head = f"{self.status.upper():4} {self.case.key}"
        if self.status == "skip":
            return f"{head}  ({self.reason})"
        tail = f"  tools={self.tools} it={self.iterations} {self.latency_ms:.1f}ms"
        if self.verdict:
            head += f"  [{self.verdict}] {self.case.query!r}"
        line = head + tail + (f"  -- {self.reason}" if self.reason else "")
        if self.verdict and self.answer:
            line += "\n     answer: " + " ".join(self.answer.split())[:400]
        return line


def redact_request(request: Any) -> Any:
    """Credentials out; the offered tool schemas out too (they are not matched on, see ``_chat_body``)."""
    for h in list(request.headers):
        if h.lower() in ("authorization", "api-key", "x-api-key", "openai-organization", "cookie"):
            request.headers[h] = "REDACTED"
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, TypeError):
        return request
    if isinstance(data, dict) and "tools" in data:
        data["tools"] = f"({len(data['tools'])} tool schemas omitted)"
        request.body = json.dumps(data).encode()
    return request


def _chat_body(r1: Any, r2: Any) -> None:
    """Bodies match when equal apart from ``tools``: the conversation is what a cassette pins; the
    offered tool schemas grow as capabilities are added and do not invalidate a recording."""

    def norm(body: Any) -> Any:
        try:
            data = json.loads(body or b"{}")
        except ValueError:
            return body
        if isinstance(data, dict):
            data.pop("tools", None)
            data.pop("tool_choice", None)
        return data

    if norm(r1.body) != norm(r2.body):
        raise AssertionError("request bodies differ")


def _vcr(mode: str, directory: Path):
    try:
        import vcr
    except ImportError:  # pragma: no cover - vcrpy comes with the test extra
        raise SystemExit("--record/--replay need vcrpy: pip install -e '.[test]'") from None

    v = vcr.VCR(cassette_library_dir=str(directory), record_mode="all" if mode == "record" else "none",
                match_on=["method", "path", "chat_body"], filter_headers=[("authorization", "REDACTED")],
                before_record_request=redact_request, decode_compressed_response=True)
    v.register_matcher("chat_body", _chat_body)
    return v


def missing_tools(case: Case) -> list[str]:
    return sorted({c["name"] for c in case.calls if get_tool(c["name"]) is None})


async def run_case(case: Case, ctx: ToolContext, llm: LLMClient, *, mode: str | None = None,
                   cassettes: Path = CASSETTES, has: Callable[[str], bool] = lambda need: True,
                   values: dict[str, Any] | None = None, judging: Any = None) -> CaseResult:
    case = bind(case, values or {})
    if case.family:
        return await _run_collector(case, ctx, llm, has, judging)
    gaps = missing_tools(case)
    if gaps:
        return CaseResult(case, "skip", reason=f"needs tools not on this server: {', '.join(gaps)}")
    unmet = [n for n in case.needs if not has(n)]
    if unmet:
        return CaseResult(case, "skip", reason=f"needs {', '.join(unmet)}")
    path = cassettes / (case.cassette or f"{case.suite}/{case.id}.yaml")
    if mode == "replay" and not path.exists():
        return CaseResult(case, "fail", reason=f"no cassette {path}")
    recorder = _vcr(mode, cassettes).use_cassette(str(path.relative_to(cassettes))) if mode else nullcontext()
    start = time.perf_counter()
    try:
        with recorder as cassette:
            result = await run_query(ctx, case.query, llm, history=case.history, max_iterations=case.max_iterations,
                                     context=case.context or None)
            if mode == "replay" and not cassette.all_played:
                return CaseResult(case, "fail", reason="cassette has unplayed interactions (re-record it)")
    except Exception as exc:  # noqa: BLE001 - a broken case is a failure line, not a crash
        return CaseResult(case, "fail", latency_ms=(time.perf_counter() - start) * 1000,
                          reason=f"{type(exc).__name__}: {exc}"[:300])
    latency = (time.perf_counter() - start) * 1000
    s = score(case, result.tool_calls, result.answer, result.stop_reason)
    return CaseResult(case, "pass" if s.passed else "fail", s, result.tools_used, result.iterations, latency,
                      result.answer, "; ".join(s.reasons))


async def _run_collector(case: Case, ctx: ToolContext, llm: LLMClient, has: Callable[[str], bool],
                         judging: Any) -> CaseResult:
    """A collector case: the expectation is computed from the catalog first, then the answer is judged."""
    from evals.judge import UNHELPFUL

    unmet = [n for n in case.needs if not has(n)]
    if unmet or judging is None:
        return CaseResult(case, "skip", reason=f"needs {', '.join(unmet) or 'a judge'}")
    # a case that may write leaves the key's want list and collection as it found them, set-up included
    writes: AbstractAsyncContextManager[Any] = (kept(judging.env.sessions, ctx.caller.key_id)
                                                if (case.context or {}).get("allowWrites") else nullcontext())
    async with writes:
        try:
            expect = await judging.expect(case)
        except (LookupError, KeyError, ValueError) as exc:
            return CaseResult(case, "fail", verdict="broken case", reason=f"expectation: {exc}"[:300])
        start = time.perf_counter()
        try:
            result = await run_query(ctx, case.query, llm, history=case.history, max_iterations=case.max_iterations,
                                     context=case.context or None)
        except Exception as exc:  # noqa: BLE001 - a crash is an unhelpful answer, reported with its cause
            return CaseResult(case, "fail", latency_ms=(time.perf_counter() - start) * 1000, verdict=UNHELPFUL,
                              reason=f"{type(exc).__name__}: {exc}"[:300])
        latency = (time.perf_counter() - start) * 1000
        v = await judging.judge(case, expect, result.answer, result.tools_used)
    return CaseResult(case, "pass" if v.right else "fail", None, result.tools_used, result.iterations, latency,
                      result.answer, "; ".join(v.reasons), v.verdict)


@dataclass
class Report:
    results: list[CaseResult]

    @property
    def ran(self) -> list[CaseResult]:
        return [r for r in self.results if r.status != "skip" and r.score is not None]

    @property
    def passed(self) -> int:
        return sum(r.status == "pass" for r in self.results)

    @property
    def failed(self) -> int:
        return sum(r.status == "fail" for r in self.results)

    @property
    def skipped(self) -> int:
        return sum(r.status == "skip" for r in self.results)

    def metrics(self) -> dict[str, float]:
        ran = self.ran
        if not ran:
            return {}
        p = statistics.fmean(r.score.precision for r in ran)
        rc = statistics.fmean(r.score.recall for r in ran)
        lat = sorted(r.latency_ms for r in ran)
        exp = sum(r.score.args_expected for r in ran)
        return {
            "tool_call_f1": 2 * p * rc / (p + rc) if p + rc else 0.0,
            "right_tool": statistics.fmean(r.score.right_tool for r in ran),
            "argument_accuracy": (sum(r.score.args_matched for r in ran) / exp) if exp else 1.0,
            "answer_pass_rate": statistics.fmean(r.score.answer_ok for r in ran),
            "iterations_mean": statistics.fmean(r.iterations for r in ran),
            "latency_p50_ms": lat[len(lat) // 2],
            "latency_p95_ms": lat[min(len(lat) - 1, int(round(0.95 * (len(lat) - 1))))],
        }

    def collector_table(self) -> list[str]:
        """Right / wrong card / unhelpful per part, per family and per kind (collector cases)."""
        rows = [r for r in self.results if r.verdict]
        if not rows:
            return []
        lines = []
        for part in sorted({r.case.part or r.case.suite for r in rows}):
            mine = [r for r in rows if (r.case.part or r.case.suite) == part]
            lines.append(_tally_line(f"part {part}", mine))
            for label, key in (("family", lambda r: r.case.family), ("kind", lambda r: r.case.kind)):
                for name in sorted({key(r) for r in mine}):
                    lines.append(_tally_line(f"  {label} {name}", [r for r in mine if key(r) == name]))
        return lines

    def summary_lines(self) -> list[str]:
        m = self.metrics()
        lines = self.collector_table()
        if m:
            lines.append(f"tool-call F1 {m['tool_call_f1']:.3f}  right tool {m['right_tool']:.1%}  "
                         f"argument accuracy {m['argument_accuracy']:.1%}  answer pass rate {m['answer_pass_rate']:.1%}")
            lines.append(f"iterations mean {m['iterations_mean']:.2f}  latency p50 {m['latency_p50_ms']:.1f} ms  "
                         f"p95 {m['latency_p95_ms']:.1f} ms")
        if self.skipped:
            lines.append(f"{self.skipped} skipped")
        lines.append(f"{self.passed} passed, {self.failed} failed")
        return lines


def _tally_line(label: str, rows: list[CaseResult]) -> str:
    n = len(rows)
    right = sum(r.verdict == "right" for r in rows)
    wrong = sum(r.verdict == "wrong card" for r in rows)
    other = n - right - wrong
    lat = sorted(r.latency_ms for r in rows)
    return (f"{label:<28} {right:>3}/{n:<3} right {right / n:6.1%}  wrong card {wrong:>3}  unhelpful {other:>3}"
            f"  p50 {lat[len(lat) // 2]:.0f} ms")


async def run_cases(cases: Iterable[Case], ctx: ToolContext, llm: LLMClient, *, mode: str | None = None,
                    cassettes: Path = CASSETTES, has: Callable[[str], bool] = lambda need: True,
                    values: dict[str, Any] | None = None, echo: Callable[[str], None] | None = print,
                    judging: Any = None) -> Report:
    """Run ``cases`` in order; ``values`` fills placeholders such as ``$collection``; ``judging``
    (``evals.collector.Judging``) computes and judges collector cases."""
    results = []
    for case in cases:
        r = await run_case(case, ctx, llm, mode=mode, cassettes=cassettes, has=has, values=values, judging=judging)
        results.append(r)
        if echo:
            echo(r.line())
    report = Report(results)
    if echo:
        for line in report.summary_lines():
            echo(line)
    return report
