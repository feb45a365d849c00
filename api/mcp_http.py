"""``POST /mcp``: the tool registry over MCP streamable HTTP, on the running aiohttp server.

The ``mcp`` package's session manager (an ASGI app) answers the request; this module hands it the
aiohttp request as one ASGI call and returns what it sent as an aiohttp response, so the app's
middlewares (request id, auth by API key, per-key rate limit, errors as ``{error, code}``) apply
as on every route. The manager runs stateless with JSON answers: no session lives in a process, so
``--workers N`` and several servers behind a load balancer serve ``/mcp`` like any route. Tools
that change data are offered when ``CARDWISE_MCP_ALLOW_WRITES`` is on.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web
from mcp.server import ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from api.adapter import JSON_BODY_LIMIT, _read_limited
from api.keys import CALLER, CONTEXT
from api.mcp_server import build_server
from api.middleware import CODE_BY_STATUS
from tools.context import Caller
from tools.errors import ServiceError

MCP_PATH = "/mcp"
MANAGER = web.AppKey("mcp_manager", StreamableHTTPSessionManager)
_SCOPE_CALLER = "cardwise.caller"  # ASGI scope entry: the caller the auth middleware found
_HOP_HEADERS = frozenset({"content-length", "transfer-encoding", "connection"})


async def _scope_caller(ctx: ServerRequestContext[Any, Any]) -> Caller | None:
    request = ctx.request
    scope = getattr(request, "scope", None) or {}
    return scope.get(_SCOPE_CALLER)


def _scope(request: web.Request, caller: Caller | None) -> dict[str, Any]:
    host, port = (request.url.host or "localhost"), (request.url.port or 80)
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": f"{request.version.major}.{request.version.minor}",
        "method": request.method,
        "scheme": request.scheme,
        "path": request.path,
        "raw_path": request.raw_path.split("?", 1)[0].encode("latin-1"),
        "query_string": request.query_string.encode("latin-1"),
        "root_path": "",
        "headers": [(k.lower(), v) for k, v in request.raw_headers],
        "client": (request.remote or "", 0),
        "server": (host, port),
        _SCOPE_CALLER: caller,
    }


async def mcp_endpoint(request: web.Request) -> web.Response:
    """One MCP message (or batch) in a JSON-RPC POST; the answer is JSON."""
    body = await _read_limited(request.content, JSON_BODY_LIMIT)
    done = asyncio.Event()
    sent_body = False
    started: dict[str, Any] = {}
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent_body
        if not sent_body:
            sent_body = True
            return {"type": "http.request", "body": body, "more_body": False}
        await done.wait()  # nothing more comes from this request; report the end once it is answered
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            started.update(message)
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    try:
        await request.app[MANAGER].handle_request(_scope(request, request.get(CALLER)), receive,
                                                  send)  # type: ignore[arg-type]
    finally:
        done.set()
    status, answer = started.get("status", 500), b"".join(chunks)
    headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in started.get("headers", [])
               if k.decode("latin-1").lower() not in _HOP_HEADERS]
    if status >= 400 and not any(k.lower() == "content-type" and "json" in v for k, v in headers):
        # the transport's own plain-text refusals (e.g. a wrong Content-Type) read like every other error
        message = answer.decode("utf-8", "replace").strip() or "Invalid MCP request"
        raise ServiceError(CODE_BY_STATUS.get(status, "VALIDATION_ERROR"), message)
    return web.Response(status=status, body=answer, headers=headers)


def raw_routes() -> list[Any]:
    """``POST /mcp``, left out of the OpenAPI document: MCP describes itself (``tools/list``) and answers
    protocol faults as JSON-RPC errors, which its clients read, rather than ``{error, code}``."""
    from api.routes import RawRoute

    return [RawRoute("POST", MCP_PATH, mcp_endpoint, "Model Context Protocol (streamable HTTP, JSON answers)",
                     tags=("MCP",), in_openapi=False)]


def setup_mcp(app: web.Application) -> None:
    """Run the MCP session manager that answers ``/mcp`` (see ``raw_routes``) while the app runs."""
    ctx = app[CONTEXT]
    server = build_server(ctx, _scope_caller, allow_writes=ctx.settings.mcp_allow_writes)
    app[MANAGER] = StreamableHTTPSessionManager(server, json_response=True, stateless=True,
                                                max_request_body_size=JSON_BODY_LIMIT)

    async def run_manager(app: web.Application) -> AsyncIterator[None]:
        # the manager's task group lives in a task of its own: anyio wants a cancel scope left in the
        # task that entered it, and aiohttp may start and clean up the app from different tasks
        ready, stop = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with app[MANAGER].run():
                ready.set()
                await stop.wait()

        task = asyncio.create_task(hold(), name="mcp-session-manager")
        waiter = asyncio.create_task(ready.wait())
        finished, _ = await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if task in finished:  # it failed to start: raise its error
            waiter.cancel()
            task.result()
        yield
        stop.set()
        await task

    app.cleanup_ctx.append(run_manager)
