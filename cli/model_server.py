"""``cardwise model serve``: the built-in model as an OpenAI-compatible HTTP endpoint.

    POST /v1/chat/completions   Chat Completions (tools, tool_calls; no streaming)
    GET  /v1/models             the one model, ``cardwise-builtin``

Used to record eval cassettes end to end on a machine with no other model server.
"""

from __future__ import annotations

import time

from aiohttp import web

from agent.builtin.protocol import MODEL, handle_chat_json


async def chat_completions(request: web.Request) -> web.Response:
    raw = await request.read()
    status, body = handle_chat_json(raw)
    return web.json_response(body, status=status)


async def models(request: web.Request) -> web.Response:
    return web.json_response({"object": "list", "data": [{"id": MODEL, "object": "model", "created": int(time.time()),
                                                          "owned_by": "cardwise"}]})


def create_model_app() -> web.Application:
    app = web.Application(client_max_size=8 * 1024 * 1024)
    app.router.add_post("/v1/chat/completions", chat_completions)
    app.router.add_get("/v1/models", models)
    return app
