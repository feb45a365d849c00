"""A collector case that may write (``allowWrites``) leaves the eval key's collection and want list as it found
them: each question is judged on the same data, whatever ran before it (a want-list removal asked in one file
otherwise changed every later file's answers)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import delete, insert, select

from store.models import Collection, CollectionCard, WantList, WantListCard

# the rows a write may add, drop or change, each with its owner's column and the owner table keyed by API key
OWNED = ((WantListCard, WantListCard.list_id, WantList), (CollectionCard, CollectionCard.collection_id, Collection))


async def _rows(session: Any, key_id: Any) -> dict[Any, dict[Any, dict[str, Any]]]:
    out = {}
    for model, owner_col, owner in OWNED:
        owners = select(owner.id).where(owner.api_key_id == key_id)
        rows = (await session.execute(select(model.__table__).where(owner_col.in_(owners)))).mappings().all()
        out[model] = {r["id"]: dict(r) for r in rows}
    return out


@asynccontextmanager
async def kept(sessions: Any, key_id: Any) -> AsyncIterator[None]:
    """Put back, on leaving, every want-list and collection row of ``key_id`` as it was on entering."""
    async with sessions() as s:
        before = await _rows(s, key_id)
    try:
        yield
    finally:
        async with sessions() as s, s.begin():
            after = await _rows(s, key_id)
            for model, _, _ in OWNED:
                was, now = before[model], after[model]
                changed = [i for i in now if i not in was or now[i] != was[i]]
                if changed:
                    await s.execute(delete(model).where(model.id.in_(changed)))
                back = [was[i] for i in was if i not in now or now[i] != was[i]]
                if back:
                    await s.execute(insert(model), back)
