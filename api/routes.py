"""The route table: every registered tool with an HTTP binding, plus the few raw routes."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from aiohttp import web
from sqlalchemy import text

from api.adapter import as_handler
from api.keys import CONTEXT
from api.metrics import metrics_handler
from api.middleware import PUBLIC_ATTR
from tools._registry import Tool, all_tools


@dataclass(frozen=True)
class RawRoute:
    """A route that is not a tool (health, docs); described here for the OpenAPI document."""

    method: str
    path: str
    handler: Any
    summary: str
    public: bool = False
    response: dict[str, Any] | None = None
    tags: tuple[str, ...] = ("service",)
    content_type: str = "application/json"
    in_openapi: bool = True
    request: dict[str, Any] | None = None          # JSON request body schema
    error_statuses: tuple[int, ...] = ()           # documented error statuses beyond the defaults


def public(handler):
    setattr(handler, PUBLIC_ATTR, True)
    return handler


@public
async def health(request: web.Request) -> web.Response:
    ctx = request.app[CONTEXT]
    db = "ok"
    try:
        async with ctx.sessions() as s:
            await s.execute(text("SELECT 1"))
    except Exception:  # noqa: BLE001 - health reports, it does not fail
        db = "unavailable"
    status = "ok" if db == "ok" else "degraded"
    return web.json_response({"status": status, "timestamp": datetime.now(timezone.utc).isoformat(), "database": db},
                             status=200 if db == "ok" else 503)


async def health_auth(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok", "timestamp": datetime.now(timezone.utc).isoformat()})


@public
async def openapi_json(request: web.Request) -> web.Response:
    from api.openapi import build_openapi

    return web.json_response(build_openapi(request.app))


DOCS_HTML = Path(__file__).with_name("docs.html")


@public
async def docs(request: web.Request) -> web.Response:
    return web.Response(text=DOCS_HTML.read_text(encoding="utf-8"), content_type="text/html")


STATIC_DIR = Path(__file__).with_name("static")
# the console loads only its own files; nothing inline, nothing from another origin
_CONSOLE_HEADERS = {
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; object-src 'none'; "
                               "base-uri 'none'; frame-ancestors 'none'",
}


@public
async def console(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC_DIR / "index.html", headers=_CONSOLE_HEADERS)


@public
async def static_file(request: web.Request) -> web.StreamResponse:
    root = STATIC_DIR.resolve()
    name = request.match_info["path"]
    if not name.isprintable():  # a NUL (``index.html%00.js``) or control character names no file
        raise web.HTTPNotFound()
    try:
        path = (root / name).resolve()
        found = path.is_relative_to(root) and path.is_file()
    except (OSError, ValueError):  # a name the file system cannot take (too long, not encodable)
        found = False
    if not found:
        raise web.HTTPNotFound()
    return web.FileResponse(path, headers=_CONSOLE_HEADERS)


_HEALTH_SCHEMA = {"type": "object", "required": ["status", "timestamp"],
                  "properties": {"status": {"type": "string"}, "timestamp": {"type": "string"}}}

RAW_ROUTES: list[RawRoute] = [
    RawRoute("GET", "/health", health, "Liveness check (no key required)", public=True, response=_HEALTH_SCHEMA),
    RawRoute("GET", "/health/auth", health_auth, "Validate the API key", response=_HEALTH_SCHEMA),
    RawRoute("GET", "/openapi.json", openapi_json, "This OpenAPI document", public=True, in_openapi=False),
    RawRoute("GET", "/docs", docs, "Browsable API docs", public=True, in_openapi=False),
    RawRoute("GET", "/metrics", public(metrics_handler), "Prometheus metrics (text exposition format)",
             public=True, response={"type": "string"}, content_type="text/plain"),
    RawRoute("GET", "/", console, "The web console", public=True, in_openapi=False),
    RawRoute("GET", "/static/{path:.+}", static_file, "The web console's files", public=True, in_openapi=False),
]

EXTRA_RAW_ROUTES: list[RawRoute] = []  # other packages' raw routes (e.g. the agent's) are added by the app


def _agent_routes() -> list[RawRoute]:
    from api.agent_routes import raw_routes

    return raw_routes()


EXTRA_RAW_ROUTES.extend(_agent_routes())  # POST /v1/ai/query


def _sort_key(path: str) -> tuple:
    return tuple(1 if seg.startswith("{") else 0 for seg in path.strip("/").split("/")), path


def tool_routes() -> list[Tool]:
    return [t for t in all_tools() if t.method and t.path]


def setup_routes(app: web.Application, raw: list[RawRoute]) -> None:
    by_path: dict[str, list[tuple[str, Any]]] = defaultdict(list)
    for r in raw:
        by_path[r.path].append((r.method, r.handler))
    for t in tool_routes():
        by_path[t.path].append((t.method, as_handler(t)))
    def add(resource, routes: list[tuple[str, Any]]) -> None:
        for method, handler in routes:
            resource.add_route(method, handler)
            if method == "GET":  # HEAD answers as GET would, without the body
                resource.add_route("HEAD", handler)

    for path in sorted(by_path, key=_sort_key):
        add(app.router.add_resource(path), by_path[path])
        alt = path[:-1] if path.endswith("/") and len(path) > 1 else path + "/"
        if alt not in by_path and path != "/" and not path.endswith("+}"):
            add(app.router.add_resource(alt), by_path[path])
