"""Feedback about catalog entities, identifications and the service.

Rules: the entity must exist (404; identification ids are the caller's own requests); message
1-1000 characters; the same message about the same entity within one hour is 409; a key's 51st
submission of a UTC day is 429 ``FEEDBACK_LIMIT_EXCEEDED``. Submissions of one key are
serialised (an in-process lock per key, plus across processes a PostgreSQL advisory lock or, on
SQLite, the write lock taken first) so the cap and the duplicate window are exact under concurrency.
"""

from __future__ import annotations

import asyncio
import uuid
import weakref
from datetime import datetime, timedelta, timezone
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from store.models import Feedback
from store.queries import feedback as q
from tools._models import In, Out, UUIDStr
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import ServiceError, conflict, not_found

DAILY_LIMIT = 50
DUPLICATE_WINDOW = timedelta(hours=1)
FeedbackType = Literal["data_error", "missing_data", "suggestion", "bug", "other"]
EntityType = Literal["card", "set", "release", "manufacturer", "segment", "identify"]

_locks: "weakref.WeakValueDictionary[uuid.UUID, asyncio.Lock]" = weakref.WeakValueDictionary()


def _lock_for(key_id: uuid.UUID) -> asyncio.Lock:
    lock = _locks.get(key_id)
    if lock is None:
        lock = asyncio.Lock()
        _locks[key_id] = lock
    return lock


class FeedbackRecord(Out):
    __keep_none__ = frozenset({"entity_id", "feedback_type"})
    unique_id: str
    entity_type: str
    entity_id: str | None = None
    feedback_type: str | None = None
    message: str
    status: str
    created_at: str
    updated_at: str


class FeedbackResponse(Out):
    success: bool
    message: str
    data: FeedbackRecord


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must contain text, not only whitespace")
    return value


Message = Annotated[str, AfterValidator(_not_blank)]
_MESSAGE = Field(min_length=1, max_length=1000, description="The feedback text, 1-1000 characters")
_TYPE = Field(None, description="data_error, missing_data, suggestion, bug or other")


class EntityFeedbackInput(In):
    entity_type: EntityType = Field(description="card, set, release, manufacturer, segment or identify")
    id: UUIDStr = Field(description="Id of the entity (for identify: the requestId of an identification)")
    feedback_type: FeedbackType | None = _TYPE
    message: Message = _MESSAGE


class GeneralFeedbackInput(In):
    feedback_type: FeedbackType | None = _TYPE
    message: Message = _MESSAGE


class FeedbackGetQuery(In):
    id: UUIDStr = Field(description="Feedback id (unique_id)")


def _iso(ts: datetime) -> str:
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=timezone.utc)
    return ts.isoformat().replace("+00:00", "Z")


def _record(f: Feedback) -> FeedbackRecord:
    return FeedbackRecord(unique_id=str(f.id), entity_type=f.entity_type,
                          entity_id=str(f.entity_id) if f.entity_id else None, feedback_type=f.feedback_type,
                          message=f.message, status=f.status, created_at=_iso(f.created_at), updated_at=_iso(f.updated_at))


async def _submit(ctx: ToolContext, entity_type: str, entity_id: uuid.UUID | None, feedback_type: str | None,
                  message: str) -> FeedbackResponse:
    key_id = ctx.key_id()
    async with _lock_for(key_id), ctx.transaction() as s:
        await q.lock_key(session=s, key_id=key_id)
        if entity_id is not None and not await q.entity_exists(session=s, entity_type=entity_type,
                                                               entity_id=entity_id, key_id=key_id):
            raise not_found("Identification request" if entity_type == "identify" else entity_type.capitalize(),
                            entity_id)
        now = ctx.clock()
        if await q.duplicate_exists(session=s, key_id=key_id, entity_type=entity_type, entity_id=entity_id,
                                    message=message, since=now - DUPLICATE_WINDOW):
            raise conflict("The same feedback for this entity was already submitted within the last hour")
        day_start = now.astimezone(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
        if await q.count_since(session=s, key_id=key_id, since=day_start) >= DAILY_LIMIT:
            raise ServiceError("FEEDBACK_LIMIT_EXCEEDED", f"At most {DAILY_LIMIT} feedback submissions per day per API key")
        row = Feedback(id=uuid.uuid4(), api_key_id=key_id, entity_type=entity_type, entity_id=entity_id,
                       feedback_type=feedback_type, message=message, status="not_reviewed", created_at=now,
                       updated_at=now)
        s.add(row)
        await s.flush()
        record = _record(row)
    return FeedbackResponse(success=True, message="Feedback submitted", data=record)


@tool("feedback_submit", method="POST", path="/v1/feedback/{entity_type}/{id}", status=201,
      extra_statuses=(404, 409, 429))
async def feedback_submit(ctx: ToolContext, body: EntityFeedbackInput) -> FeedbackResponse:
    """Report a problem or suggestion about a card, set, release, manufacturer, segment or identification.

    ``entity_type`` is card, set, release, manufacturer, segment or identify; ``id`` is the entity's
    UUID (for identify, the ``requestId`` of one of your identifications). 50 submissions per day.
    """
    return await _submit(ctx, body.entity_type, uuid.UUID(body.id), body.feedback_type, body.message)


@tool("feedback_general", method="POST", path="/v1/feedback/general", status=201, extra_statuses=(409, 429))
async def feedback_general(ctx: ToolContext, body: GeneralFeedbackInput) -> FeedbackResponse:
    """Send general feedback about the service (not tied to an entity). 50 submissions per day."""
    return await _submit(ctx, "general", None, body.feedback_type, body.message)


@tool("feedback_get", method="GET", path="/v1/feedback/{id}", extra_statuses=(404,))
async def feedback_get(ctx: ToolContext, query: FeedbackGetQuery) -> FeedbackResponse:
    """Read one of your feedback submissions and its review status."""
    async with ctx.transaction() as s:
        row = await q.get(session=s, feedback_id=uuid.UUID(query.id))
        if row is None or row.api_key_id != ctx.key_id():  # another key's feedback is as if absent
            raise not_found("Feedback", query.id)
        record = _record(row)
    return FeedbackResponse(success=True, message="Feedback retrieved", data=record)
