"""``GET /metrics``: the Prometheus text exposition of ``metrics`` and the process collectors.

With ``cardwise serve --workers N`` every worker writes its samples to files in
``PROMETHEUS_MULTIPROC_DIR`` (set by the command before the workers start) and a scrape, whichever
worker answers it, sums them all (prometheus_client's multiprocess mode).
"""

from __future__ import annotations

import os

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess

import metrics
from api.keys import ENGINE


def registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        merged = CollectorRegistry()
        multiprocess.MultiProcessCollector(merged)
        return merged
    return REGISTRY


async def metrics_handler(request: web.Request) -> web.Response:
    engine = request.app.get(ENGINE)
    if engine is not None:
        metrics.record_pool(engine.sync_engine.pool)
    body = generate_latest(registry())
    resp = web.Response(body=body)
    resp.headers["Content-Type"] = CONTENT_TYPE_LATEST
    return resp
