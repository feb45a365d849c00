"""Prometheus metrics that api, agent and tools record into; ``api/metrics.py`` serves them.

Its own module below every layer (it imports nothing of Cardwise) so that each records where the
work happens; ``GET /metrics`` exposes the default ``prometheus_client`` registry (which also
carries process RSS, CPU and open file descriptors):

    import metrics
    metrics.AGENT_ITERATIONS.observe(n)                       # agent: model round-trips per question
    with metrics.timed(metrics.IDENTIFY_SECONDS, stage="identify"):
        ...                                                    # identification work

Tool calls are counted by the registry (``Tool.__call__``, REST and agent alike). Label values are
bounded (route templates, tool names, outcomes), never ids or keys.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

HTTP_REQUESTS = Counter(
    "cardwise_http_requests", "HTTP requests by method, route template and status",
    ["method", "route", "status"],
)
HTTP_LATENCY = Histogram(
    "cardwise_http_request_duration_seconds", "HTTP request latency by method, route template and status",
    ["method", "route", "status"], buckets=_LATENCY_BUCKETS,
)
# gauges sum over live worker processes in multiprocess mode (``cardwise serve --workers N``)
HTTP_IN_FLIGHT = Gauge("cardwise_http_requests_in_flight", "HTTP requests being handled now",
                       multiprocess_mode="livesum")
RATE_LIMITED = Counter("cardwise_rate_limited", "Requests refused with 429 by the per-key rate limit")

TOOL_CALLS = Counter("cardwise_tool_calls", "Tool calls by tool and outcome (ok or the error code)",
                     ["tool", "outcome"])
TOOL_LATENCY = Histogram("cardwise_tool_duration_seconds", "Tool call latency by tool", ["tool"],
                         buckets=_LATENCY_BUCKETS)

AGENT_ITERATIONS = Histogram("cardwise_agent_iterations", "Model round-trips per agent question",
                             buckets=(1, 2, 3, 4, 5, 6, 8, 10, 15, 20))
AGENT_QUESTIONS = Counter("cardwise_agent_questions", "Agent questions by outcome", ["outcome"])
IDENTIFY_SECONDS = Histogram("cardwise_identify_duration_seconds", "Identification work by stage",
                             ["stage"], buckets=_LATENCY_BUCKETS)

RESPONSE_CACHE = Counter("cardwise_response_cache", "Cached catalog reads: hit, miss, joined (waited for an identical request computing it) or refresh (a hit that started its background recomputation)", ["result"])

DB_POOL = Gauge("cardwise_db_pool_connections", "Database pool connections by state "
                "(size, checked_out, checked_in, overflow)", ["state"], multiprocess_mode="livesum")


_CHILDREN: dict[tuple[int, tuple[tuple[str, str], ...]], Any] = {}  # (metric, labels) -> its series
_CHILDREN_MAX = 4096  # some label values come from clients (HTTP methods): the memo stays bounded


def series_of(metric: Any, names: tuple[str, ...], values: tuple[str, ...]) -> Any:
    """``series(metric, **dict(zip(names, values)))`` with no keyword dictionary built: for the per-request hot
    paths (the request's count and latency, each tool call's)."""
    key = (id(metric), values)
    got = _BY_VALUES.get(key)
    if got is None:
        got = series(metric, **dict(zip(names, values)))
        if len(_BY_VALUES) < _CHILDREN_MAX:
            _BY_VALUES[key] = got
    return got


_BY_VALUES: dict[tuple[int, tuple[str, ...]], Any] = {}


def series(metric: Any, **labels: str) -> Any:
    """``metric.labels(**labels)``, looked up once per label set (``labels()`` locks and builds a key per call:
    too dear for every request and tool call)."""
    key = (id(metric), tuple(labels.items()))
    got = _CHILDREN.get(key)
    if got is None:
        got = metric.labels(**labels)
        if len(_CHILDREN) < _CHILDREN_MAX:
            _CHILDREN[key] = got
    return got


@contextmanager
def timed(histogram: Histogram, **labels: str) -> Iterator[None]:
    """Observe the wall time of the block into ``histogram`` (with ``labels`` if it has any)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        h = series(histogram, **labels) if labels else histogram
        h.observe(time.perf_counter() - start)


def record_pool(pool: Any) -> None:
    """Set the pool gauges from a SQLAlchemy pool (QueuePool-like; others are skipped quietly)."""
    for state, attr in (("size", "size"), ("checked_out", "checkedout"), ("checked_in", "checkedin"),
                        ("overflow", "overflow")):
        fn = getattr(pool, attr, None)
        if callable(fn):
            try:
                DB_POOL.labels(state=state).set(max(0, int(fn())))
            except Exception:  # noqa: BLE001 - a gauge must never break a scrape
                pass
