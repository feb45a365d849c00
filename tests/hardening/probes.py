"""Probe routes built with the real adapter (``as_handler``) from tools that are NOT registered, so
body handling (JSON, uploads, list query fields) can be attacked whatever capability routes exist."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from api.adapter import as_handler
from tools._models import In, Out, Take, Upload
from tools._registry import Tool
from tools.context import ToolContext


class JsonIn(In):
    items: Any = None
    name: str | None = None


class UploadIn(In):
    image: Upload


class ListQuery(In):
    tag: list[str] = []
    take: Take = 20


class Echo(Out):
    size: int
    tags: list[str] = []
    take: int | None = None


async def _json(ctx: ToolContext, q: JsonIn) -> Echo:
    return Echo(size=len(repr(q.items)) if q.items is not None else 0)


async def _upload(ctx: ToolContext, q: UploadIn) -> Echo:
    return Echo(size=len(q.image.data))


async def _list(ctx: ToolContext, q: ListQuery) -> Echo:
    return Echo(size=len(q.tag), tags=q.tag, take=q.take)


PROBES = [
    Tool("probe_json", _json, JsonIn, Echo, "Probe: a JSON body.", "POST", "/probe/json"),
    Tool("probe_upload", _upload, UploadIn, Echo, "Probe: an image upload.", "POST", "/probe/upload", body="binary"),
    Tool("probe_list", _list, ListQuery, Echo, "Probe: repeated query keys.", "GET", "/probe/list"),
]


def add_probes(app: web.Application) -> web.Application:
    for t in PROBES:
        app.router.add_route(t.method, t.path, as_handler(t))
    return app
