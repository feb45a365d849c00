"""GET /metrics speaks Prometheus; every request leaves one JSON log line with id, key id, route, status, time."""

from __future__ import annotations

import json
import logging

from prometheus_client.parser import text_string_to_metric_families

import metrics
from api.logs import JsonFormatter


def _samples(text: str) -> dict[tuple[str, frozenset], float]:
    out = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out[(s.name, frozenset(s.labels.items()))] = s.value
    return out


async def _scrape(client) -> dict[tuple[str, frozenset], float]:
    resp = await client.get("/metrics")
    assert resp.status == 200
    assert resp.content_type == "text/plain"
    return _samples(await resp.text())


def _get(samples, name: str, **labels) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_metrics_count_requests_per_route_template_and_status(client, auth):
    before = await _scrape(client)
    for _ in range(2):
        assert (await client.get("/v1/grades/companies", headers=auth)).status == 200
    assert (await client.get("/v1/grades/companies")).status == 401
    resp = await client.get("/v1/grades/companies/nope/types", headers=auth)
    assert resp.status in (400, 404)
    after = await _scrape(client)

    ok = {"method": "GET", "route": "/v1/grades/companies", "status": "200"}
    assert _get(after, "cardwise_http_requests_total", **ok) - _get(before, "cardwise_http_requests_total", **ok) == 2
    denied = {**ok, "status": "401"}
    assert _get(after, "cardwise_http_requests_total", **denied) - _get(before, "cardwise_http_requests_total", **denied) == 1
    # the template, never the raw path (bounded label values)
    templ = {"method": "GET", "route": "/v1/grades/companies/{companyId}/types", "status": str(resp.status)}
    assert _get(after, "cardwise_http_requests_total", **templ) >= 1
    assert not any("nope" in str(labels) for _, labels in after)
    assert _get(after, "cardwise_http_request_duration_seconds_count", **ok) >= 2


async def test_unknown_paths_share_one_label(client, auth):
    await client.get("/v1/no-such-thing-123", headers=auth)
    after = await _scrape(client)
    assert _get(after, "cardwise_http_requests_total", method="GET", route="unmatched", status="404") >= 1
    assert not any("no-such-thing" in str(labels) for _, labels in after)


async def test_metrics_count_tool_calls_by_outcome(client, auth):
    before = await _scrape(client)
    await client.get("/v1/grades/companies", headers=auth)
    after = await _scrape(client)
    key = {"tool": "grades_companies", "outcome": "ok"}
    assert _get(after, "cardwise_tool_calls_total", **key) - _get(before, "cardwise_tool_calls_total", **key) == 1
    assert _get(after, "cardwise_tool_duration_seconds_count", tool="grades_companies") >= 1


async def test_agent_path_is_counted_too_and_errors_carry_their_code(ctx):
    from tools._registry import invoke
    from tools.errors import ServiceError

    key = {"tool": "grades_types", "outcome": "VALIDATION_ERROR"}
    before = metrics.TOOL_CALLS.labels(**key)._value.get()
    await invoke("grades_companies", {}, ctx)
    try:
        await invoke("grades_types", {"companyId": "not-a-uuid"}, ctx)
    except ServiceError:
        pass
    # validation happens before the call, so a bad argument is not a tool call
    assert metrics.TOOL_CALLS.labels(**key)._value.get() == before
    ok = metrics.TOOL_CALLS.labels(tool="grades_companies", outcome="ok")._value.get()
    assert ok >= 1


async def test_agent_and_identification_metrics_are_exposed(client):
    metrics.AGENT_ITERATIONS.observe(3)
    metrics.AGENT_QUESTIONS.labels(outcome="answered").inc()
    with metrics.timed(metrics.IDENTIFY_SECONDS, stage="identify"):
        pass
    after = await _scrape(client)
    assert _get(after, "cardwise_agent_iterations_count") >= 1
    assert _get(after, "cardwise_agent_questions_total", outcome="answered") >= 1
    assert _get(after, "cardwise_identify_duration_seconds_count", stage="identify") >= 1


async def test_database_pool_use_is_exposed(client, auth):
    await client.get("/v1/grades/companies", headers=auth)
    after = await _scrape(client)
    states = {dict(labels)["state"] for name, labels in after if name == "cardwise_db_pool_connections"}
    assert {"size", "checked_out", "checked_in"} <= states
    assert _get(after, "cardwise_db_pool_connections", state="checked_out") == 0  # nothing leaked
    assert _get(after, "cardwise_http_requests_in_flight") >= 1  # the scrape itself


async def test_metrics_module_does_not_need_aiohttp():
    import ast
    from pathlib import Path

    tree = ast.parse(Path(metrics.__file__).read_text())
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    assert not [n for n in names if n.startswith("aiohttp")]


async def test_request_log_line_has_id_key_id_route_status_duration_and_never_the_key(client, auth, api_key, caplog):
    caplog.set_level(logging.INFO, logger="cardwise.api")
    resp = await client.get("/v1/grades/companies", headers={**auth, "X-Request-Id": "trace-42"})
    assert resp.status == 200
    lines = [JsonFormatter().format(r) for r in caplog.records if r.getMessage() == "request"]
    assert lines
    entry = json.loads(lines[-1])
    assert entry["request_id"] == "trace-42"
    assert entry["key_id"] == str(api_key[0])
    assert entry["route"] == "/v1/grades/companies"
    assert entry["status"] == 200 and entry["method"] == "GET"
    assert isinstance(entry["duration_ms"], float) and entry["duration_ms"] >= 0
    assert all(api_key[1] not in line for line in lines)


async def test_log_of_a_refused_key_has_no_key_id_and_no_secret(client, caplog):
    caplog.set_level(logging.INFO, logger="cardwise.api")
    secret = "cw_live_this-is-not-a-real-key-1234567890"
    resp = await client.get("/v1/grades/companies", headers={"X-API-Key": secret})
    assert resp.status == 401
    lines = [JsonFormatter().format(r) for r in caplog.records]
    entry = json.loads([ln for ln in lines if '"msg": "request"' in ln][-1])
    assert entry["status"] == 401 and entry["key_id"] is None and entry["request_id"]
    assert all(secret not in ln for ln in lines)


async def test_an_agent_question_counts_iterations_questions_and_its_tool_calls(client, auth):
    before = await _scrape(client)
    resp = await client.post("/v1/ai/query", json={"query": "What grading companies are there?"}, headers=auth)
    assert resp.status == 200
    after = await _scrape(client)
    delta = _get(after, "cardwise_agent_questions_total", outcome="answer") - _get(
        before, "cardwise_agent_questions_total", outcome="answer")
    assert delta == 1
    assert _get(after, "cardwise_agent_iterations_count") - _get(before, "cardwise_agent_iterations_count") == 1
    tool = {"tool": "grades_companies", "outcome": "ok"}
    assert _get(after, "cardwise_tool_calls_total", **tool) - _get(before, "cardwise_tool_calls_total", **tool) >= 1
