"""API keys: created with a random secret that is shown once; only its SHA-256 hash is stored."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from datetime import datetime, timezone

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import ApiKey

KEY_PREFIX = "cw_"


def hash_key(plaintext: str) -> str:
    return hashlib.sha256(plaintext.encode("utf-8")).hexdigest()


async def create(*, session: AsyncSession, name: str | None = None) -> tuple[ApiKey, str]:
    plaintext = KEY_PREFIX + secrets.token_urlsafe(32)
    row = ApiKey(id=uuid.uuid4(), name=name, key_hash=hash_key(plaintext), prefix=plaintext[:10],
                 created_at=datetime.now(timezone.utc))
    session.add(row)
    await session.flush()
    return row, plaintext


async def find_active(*, session: AsyncSession, plaintext: str) -> ApiKey | None:
    if not plaintext or len(plaintext) > 200:
        return None
    row = await session.scalar(select(ApiKey).where(ApiKey.key_hash == hash_key(plaintext)))
    if row is None or row.revoked_at is not None:
        return None
    return row


async def all_keys(*, session: AsyncSession) -> list[ApiKey]:
    return list((await session.scalars(select(ApiKey).order_by(ApiKey.created_at))).all())


async def revoke(*, session: AsyncSession, key_id: uuid.UUID) -> ApiKey | None:
    row = await session.get(ApiKey, key_id)
    if row is not None and row.revoked_at is None:
        row.revoked_at = datetime.now(timezone.utc)
    return row
