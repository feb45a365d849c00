"""The raw routes (health, metrics, the console) and ``setup_routes``, which mounts a route table."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from aiohttp import web
from sqlalchemy import text

from api.adapter import as_handler
from api.keys import CONTEXT
from api.metrics import metrics_handler
from api.route_table import RawRoute, RouteTable, public, tool_routes

__all__ = ["RAW_ROUTES", "RawRoute", "STATIC_DIR", "public", "setup_routes", "tool_routes"]


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
                  "properties": {"status": {"type": "string", "description": "ok, or degraded when the database "
                                                                            "does not answer"},
                                 "timestamp": {"type": "string", "format": "date-time"},
                                 "database": {"type": "string", "description": "ok or unavailable"}}}

RAW_ROUTES: list[RawRoute] = [
    RawRoute("GET", "/health", health, "Liveness check (no key required)", public=True, response=_HEALTH_SCHEMA,
             description="Answers 200 with status ok when the service and its database answer, 503 with status "
                         "degraded when the database does not. Needs no API key."),
    RawRoute("GET", "/health/auth", health_auth, "Validate the API key", response=_HEALTH_SCHEMA,
             description="Answers 200 when the API key sent is valid and not revoked, 401 otherwise."),
    RawRoute("GET", "/metrics", public(metrics_handler), "Prometheus metrics (text exposition format)",
             public=True, response={"type": "string"}, content_type="text/plain",
             description="Request counts and latencies by route and status, tool calls, agent rounds, cache hits, "
                         "database pool and process figures, for a Prometheus scraper. Needs no API key."),
    RawRoute("GET", "/", console, "The web console", public=True, in_openapi=False),
    RawRoute("GET", "/static/{path:.+}", static_file, "The web console's files", public=True, in_openapi=False),
]

def _sort_key(path: str) -> tuple:
    return tuple(1 if seg.startswith("{") else 0 for seg in path.strip("/").split("/")), path


def setup_routes(app: web.Application, table: RouteTable) -> None:
    by_path: dict[str, list[tuple[str, Any]]] = defaultdict(list)
    for r in table.raw:
        by_path[r.path].append((r.method, r.handler))
    for t in table.tools:
        assert t.path and t.method
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
