"""The MCP server over the registry, whatever the transport: tools (``api/mcp_tools.py``) and a few
resources (``api/mcp_resources.py``), acting as the caller the transport names."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Any

from mcp import types
from mcp.server import Server, ServerRequestContext

from api import mcp_resources
from api.mcp_tools import CallerOf, call, tool_listing
from tools.context import ToolContext

SERVER_NAME = "cardwise"
INSTRUCTIONS = (
    "Cardwise: a trading-card catalog (search cards, sets, releases, parallels), market data (sale "
    "prices, listings, graded populations) and the caller's own collections, want lists and binders. "
    "Ids are UUIDs: find a card with catalog_search or catalog_cards before pricing it."
)
Ctx = ServerRequestContext[Any, Any]


def _version() -> str:
    try:
        return version("cardwise")
    except PackageNotFoundError:  # run from a checkout that is not installed
        return "0"


def build_server(base: ToolContext, caller_of: CallerOf, *, allow_writes: bool) -> Server[Any]:
    """A low-level MCP server; ``base`` supplies sessions, settings and services, ``caller_of`` the key."""
    templates = types.ListResourceTemplatesResult(resource_templates=[t.listing for t in mcp_resources.TEMPLATES])

    async def list_tools(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return tool_listing(allow_writes)

    async def call_tool(ctx: Ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await call(base, await caller_of(ctx), params.name, params.arguments, allow_writes)

    async def list_templates(ctx: Ctx, params: types.PaginatedRequestParams | None
                             ) -> types.ListResourceTemplatesResult:
        return templates

    async def list_resources(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        return await mcp_resources.list_collections(base, await caller_of(ctx))

    async def read_resource(ctx: Ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        return await mcp_resources.read(base, await caller_of(ctx), str(params.uri))

    return Server(SERVER_NAME, version=_version(), instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool, on_list_resources=list_resources,
                  on_list_resource_templates=list_templates, on_read_resource=read_resource)
