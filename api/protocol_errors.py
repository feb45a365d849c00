"""Requests aiohttp's own HTTP parser refuses (a garbled request line, an over-long header, a broken
chunked body ...) never reach the middlewares: aiohttp answers them itself, in plain text. This
makes those answers the same ``{error, code}`` JSON as every other error (the status, logging and
connection close stay aiohttp's). Installed once per process by ``create_app``.
"""

from __future__ import annotations

import json

from aiohttp import web, web_protocol

from api.middleware import CODE_BY_STATUS, SERVER_NAME


def protocol_error_body(status: int, message: str | None) -> dict[str, str]:
    if status >= 500:
        return {"error": "Internal error", "code": "INTERNAL_ERROR"}
    detail = (message or "").strip().splitlines()[0][:200] if (message or "").strip() else ""
    text = "Malformed HTTP request" + (f": {detail}" if detail else "")
    return {"error": text, "code": CODE_BY_STATUS.get(status, "VALIDATION_ERROR")}


def install() -> None:
    handler_cls = web_protocol.RequestHandler
    if getattr(handler_cls.handle_error, "__cardwise__", False):
        return
    original = handler_cls.handle_error

    def handle_error(self, request, status=500, exc=None, message=None):
        original(self, request, status, exc, message)  # aiohttp's logging and checks
        resp = web.Response(status=status, text=json.dumps(protocol_error_body(status, message)),
                            content_type="application/json", headers={"Server": SERVER_NAME})
        resp.force_close()
        return resp

    handle_error.__cardwise__ = True
    handler_cls.handle_error = handle_error
