"""Typed keys for what the app and each request carry."""

from __future__ import annotations

from aiohttp import web
from sqlalchemy.ext.asyncio import AsyncEngine

from api.response_cache import ResponseCache
from config import Settings
from tools.context import Caller, ToolContext

SETTINGS = web.AppKey("settings", Settings)
ENGINE = web.AppKey("engine", AsyncEngine)
CONTEXT = web.AppKey("context", ToolContext)
RESPONSE_CACHE = web.AppKey("response_cache", ResponseCache)

# request-scoped
REQUEST_ID = web.RequestKey("request_id", str)
CALLER = web.RequestKey("caller", Caller)


def caller_of(request: web.Request) -> Caller | None:
    return request.get(CALLER)
