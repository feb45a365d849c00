"""The stall log: a handler that holds the event loop is logged with how long and where; a quiet loop is not."""

from __future__ import annotations

import asyncio
import logging
import time

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from api.keys import SETTINGS
from api.stalls import IDLE, stall_log
from config import Settings


def _blocking_app(stall_ms: float) -> web.Application:
    app = web.Application()
    app[SETTINGS] = Settings(stall_log_ms=stall_ms)
    app.cleanup_ctx.append(stall_log)

    async def hold_the_loop(request: web.Request) -> web.Response:
        time.sleep(0.3)  # a blocking call, as a careless handler would make
        return web.Response(text="done")

    async def polite(request: web.Request) -> web.Response:
        await asyncio.sleep(0.3)
        return web.Response(text="done")

    app.router.add_get("/block", hold_the_loop)
    app.router.add_get("/polite", polite)
    return app


async def _get(app: web.Application, path: str, caplog) -> None:
    async with TestClient(TestServer(app)) as client:
        await client.get("/polite")  # the client's own first-request set-up holds the loop too
        await asyncio.sleep(0.1)
        caplog.clear()
        assert (await client.get(path)).status == 200
        await asyncio.sleep(0.1)  # the heartbeat after the stall logs it


def _stalls(caplog) -> list:
    """The stalls logged, but those of a loop that only woke late (a loaded machine gave its core away)."""
    return [r for r in caplog.records if r.getMessage() == "event loop blocked" and r.where != IDLE]


async def test_a_blocking_handler_is_logged_with_its_duration_and_place(caplog):
    caplog.set_level(logging.WARNING, logger="cardwise.api.stalls")
    await _get(_blocking_app(50), "/block", caplog)
    stalls = _stalls(caplog)
    assert len(stalls) == 1
    assert 200 <= stalls[0].blocked_ms <= 2000
    assert "hold_the_loop" in stalls[0].where


async def test_waiting_without_blocking_logs_nothing(caplog):
    caplog.set_level(logging.WARNING, logger="cardwise.api.stalls")
    await _get(_blocking_app(50), "/polite", caplog)
    assert not _stalls(caplog)


async def test_off_by_default(caplog):
    caplog.set_level(logging.WARNING, logger="cardwise.api.stalls")
    await _get(_blocking_app(0), "/block", caplog)
    assert not caplog.records
