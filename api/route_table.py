"""What a route table is made of: raw routes (health, docs, the console, the agent) described for the
OpenAPI document, the tools with an HTTP binding, and the app key ``create_app`` keeps them under."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aiohttp import web
from pydantic import BaseModel

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
    description: str = ""                          # what it does, for the document
    request_model: type[BaseModel] | None = None   # the JSON body's model (instead of ``request``)
    response_model: type[BaseModel] | None = None  # the answer's model (instead of ``response``)


@dataclass(frozen=True)
class RouteTable:
    """Every route an app serves: ``setup_routes`` mounts it and ``build_openapi`` documents it."""

    raw: list[RawRoute]
    tools: list[Tool]


ROUTE_TABLE = web.AppKey("route_table", RouteTable)


def public(handler: Any) -> Any:
    setattr(handler, PUBLIC_ATTR, True)
    return handler


def tool_routes() -> list[Tool]:
    return [t for t in all_tools() if t.method and t.path]
