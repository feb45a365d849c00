"""Users' entries of demo cards, moved to the real card each demo card copies before the demo goes.

A demo card's *twin* is the one real card (not demo) of the same segment, name (any case), number and
release year in a release named like the demo's (its name, perhaps with more words after: "2024
Topps Chrome" -> "2024 Topps Chrome Baseball"); when several qualify, the one in a set of the same
name, if that leaves exactly one. Collection entries, want-list items and feedback of a card with a twin are re-pointed
to it (binder placements and photos hang from the collection entry and follow it); an entry's demo
parallel becomes the twin's parallel of the same name, or, failing that, the one whose name holds
all its words with the fewest others ("Shadowless" -> "Shadowless Holo"); with none the entry moves
as the base card and is listed. Entries of demo cards without a twin are listed and go with the demo.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from store.models import (
    Card,
    CardSet,
    Collection,
    CollectionCard,
    Feedback,
    Parallel,
    ParallelCard,
    Release,
    WantList,
    WantListCard,
)


@dataclass
class Plan:
    twins: dict[uuid.UUID, uuid.UUID] = field(default_factory=dict)  # demo card -> real card
    moved: list[dict[str, Any]] = field(default_factory=list)  # entries re-pointed
    removed: list[dict[str, Any]] = field(default_factory=list)  # entries without a twin (go with the demo)
    moves: list[tuple[str, uuid.UUID, uuid.UUID, uuid.UUID | None]] = field(default_factory=list)

    def counts(self) -> dict[str, Any]:
        def n(rows: list[dict[str, Any]], kind: str) -> int:
            return sum(1 for r in rows if r["kind"] == kind)

        return {"moved_collection_entries": n(self.moved, "collection"),
                "moved_want_list_entries": n(self.moved, "want list"),
                "removed_collection_entries": n(self.removed, "collection"),
                "removed_want_list_entries": n(self.removed, "want list"),
                "moved": self.moved, "removed": self.removed}


async def _twins(session: AsyncSession, demo_ids: set[uuid.UUID]) -> dict[uuid.UUID, uuid.UUID]:
    if not demo_ids:
        return {}
    d, r = aliased(Card), aliased(Card)
    dr, rr = aliased(Release), aliased(Release)
    ds, rs = aliased(CardSet), aliased(CardSet)
    stmt = (select(d.id, r.id, dr.name, rr.name, ds.name, rs.name)
            .join(dr, dr.id == d.release_id).join(ds, ds.id == d.set_id)
            .join(r, and_(func.lower(r.name) == func.lower(d.name), r.number == d.number, r.demo.is_(False),
                          r.variation_of.is_(None)))
            .join(rr, and_(rr.id == r.release_id, rr.segment_id == dr.segment_id, rr.year == dr.year))
            .join(rs, rs.id == r.set_id)
            .where(d.id.in_(demo_ids)))
    found: dict[uuid.UUID, list[tuple[uuid.UUID, bool]]] = {}
    for demo_id, real_id, demo_rel, real_rel, demo_set, real_set in (await session.execute(stmt)).all():
        if real_rel.lower().startswith(demo_rel.lower()):  # "2024 Topps Chrome" -> "... Chrome Baseball"
            found.setdefault(demo_id, []).append((real_id, demo_set.lower() == real_set.lower()))
    out = {}
    for demo_id, cands in found.items():
        if len(cands) == 1:
            out[demo_id] = cands[0][0]
        elif len(same := [c for c, s in cands if s]) == 1:
            out[demo_id] = same[0]
    return out


async def _parallel_for(session: AsyncSession, demo_parallel: uuid.UUID | None, real: uuid.UUID,
                        cache: dict[tuple[Any, Any], uuid.UUID | None]) -> tuple[uuid.UUID | None, str | None]:
    """(the twin's parallel for this demo parallel, the demo parallel's name when none matches)."""
    if demo_parallel is None:
        return None, None
    name = await session.scalar(select(Parallel.name).where(Parallel.id == demo_parallel))
    if (demo_parallel, real) not in cache:
        set_id = select(Card.set_id).where(Card.id == real).scalar_subquery()
        linked = select(ParallelCard.parallel_id).where(ParallelCard.card_id == real)
        pars = (await session.execute(select(Parallel.id, Parallel.name).where(
            Parallel.set_id == set_id, or_(Parallel.is_partial.is_(False), Parallel.id.in_(linked))))).all()
        words = set((name or "").lower().split())
        exact = [pid for pid, pname in pars if pname.lower() == (name or "").lower()]
        holding = sorted((len(pname.split()), pid) for pid, pname in pars if words <= set(pname.lower().split()))
        if exact:
            cache[(demo_parallel, real)] = exact[0]
        elif holding and (len(holding) == 1 or holding[0][0] < holding[1][0]):
            cache[(demo_parallel, real)] = holding[0][1]
        else:
            cache[(demo_parallel, real)] = None
    found = cache[(demo_parallel, real)]
    return found, (None if found else name)


async def plan(*, session: AsyncSession) -> Plan:
    """What ``apply`` would do, for the demo cards users' entries point at."""
    out = Plan()
    coll = (await session.execute(
        select(CollectionCard.id, CollectionCard.card_id, CollectionCard.parallel_id, Collection.name, Card.name)
        .join(Collection, Collection.id == CollectionCard.collection_id).join(Card, Card.id == CollectionCard.card_id)
        .where(Card.demo.is_(True)).order_by(Collection.name, Card.name, CollectionCard.id))).all()
    wants = (await session.execute(
        select(WantListCard.id, WantListCard.card_id, WantListCard.list_id, WantList.name, Card.name)
        .join(WantList, WantList.id == WantListCard.list_id).join(Card, Card.id == WantListCard.card_id)
        .where(Card.demo.is_(True)).order_by(WantList.name, Card.name, WantListCard.id))).all()
    notes = (await session.execute(select(Feedback.entity_id).join(Card, Card.id == Feedback.entity_id)
                                   .where(Feedback.entity_type == "card", Card.demo.is_(True)))).scalars()
    out.twins = await _twins(session, {r[1] for r in coll} | {r[1] for r in wants} | {n for n in notes if n})
    cache: dict[tuple[Any, Any], uuid.UUID | None] = {}
    for entry, card, par, where, name in coll:
        row = {"kind": "collection", "in": where, "card": name}
        real = out.twins.get(card)
        if real is None:
            out.removed.append(row)
            continue
        new_par, lost = await _parallel_for(session, par, real, cache)
        out.moved.append(row | ({"without_parallel": lost} if lost else {}))
        out.moves.append(("collection", entry, real, new_par))
    for entry, card, list_id, where, name in wants:
        row = {"kind": "want list", "in": where, "card": name}
        real = out.twins.get(card)
        if real is None:
            out.removed.append(row)
        else:
            out.moved.append(row)
            out.moves.append(("want list", entry, real, list_id))
    return out


async def apply(*, session: AsyncSession, plan: Plan) -> None:
    for kind, entry, real, extra in plan.moves:
        if kind == "collection":
            await session.execute(update(CollectionCard).where(CollectionCard.id == entry)
                                  .values(card_id=real, parallel_id=extra))
            continue
        there = await session.scalar(select(WantListCard.id).where(WantListCard.list_id == extra,
                                                                   WantListCard.card_id == real))
        if there is not None:  # the list already wants the real card: one item is enough
            await session.execute(delete(WantListCard).where(WantListCard.id == entry))
        else:
            await session.execute(update(WantListCard).where(WantListCard.id == entry).values(card_id=real))
    for demo_id, real in plan.twins.items():
        await session.execute(update(Feedback).where(Feedback.entity_type == "card", Feedback.entity_id == demo_id)
                              .values(entity_id=real))
