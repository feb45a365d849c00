"""``ToolContext``: what every tool receives first (sessions, the caller's identity, settings, clock)."""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from config import Settings
from tools.errors import ServiceError

if TYPE_CHECKING:
    from tools.usage import UsageCounter


@dataclass(frozen=True)
class Caller:
    key_id: uuid.UUID
    name: str | None = None

    @functools.cached_property
    def key_text(self) -> str:
        """``str(key_id)``, once per cached caller (the access log writes it on every request)."""
        return str(self.key_id)


def _utcnow() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class ToolContext:
    sessions: async_sessionmaker[AsyncSession]
    settings: Settings = field(default_factory=Settings)
    caller: Caller | None = None
    clock: Callable[[], datetime] = _utcnow
    # caches shared by tools (indexes over the catalog, vision models), built by ``service()`` by name
    services: dict[str, Any] = field(default_factory=dict)
    # defaults the agent supplies from the query context (e.g. collectionId)
    defaults: dict[str, Any] = field(default_factory=dict)
    # requests per key not yet written (GET /v1/subscription/); None outside a server
    usage: UsageCounter | None = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """One tool call = one transaction: committed on success, rolled back on any error. A race lost
        to a concurrent request is the caller's 404 (the row was deleted under it: ``StaleDataError``)
        or 409 (a constraint it had checked: ``IntegrityError``), for REST and the agent alike."""
        try:
            async with self.sessions() as session, session.begin():
                yield session
        except StaleDataError:
            raise ServiceError("NOT_FOUND", "Not found: it was deleted by a concurrent request") from None
        except IntegrityError:
            raise ServiceError("CONFLICT", "The request conflicts with a concurrent change; it was not applied") \
                from None
        except DBAPIError as exc:
            state = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
            if isinstance(state, str) and state.startswith("40"):  # deadlock or serialization failure
                raise ServiceError("CONFLICT", "The request collided with a concurrent change; retry it") from None
            raise

    async def service(self, name: str, version: Any, build: Callable[[], Awaitable[Any]]) -> Any:
        """The service kept under ``name``, rebuilt by ``build()`` when ``version`` differs from the one
        it was built at (e.g. an index over the catalog, versioned by what changes it)."""
        cached = self.services.get(name)
        if cached is not None and cached[0] == version:
            return cached[1]
        value = await build()
        self.services[name] = (version, value)
        return value

    def key_id(self) -> uuid.UUID:
        if self.caller is None:
            raise ServiceError("UNAUTHORIZED", "An API key is required")
        return self.caller.key_id

    def with_caller(self, caller: Caller | None) -> "ToolContext":
        return ToolContext(self.sessions, self.settings, caller, self.clock, self.services, dict(self.defaults),
                           self.usage)
