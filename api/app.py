"""The app factory: ``create_app(settings)`` wires the engine, tool context, middlewares and routes."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web

from api.keys import CONTEXT, ENGINE, RESPONSE_CACHE, SETTINGS
from api.middleware import (
    AUTH_FAILURES,
    KEY_CACHE,
    REDIS,
    KeyCache,
    auth,
    errors,
    request_context,
    request_timeout,
    server_header,
)
from api import protocol_errors
from api.ratelimit import Limiter, rate_limit_middleware, redis_client
from api.response_cache import ResponseCache
from api.routes import EXTRA_RAW_ROUTES, RAW_ROUTES, setup_routes
from store.db import create_engine, sessionmaker
from store.queries import catalog_version
from tools.context import ToolContext
from tools.settings import Settings

log = logging.getLogger("cardwise.api")


def middlewares(settings: Settings, redis: Any = None) -> list:
    """Outermost first: request id/log/metrics, errors as JSON, overall timeout, auth, per-key rate limit."""
    out = [request_context, errors]
    if settings.request_timeout_s > 0:
        out.append(request_timeout(settings.request_timeout_s))
    out.append(auth)
    if settings.rate_limit_per_min > 0:
        out.append(rate_limit_middleware(Limiter(settings.rate_limit_per_min, settings.rate_limit_burst,
                                                 redis=redis, name="rate")))
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

    async def read_catalog_version() -> int:
        async with sessions() as s:
            return await catalog_version.current(session=s)

    app[RESPONSE_CACHE].watch(read_catalog_version, settings.catalog_version_check_s)
    app[CONTEXT] = ToolContext(sessions=sessions, settings=settings,
                               services={KEY_CACHE: KeyCache(settings.auth_cache_s),
                                         AUTH_FAILURES: Limiter(settings.auth_fail_per_min, settings.auth_fail_burst,
                                                                redis=redis, name="authfail")
                                         if settings.auth_fail_per_min > 0 else None,
                                         REDIS: redis})

    async def dispose_engine(app: web.Application) -> AsyncIterator[None]:
        yield
        await app[ENGINE].dispose()
        log.info("database pool closed")

    async def close_services(app: web.Application) -> None:
        for service in list(app[CONTEXT].services.values()):
            if service is not None and hasattr(service, "aclose"):
                await service.aclose()

    app.on_response_prepare.append(server_header)
    app.cleanup_ctx.append(dispose_engine)
    app.on_cleanup.append(close_services)
    setup_routes(app, RAW_ROUTES + EXTRA_RAW_ROUTES)
    return app
