"""The app factory: ``create_app(settings)`` wires the engine, tool context, middlewares and routes."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web

from api.key_cache import KeyCache
from api.keys import CONTEXT, ENGINE, RESPONSE_CACHE, SETTINGS
from api.middleware import (
    AUTH_FAILURES,
    KEY_CACHE,
    REDIS,
    authorize,
    handle_errors,
    request_context,
    server_header,
)
from api import protocol_errors
from api import mcp_http
from api.mcp_http import setup_mcp
from api.ratelimit import Limiter, redis_client
from api.response_cache import ResponseCache
from api import agent_routes, openapi, routes
from api.agent_routes import LLM, LLMSlot, close_llm
from api.route_table import ROUTE_TABLE, RouteTable, tool_routes
from api.stalls import stall_log
from api.usage import flush_usage
from config import Settings
from tools.context import ToolContext
from tools._search import served_fingerprint, served_now
from tools.storage import create_engine, sessionmaker
from tools.usage import UsageCounter

log = logging.getLogger("cardwise.api")


def middlewares(settings: Settings, redis: Any = None) -> list:
    """Outermost first: request id/log/metrics, errors as JSON with the overall timeout, auth with the per-key
    rate limit and the usage count."""
    out = [request_context, handle_errors(settings.request_timeout_s)]
    limiter = (Limiter(settings.rate_limit_per_min, settings.rate_limit_burst, redis=redis, name="rate")
               if settings.rate_limit_per_min > 0 else None)
    out.append(authorize(limiter))
    return out


def create_app(settings: Settings | None = None) -> web.Application:
    from api.settings import load_settings

    settings = settings or load_settings()
    protocol_errors.install()
    # limits shared by every process and node when a Redis is configured (api/ratelimit.py)
    redis = redis_client(settings.redis_url) if settings.redis_url else None
    app = web.Application(
        middlewares=middlewares(settings, redis),
        client_max_size=settings.max_upload_bytes + 256 * 1024,
        # after refusing a body (413) aiohttp drains the rest so the client can read the answer; bound
        # that to 2 s (default 10) so a slow flood cannot hold the worker
        handler_args={"lingering_time": 2.0,
                      # compressed bodies are inflated by the adapter, up to the limit (api/adapter.py)
                      "auto_decompress": False},
    )
    app[SETTINGS] = settings
    engine = create_engine(settings.database_url, pool_size=settings.db_pool_size,
                           connect_timeout=settings.db_timeout_s, command_timeout=settings.db_command_timeout_s)
    app[ENGINE] = engine
    sessions = sessionmaker(engine)
    app[RESPONSE_CACHE] = ResponseCache(settings.catalog_cache_s, settings.catalog_cache_entries,
                                        settings.catalog_cache_mb << 20)

    app[CONTEXT] = ctx = ToolContext(sessions=sessions, settings=settings, usage=UsageCounter())
    # one read of the catalog version for the cache and the search index (it paces itself): an answer is
    # never cached under a version newer than the index it was computed from
    app[RESPONSE_CACHE].watch(lambda: served_fingerprint(ctx), 0, lambda: served_now(ctx))
    app[KEY_CACHE] = KeyCache(settings.auth_cache_s)
    if settings.auth_fail_per_min > 0:
        app[AUTH_FAILURES] = Limiter(settings.auth_fail_per_min, settings.auth_fail_burst, redis=redis, name="authfail")
    app[REDIS] = redis
    app[LLM] = LLMSlot(settings)

    async def dispose_engine(app: web.Application) -> AsyncIterator[None]:
        yield
        await app[ENGINE].dispose()
        log.info("database pool closed")

    async def close_redis(app: web.Application) -> None:
        if app[REDIS] is not None:
            await app[REDIS].aclose()

    async def stop_refreshes(app: web.Application) -> None:
        await app[RESPONSE_CACHE].close()

    app.on_response_prepare.append(server_header)
    app.on_shutdown.append(stop_refreshes)
    app.on_cleanup.append(close_redis)
    app.cleanup_ctx.append(dispose_engine)
    app.cleanup_ctx.append(flush_usage)  # after dispose_engine, so its last flush runs before the pool closes
    app.cleanup_ctx.append(close_llm)
    app.cleanup_ctx.append(stall_log)
    app[ROUTE_TABLE] = table = route_table()
    app[openapi.DOCUMENT] = {}
    routes.setup_routes(app, table)
    setup_mcp(app)  # POST /mcp: the same tools over the Model Context Protocol
    return app


def route_table() -> RouteTable:
    """Every route the app serves: the raw routes (health, metrics, console, docs, the agent) and the tools."""
    return RouteTable(raw=routes.RAW_ROUTES + openapi.RAW_ROUTES + agent_routes.raw_routes() + mcp_http.raw_routes(),
                      tools=tool_routes())
