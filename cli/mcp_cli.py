"""``cardwise mcp [--allow-writes]``: the tool registry as an MCP server on stdin/stdout.

For a desktop assistant's configuration: the client starts the command and talks MCP over its
pipes. It acts as the API key in ``CARDWISE_API_KEY`` (another key's collections are not found)
on the database of ``CARDWISE_DATABASE_URL``; tools that change data are offered only with
``--allow-writes``. Logs go to stderr (stdout carries the protocol).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server import ServerRequestContext

    from tools.context import Caller

log = logging.getLogger("cardwise.mcp")
KEY_ENV = "CARDWISE_API_KEY"


def configure(p: argparse.ArgumentParser) -> None:
    p.description = ("Serve Cardwise's tools over the Model Context Protocol on stdin/stdout, as the API key in "
                     f"{KEY_ENV}")
    p.add_argument("--allow-writes", action="store_true",
                   help="also offer the tools that create, change or delete collections, lists, binders and feedback")


async def serve(key: str, allow_writes: bool) -> int:
    # imported here, not at the top: `cardwise --help` and `serve --workers N` must not load the app
    # (prometheus_client's multiprocess mode is chosen before it is first imported)
    from mcp.server.stdio import stdio_server

    from api.mcp_server import build_server
    from api.key_cache import KeyCache
    from api.settings import load_settings
    from store.db import create_engine, sessionmaker
    from store.queries import keys as key_queries
    from tools.context import Caller, ToolContext

    settings = load_settings()
    engine = create_engine(settings.database_url, pool_size=settings.db_pool_size,
                           connect_timeout=settings.db_timeout_s, command_timeout=settings.db_command_timeout_s)
    sessions = sessionmaker(engine)
    base = ToolContext(sessions=sessions, settings=settings)
    keys = KeyCache(settings.auth_cache_s)
    digest = key_queries.hash_key(key)

    async def caller_of(ctx: ServerRequestContext[Any, Any] | None = None) -> Caller | None:
        # looked up again after CARDWISE_AUTH_CACHE_S, so a revoked key stops working in a running server
        caller = keys.get(digest)
        if caller is None:
            async with sessions() as s:
                row = await key_queries.find_active(session=s, plaintext=key)
            if row is not None:
                caller = Caller(key_id=row.id, name=row.name)
                keys.put(digest, caller)
        return caller

    try:
        if await caller_of() is None:
            print(f"cardwise mcp: {KEY_ENV} is not an active API key (create one: cardwise keys create)",
                  file=sys.stderr)
            return 2
        server = build_server(base, caller_of, allow_writes=allow_writes)
        log.info("mcp stdio server ready", extra={"allow_writes": allow_writes})
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
        return 0
    finally:
        for service in list(base.services.values()):
            if hasattr(service, "aclose"):
                await service.aclose()
        await engine.dispose()


def run(args: argparse.Namespace) -> int:
    from api import logs
    from api.settings import load_settings
    from store import migrations

    key = os.environ.get(KEY_ENV, "").strip()
    if not key:
        print(f"cardwise mcp: set {KEY_ENV} to an API key (create one: cardwise keys create)", file=sys.stderr)
        return 2
    settings = load_settings()
    logs.configure(settings.log_level, settings.log_format)  # to stderr
    migrations.upgrade(settings.database_url)
    return asyncio.run(serve(key, args.allow_writes))


COMMANDS = {"mcp": (configure, run)}
