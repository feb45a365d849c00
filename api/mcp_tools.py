"""Registry tools as MCP tools (their listing and calls), whatever the transport (stdio or HTTP).

Every agent tool is listed with its description and its input model's JSON schema; a call runs
through ``tools._registry.invoke``, the same validation and function as REST, as the caller the
transport names. A tool's error comes back as an MCP tool error whose text is the REST body
``{"error", "code"}``. Tools that change stored data (``Tool.writes``) exist only on a server
started with writes allowed.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from mcp import types
from mcp.server import ServerRequestContext
from pydantic import BaseModel
from sqlalchemy.exc import IntegrityError

from api.middleware import _is_db_unavailable as db_unavailable
from tools._registry import Tool, agent_tools, invoke
from tools.context import Caller, ToolContext
from tools.errors import ServiceError

log = logging.getLogger("cardwise.mcp")

# who is calling: from the HTTP request (its API key) or fixed for the process (stdio)
CallerOf = Callable[[ServerRequestContext[Any, Any]], Awaitable[Caller | None]]


def offered_tools(allow_writes: bool) -> list[Tool]:
    """The registry's agent tools this server offers: all of them, or only the reads."""
    return [t for t in agent_tools() if allow_writes or not t.writes]


def _output_schema(t: Tool) -> dict[str, Any] | None:
    if t.output_model is None or not issubclass(t.output_model, BaseModel):
        return None
    schema = t.output_model.model_json_schema(by_alias=True, mode="serialization")
    return schema if schema.get("type") == "object" else None


def mcp_tool(t: Tool) -> types.Tool:
    """One registry tool as MCP describes it (schemas by alias, as REST takes and answers them)."""
    return types.Tool(
        name=t.name,
        title=t.summary,
        description=t.description,
        input_schema=t.input_model.model_json_schema(by_alias=True, mode="validation"),
        output_schema=_output_schema(t),
        annotations=types.ToolAnnotations(
            read_only_hint=not t.writes,
            destructive_hint=t.writes and t.method == "DELETE",
            idempotent_hint=not t.writes or t.method in ("PUT", "DELETE"),
            open_world_hint=False,
        ),
    )


@functools.cache
def tool_listing(allow_writes: bool) -> types.ListToolsResult:
    """The ``tools/list`` answer, made once per process (the registry is fixed once loaded)."""
    return types.ListToolsResult(tools=[mcp_tool(t) for t in offered_tools(allow_writes)])


def error_result(code: str, message: str) -> types.CallToolResult:
    body = {"error": message, "code": code}
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(body))], is_error=True)


async def run_tool(base: ToolContext, caller: Caller | None, name: str, arguments: dict[str, Any] | None,
                   allow_writes: bool) -> Any:
    """Run one registry tool as ``caller`` and answer its JSON; every failure is a ``ServiceError``."""
    t = next((t for t in agent_tools() if t.name == name), None)
    if t is None:
        raise ServiceError("NOT_FOUND", f"Unknown tool {name!r}")
    if t.writes and not allow_writes:
        raise ServiceError("FORBIDDEN", f"{name} changes stored data and this server is read-only (start it "
                                        "with writes allowed: cardwise mcp --allow-writes, or "
                                        "CARDWISE_MCP_ALLOW_WRITES=1 for /mcp)")
    if caller is None:
        raise ServiceError("UNAUTHORIZED", "An API key is required")
    try:
        return await invoke(name, dict(arguments or {}), base.with_caller(caller))
    except ServiceError:
        raise
    except IntegrityError:
        raise ServiceError("CONFLICT", "The request conflicts with a concurrent change; it was not applied") from None
    except Exception as exc:
        if db_unavailable(exc):  # the same test as REST's errors middleware
            log.warning("database unavailable", extra={"tool": name, "error": repr(exc)})
            raise ServiceError("SERVICE_UNAVAILABLE", "The database is unavailable; retry shortly") from None
        log.exception("unhandled tool error", extra={"tool": name})
        raise ServiceError("INTERNAL_ERROR", f"Internal error in {name}") from None


async def call(base: ToolContext, caller: Caller | None, name: str, arguments: dict[str, Any] | None,
               allow_writes: bool) -> types.CallToolResult:
    """One ``tools/call``: the answer as JSON text and structured content, or a tool error."""
    try:
        out = await run_tool(base, caller, name, arguments, allow_writes)
    except ServiceError as exc:
        return error_result(exc.code, exc.message)
    structured = out if isinstance(out, dict) else None
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(out, ensure_ascii=False))],
                                structured_content=structured)
