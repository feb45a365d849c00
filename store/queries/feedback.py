"""Feedback queries: entity existence, the duplicate window, the daily count, a per-key lock."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import (
    ApiKey,
    Card,
    CardSet,
    Feedback,
    IdentificationRequest,
    Manufacturer,
    Release,
    Segment,
)

ENTITY_MODELS = {"card": Card, "set": CardSet, "release": Release, "manufacturer": Manufacturer, "segment": Segment}


async def entity_exists(*, session: AsyncSession, entity_type: str, entity_id: uuid.UUID, key_id: uuid.UUID) -> bool:
    if entity_type == "identify":
        stmt = select(IdentificationRequest.id).where(IdentificationRequest.id == entity_id,
                                                      IdentificationRequest.api_key_id == key_id)
        return (await session.scalar(stmt)) is not None
    model = ENTITY_MODELS[entity_type]
    return (await session.scalar(select(model.id).where(model.id == entity_id))) is not None


async def lock_key(*, session: AsyncSession, key_id: uuid.UUID) -> None:
    """Serialise submissions of one key across processes; call first in the transaction.

    PostgreSQL: an advisory transaction lock on the key. SQLite: a no-op write to the key's row
    takes the database write lock before anything is read (``BEGIN IMMEDIATE`` semantics), so a
    second process waits (busy timeout) and then reads the committed rows.
    """
    if session.bind.dialect.name == "postgresql":
        signed = int.from_bytes(key_id.bytes[:8], "big", signed=True)
        await session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": signed})
    else:
        await session.execute(update(ApiKey).where(ApiKey.id == key_id).values(name=ApiKey.name))


async def count_since(*, session: AsyncSession, key_id: uuid.UUID, since: datetime) -> int:
    stmt = select(func.count()).select_from(Feedback).where(Feedback.api_key_id == key_id, Feedback.created_at >= since)
    return int((await session.scalar(stmt)) or 0)


async def duplicate_exists(*, session: AsyncSession, key_id: uuid.UUID, entity_type: str, entity_id: uuid.UUID | None,
                           message: str, since: datetime) -> bool:
    stmt = select(Feedback.id).where(Feedback.api_key_id == key_id, Feedback.entity_type == entity_type,
                                     Feedback.message == message, Feedback.created_at >= since)
    stmt = stmt.where(Feedback.entity_id.is_(None) if entity_id is None else Feedback.entity_id == entity_id)
    return (await session.scalar(stmt.limit(1))) is not None


async def get(*, session: AsyncSession, feedback_id: uuid.UUID) -> Feedback | None:
    return await session.get(Feedback, feedback_id)
