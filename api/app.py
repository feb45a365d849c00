"""The app factory: ``create_app(settings)`` wires the engine, tool context, middlewares and routes."""

from __future__ import annotations

from collections.abc import AsyncIterator

from aiohttp import web

from api.keys import CONTEXT, ENGINE, SETTINGS
from api.middleware import auth, errors, request_context
from api.routes import EXTRA_RAW_ROUTES, RAW_ROUTES, setup_routes
from store.db import create_engine, sessionmaker
from tools.context import ToolContext
from tools.settings import Settings


def create_app(settings: Settings | None = None) -> web.Application:
    from api.settings import load_settings

    settings = settings or load_settings()
    app = web.Application(
        middlewares=[request_context, errors, auth],
        client_max_size=settings.max_upload_bytes + 256 * 1024,
    )
    app[SETTINGS] = settings
    engine = create_engine(settings.database_url, pool_size=settings.db_pool_size, connect_timeout=settings.db_timeout_s)
    app[ENGINE] = engine
    app[CONTEXT] = ToolContext(sessions=sessionmaker(engine), settings=settings)

    async def dispose_engine(app: web.Application) -> AsyncIterator[None]:
        yield
        await app[ENGINE].dispose()

    async def close_services(app: web.Application) -> None:
        for service in list(app[CONTEXT].services.values()):
            if hasattr(service, "aclose"):
                await service.aclose()

    app.cleanup_ctx.append(dispose_engine)
    app.on_cleanup.append(close_services)
    setup_routes(app, RAW_ROUTES + EXTRA_RAW_ROUTES)
    return app
