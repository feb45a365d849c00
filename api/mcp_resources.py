"""MCP resources over the same tools: a catalog card by id and a collection's summary.

``cardwise://cards/{id}`` reads ``catalog_card``; ``cardwise://collections/{collectionId}`` reads
``collection_analytics`` (counts, value, gains, top cards). The caller's collections are listed.
Reads run as the caller, so another key's collection is not found.
"""

from __future__ import annotations

import json
from typing import Any

from mcp import UriTemplate, types
from mcp.shared.exceptions import MCPError

from api.mcp_tools import run_tool
from tools.context import Caller, ToolContext
from tools.errors import ServiceError

RESOURCE_NOT_FOUND = -32002  # the MCP specification's code for an unknown resource
JSON = "application/json"


class Template:
    def __init__(self, uri: str, name: str, title: str, description: str, tool: str, argument: str) -> None:
        self.uri, self.tool, self.argument = uri, tool, argument
        self.parsed = UriTemplate.parse(uri)
        self.listing = types.ResourceTemplate(uri_template=uri, name=name, title=title, description=description,
                                              mime_type=JSON)


TEMPLATES = [
    Template("cardwise://cards/{id}", "card", "Catalog card",
             "A catalog card by id: set, release, number, parallels with print runs and prices, attributes",
             "catalog_card", "id"),
    Template("cardwise://collections/{collectionId}", "collection", "Collection summary",
             "One of your collections summarised: counts, money invested, market value, gains, top cards",
             "collection_analytics", "collectionId"),
]


def _error(exc: ServiceError) -> MCPError:
    code = RESOURCE_NOT_FOUND if exc.code == "NOT_FOUND" else (
        types.INVALID_PARAMS if exc.status < 500 else types.INTERNAL_ERROR)
    return MCPError(code, exc.message, {"error": exc.message, "code": exc.code})


async def list_collections(base: ToolContext, caller: Caller | None) -> types.ListResourcesResult:
    """The caller's collections (the first 100 by name), each as its summary resource."""
    try:
        page = await run_tool(base, caller, "collections_list", {"take": 100, "sort": "name"}, False)
    except ServiceError as exc:
        raise _error(exc) from None
    return types.ListResourcesResult(resources=[
        types.Resource(uri=f"cardwise://collections/{c['id']}", name=c["name"], title=c["name"],
                       description=f"Summary of the collection {c['name']!r}", mime_type=JSON)
        for c in page["collections"]])


async def read(base: ToolContext, caller: Caller | None, uri: str) -> types.ReadResourceResult:
    for template in TEMPLATES:
        found = template.parsed.match(uri)
        if found is not None:
            break
    else:
        raise MCPError(RESOURCE_NOT_FOUND, f"Unknown resource {uri}", {"error": f"Unknown resource {uri}",
                                                                       "code": "NOT_FOUND"})
    try:
        out: Any = await run_tool(base, caller, template.tool, {template.argument: found[template.argument]}, False)
    except ServiceError as exc:
        raise _error(exc) from None
    return types.ReadResourceResult(contents=[
        types.TextResourceContents(uri=uri, mime_type=JSON, text=json.dumps(out, ensure_ascii=False))])
