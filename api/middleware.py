"""Middlewares, outermost first: request id + access log + metrics, errors as JSON with the overall request
timeout, API-key auth with the per-key rate limit (``api/ratelimit.py``) and the usage count."""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import os
import re
import time
import uuid
from typing import Any

from aiohttp import web
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm.exc import StaleDataError

import metrics
from api import logs
from api.key_cache import KeyCache
from api.keys import CALLER, CONTEXT, REQUEST_ID
from api.ratelimit import Limiter, rate_limited
from tools.context import Caller
from tools.errors import STATUS_BY_CODE, ServiceError
from tools.storage import api_keys as key_queries

log = logging.getLogger("cardwise.api")
REQUEST_ID_HEADER = "X-Request-Id"
_SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
PUBLIC_ATTR = "__cardwise_public__"
CODE_BY_STATUS = {v: k for k, v in reversed(list(STATUS_BY_CODE.items()))}


SERVER_NAME = "cardwise"  # the Server header: never aiohttp's software and version


async def server_header(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: name no software version in the Server header."""
    response.headers["Server"] = SERVER_NAME


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"error": message, "code": code}, status=status, headers=headers)


def route_label(request: web.Request) -> str:
    """The route template (``/v1/catalog/cards/{id}``), never the raw path (bounded label values)."""
    info = request.match_info
    if info.http_exception is not None or info.route.resource is None:
        return "unmatched"
    return info.route.resource.canonical


_HTTP_LABELS = ("method", "route", "status")
_ID_STATE: list = ["", itertools.count()]  # prefix, counter


def _new_id_prefix() -> None:
    _ID_STATE[:] = [uuid.uuid4().hex[:20], itertools.count()]


_new_id_prefix()
os.register_at_fork(after_in_child=_new_id_prefix)  # forked workers draw their own (no getpid per request)


def new_request_id() -> str:
    """32 hex digits unique per request: a random prefix per process and a counter; a uuid4 per request
    cost a system call (os.urandom) on every request."""
    return f"{_ID_STATE[0]}{next(_ID_STATE[1]) & 0xFFFFFFFFFFFF:012x}"


_HTTP_SERIES: dict[tuple[str, str, str], tuple[Any, Any]] = {}  # (method, route, status) -> (count, latency)


def _http_series(values: tuple[str, str, str]) -> tuple[Any, Any]:
    """The request count's and latency's series for these labels, in one lookup (two apiece cost a request 1 us)."""
    got = _HTTP_SERIES.get(values)
    if got is None:
        got = (metrics.series_of(metrics.HTTP_REQUESTS, _HTTP_LABELS, values),
               metrics.series_of(metrics.HTTP_LATENCY, _HTTP_LABELS, values))
        if len(_HTTP_SERIES) < 4096:  # methods come from clients: the memo stays bounded
            _HTTP_SERIES[values] = got
    return got


@web.middleware
async def request_context(request: web.Request, handler):
    incoming = request.headers.get(REQUEST_ID_HEADER, "")
    rid = incoming if incoming and _SAFE_ID.match(incoming) else new_request_id()
    request[REQUEST_ID] = rid
    start = time.perf_counter()
    status = 500
    in_flight = metrics.HTTP_IN_FLIGHT
    in_flight.inc()
    try:
        resp = await handler(request)
        status = resp.status
        resp.headers[REQUEST_ID_HEADER] = rid
        return resp
    except web.HTTPException as exc:  # redirects and the like pass through the errors middleware
        status = exc.status
        raise
    except asyncio.CancelledError:
        status = 499  # the client went away
        raise
    finally:
        in_flight.dec()
        duration = time.perf_counter() - start
        route = route_label(request)
        method = request.method
        count, latency = _http_series((method, route, str(status)))
        count.inc()
        latency.observe(duration)
        if log.isEnabledFor(logging.INFO):
            caller = request.get(CALLER)
            fields = {"request_id": rid, "method": method, "route": route, "path": request.path, "status": status,
                      "duration_ms": round(duration * 1000, 2), "key_id": caller.key_text if caller else None}
            if not logs.info_line(log, "request", fields):  # the line written straight to a JSON stream
                log.info("request", extra=fields)


class _Watchdog:
    """The requests in flight and their deadlines: one timer looks at them every ``seconds / 4`` (at most 1 s) and
    cancels those past their time (a timer per request, ``asyncio.timeout``, cost 9 us, a fifth of what a bare
    request costs)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadlines: dict[asyncio.Task, float] = {}  # requests in flight -> when their time is up
        self.expired: set[asyncio.Task] = set()  # cancelled by the watchdog, not yet answered
        self.step = min(1.0, seconds / 4)
        self.watching: asyncio.TimerHandle | None = None

    def _watch(self) -> None:
        now = asyncio.get_running_loop().time()
        for task, deadline in list(self.deadlines.items()):
            if deadline <= now and task not in self.expired:
                self.expired.add(task)
                task.cancel()
        self.watching = asyncio.get_running_loop().call_later(self.step, self._watch) if self.deadlines else None

    def start(self) -> asyncio.Task | None:
        """Watch the current request (its task; None outside one)."""
        task = asyncio.current_task()
        if task is not None:
            self.deadlines[task] = asyncio.get_running_loop().time() + self.seconds
            if self.watching is None:
                self.watching = asyncio.get_running_loop().call_later(self.step, self._watch)
        return task

    def timed_out(self, task: asyncio.Task, request: web.Request) -> ServiceError | None:
        """On the request's cancellation: the 503 to answer when the watchdog cancelled it (and nothing else did)."""
        if task not in self.expired:
            return None
        self.expired.discard(task)
        if task.uncancel():  # cancelled for another reason too (the client went away)
            return None
        log.warning("request timed out", extra={"request_id": request.get(REQUEST_ID), "timeout_s": self.seconds})
        return ServiceError("SERVICE_UNAVAILABLE", f"The request took longer than {self.seconds:g} s; retry shortly",
                            retry_after=1)

    def end(self, task: asyncio.Task) -> None:
        self.deadlines.pop(task, None)
        if task in self.expired:  # cancelled as it ended: that cancellation is withdrawn
            self.expired.discard(task)
            task.uncancel()


# SQLSTATE classes that mean "the database is not there right now", not "your query is wrong":
# 08 connection exception, 53 insufficient resources, 57P0x admin/crash shutdown, cannot connect now
_UNAVAILABLE_SQLSTATE = ("08", "53", "57P")


def _is_db_unavailable(exc: BaseException) -> bool:
    if isinstance(exc, (PoolTimeout, OperationalError, InterfaceError, ConnectionError, OSError)):
        return True
    if isinstance(exc, DBAPIError):
        if exc.connection_invalidated:
            return True
        state = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
        return isinstance(state, str) and state.startswith(_UNAVAILABLE_SQLSTATE)
    return False


def handle_errors(timeout_s: float = 0):
    """Errors as JSON, and (``timeout_s`` above 0) the overall request timeout: 503 ``SERVICE_UNAVAILABLE`` when a
    request takes longer than that in all (``_Watchdog``). One layer: a layer costs every request a coroutine."""
    watchdog = _Watchdog(timeout_s) if timeout_s > 0 else None

    @web.middleware
    async def errors(request: web.Request, handler):
        task = watchdog.start() if watchdog is not None else None
        try:
            if task is None or watchdog is None:
                return await handler(request)
            try:
                return await handler(request)
            except asyncio.CancelledError:
                answer = watchdog.timed_out(task, request)
                if answer is None:
                    raise
                raise answer from None
            finally:
                watchdog.end(task)
        except ServiceError as exc:
            headers = {"Retry-After": str(int(exc.retry_after + 0.999))} if exc.retry_after else None
            return error_response(exc.status, exc.code, exc.message, headers)
        except web.HTTPException as exc:
            if exc.status < 400:
                raise
            code = CODE_BY_STATUS.get(exc.status, "NOT_FOUND" if exc.status == 404 else "VALIDATION_ERROR")
            message = {404: "Not found", 405: f"Method {request.method} not allowed on {request.path}",
                       413: "Request body too large"}.get(exc.status, exc.reason)
            headers = {"Allow": exc.headers["Allow"]} if "Allow" in exc.headers else None
            return error_response(exc.status, code, message, headers)
        except asyncio.CancelledError:
            raise
        except StaleDataError:
            # the row was deleted by a concurrent request between its read and its write
            return error_response(404, "NOT_FOUND", "Not found: it was deleted by a concurrent request")
        except IntegrityError:
            # a concurrent write won a race on a unique constraint the tool had checked
            log.info("integrity conflict", extra={"request_id": request.get(REQUEST_ID)})
            return error_response(409, "CONFLICT", "The request conflicts with a concurrent change; it was not applied")
        except Exception as exc:  # noqa: BLE001 - the one place that turns the unexpected into a 500
            rid = request.get(REQUEST_ID)
            if _is_db_unavailable(exc):
                log.warning("database unavailable", extra={"request_id": rid, "error": repr(exc)})
                return error_response(503, "SERVICE_UNAVAILABLE", "The database is unavailable; retry shortly",
                                      {"Retry-After": "1"})
            if isinstance(exc, asyncio.TimeoutError):
                log.warning("timeout", extra={"request_id": rid})
                return error_response(503, "SERVICE_UNAVAILABLE", "The service timed out; retry shortly")
            log.exception("unhandled error", extra={"request_id": rid})
            return error_response(500, "INTERNAL_ERROR", f"Internal error (request id {rid})")

    return errors


def presented_key(request: web.Request) -> str | None:
    """The API key of the request (``X-API-Key``, else ``Authorization: Bearer``). Two different keys in
    one request (both headers, or the header twice) are refused with 400; the SDKs send the same key
    in both, which is fine."""
    headers = request.headers
    if "Authorization" not in headers:  # the common case: one X-API-Key header
        sent = headers.getall("X-API-Key", ())
        if len(sent) == 1:
            return sent[0].strip() or None
    keys = {k.strip() for k in headers.getall("X-API-Key", ()) if k.strip()}
    for value in headers.getall("Authorization", ()):
        if value[:7].lower() == "bearer " and value[7:].strip():
            keys.add(value[7:].strip())
    if len(keys) > 1:
        raise ServiceError("VALIDATION_ERROR", "Conflicting credentials: the request carries more than one API key "
                                               "(X-API-Key and Authorization: Bearer must name the same key)")
    return keys.pop() if keys else None


def well_formed(key: str) -> bool:
    """A key is printable ASCII of at most 200 characters; anything else (bytes that are not UTF-8,
    control characters) cannot be a key and is answered 401 without a lookup."""
    return len(key) <= 200 and key.isascii() and key.isprintable()


def is_public(request: web.Request) -> bool:
    info = request.match_info
    if info.http_exception is not None:
        return True  # unknown route / method: let the router answer 404/405
    return bool(getattr(info.handler, PUBLIC_ATTR, False))


KEY_CACHE = web.AppKey("key_cache", KeyCache)  # made once per app by create_app
# failed key lookups per client address and key prefix (absent = no limit)
AUTH_FAILURES = web.AppKey("auth_failures", Limiter)
REDIS: web.AppKey[Any] = web.AppKey("redis")  # the Redis client of the shared limits (None without one)


def _failure_key(request: web.Request, key: str) -> str:
    """Failed keys are counted per client address and key prefix, so a client in a loop with a wrong
    key (or many behind one proxy) never locks out a valid key from the same address."""
    prefix = key[:len(key_queries.KEY_PREFIX) + 7] if well_formed(key) else "malformed"
    return f"{request.remote or 'unknown'}|{prefix}"


async def _find_caller(ctx: Any, key: str) -> Caller | None:
    async with ctx.sessions() as session:
        row = await key_queries.find_active(session=session, plaintext=key)
    return Caller(key_id=row.id, name=row.name) if row is not None else None


async def _known_caller(request: web.Request, key: str) -> Caller | None:
    app = request.app
    cache = app[KEY_CACHE]
    digest = key_queries.hash_key(key) if well_formed(key) else ""
    lookup = functools.partial(_find_caller, app[CONTEXT], key)
    caller = cache.get(digest) if digest else None
    if caller is not None:  # the common case: a key seen within its cache time
        if cache.due(digest):
            cache.refresh(digest, lookup)
        return caller
    # an address that keeps presenting the same unknown key (guessing, or a misconfigured client in a
    # loop) is answered 429 without a database lookup once it has spent its failures
    failures = app.get(AUTH_FAILURES)
    bucket = _failure_key(request, key)
    wait = await failures.wait(bucket) if failures is not None else 0.0
    if wait > 0:
        raise rate_limited("Too many invalid API keys from this address", wait)
    if not digest:  # not a key at all: a failure, without a lookup
        if failures is not None:
            await failures.take(bucket)
        return None
    caller = await cache.single(digest, lookup)
    if caller is None and failures is not None:
        await failures.take(bucket)
    return caller


def authorize(limiter: Limiter | None = None):
    """The API-key check, then the per-key rate limit (``limiter``; None: no limit) and the count of the key's
    requests (``api/usage.py``) for a request it lets through: one middleware, not three (each layer cost a
    request its own coroutine and its own lookup of the caller)."""

    @web.middleware
    async def auth(request: web.Request, handler):
        key = presented_key(request)
        if key:
            caller = await _known_caller(request, key)
            if caller is not None:
                request[CALLER] = caller
        caller = request.get(CALLER)
        if caller is None:
            if not is_public(request):
                msg = "Missing API key: send it in the X-API-Key header" if not key else "Invalid or revoked API key"
                raise ServiceError("UNAUTHORIZED", msg)
            return await handler(request)
        if limiter is not None:
            wait = await limiter.take(caller.key_id)
            if wait > 0:
                raise rate_limited("Too many requests for this API key", wait)
        usage = request.app[CONTEXT].usage
        if usage is not None:
            usage.count(caller.key_id)
        return await handler(request)

    auth.limiter = limiter  # type: ignore[attr-defined]
    return auth
