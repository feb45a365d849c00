"""Checks that a collection entry's catalog references exist and fit together."""

from __future__ import annotations

import uuid
from typing import NamedTuple

from sqlalchemy.ext.asyncio import AsyncSession

from store.queries import collections as q
from tools.errors import ServiceError, invalid, not_found


class Ref(NamedTuple):
    card_id: uuid.UUID
    parallel_id: uuid.UUID | None
    grade_id: uuid.UUID | None


async def check_refs(s: AsyncSession, refs: list[Ref]) -> list[ServiceError | None]:
    """Per reference: None when fine, else the error (404 unknown card/parallel/grade, 400 mismatch).

    A parallel must belong to the card's set; a partial parallel must also list the card.
    """
    cards = await q.existing_cards(session=s, card_ids={r.card_id for r in refs})
    pars = await q.existing_parallels(session=s, ids={r.parallel_id for r in refs if r.parallel_id})
    grades = await q.existing_grades(session=s, ids={r.grade_id for r in refs if r.grade_id})
    partial_pairs = {(r.parallel_id, r.card_id) for r in refs
                     if r.parallel_id in pars and pars[r.parallel_id][1]}
    members = await q.partial_members(session=s, pairs=partial_pairs)
    out: list[ServiceError | None] = []
    for r in refs:
        if r.card_id not in cards:
            out.append(not_found("Card", r.card_id))
        elif r.parallel_id is not None and r.parallel_id not in pars:
            out.append(not_found("Parallel", r.parallel_id))
        elif r.grade_id is not None and r.grade_id not in grades:
            out.append(not_found("Grade", r.grade_id))
        elif r.parallel_id is not None and pars[r.parallel_id][0] != cards[r.card_id]:
            out.append(invalid(f"Parallel {r.parallel_id} does not belong to the set of card {r.card_id}"))
        elif r.parallel_id is not None and pars[r.parallel_id][1] and (r.parallel_id, r.card_id) not in members:
            out.append(invalid(f"Partial parallel {r.parallel_id} does not include card {r.card_id}"))
        else:
            out.append(None)
    return out
