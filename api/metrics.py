"""``GET /metrics``: the Prometheus text exposition of ``tools.metrics`` and the process collectors."""

from __future__ import annotations

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from api.keys import ENGINE
from tools import metrics


async def metrics_handler(request: web.Request) -> web.Response:
    engine = request.app.get(ENGINE)
    if engine is not None:
        metrics.record_pool(engine.sync_engine.pool)
    body = generate_latest(REGISTRY)
    resp = web.Response(body=body)
    resp.headers["Content-Type"] = CONTENT_TYPE_LATEST
    return resp
