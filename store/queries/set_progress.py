"""Set completion of one collection, as aggregate SQL over the catalog's base cards.

Base cards are the set's cards that are not variations (``variation_of IS NULL``). A base card is
owned when the collection holds an unsold entry for it (any parallel, any grade). A set is "in the
collection" when the collection holds an unsold entry for any card of it.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

from sqlalchemy import BigInteger, Uuid, and_, bindparam, case, column, func, literal, or_, select, table
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Card, CardSet, CollectionCard, Parallel, ParallelCard, Release

CC = CollectionCard


def _held(collection_id: uuid.UUID) -> Any:
    return and_(CC.collection_id == collection_id,
                or_(CC.sold_price_cents.is_(None), CC.sold_date.is_(None)))


# per-set base-card counts and raw price sums, kept by triggers (migration collection_0003; not a model)
SET_STATS = table("set_base_stats", column("set_id", Uuid), column("base_cards", BigInteger),
                  column("numbered_base_cards", BigInteger), column("priced_base_cards", BigInteger),
                  column("raw_base_cents", BigInteger))


@functools.lru_cache(maxsize=None)
def _per_set_statement(one_set: bool) -> Any:
    """The set progress statement, built once (bound: the collection ``c``, the set ``s``)."""
    is_base = CC.is_base.is_(True)
    # one row per card (every other column is the card's), grouped in the order of
    # ix_collection_card_sets (collection, set, card, ...), which holds all the columns read
    hc = select(CC.set_id.label("set_id"), func.max(case((is_base, 1), else_=0)).label("base"),
                func.max(CC.numbered_to).label("numbered_to"), func.max(case((is_base, CC.raw_cents))).label("price")
                ).where(_held(bindparam("c", type_=Uuid)))
    if one_set:
        hc = hc.where(CC.set_id == bindparam("s", type_=Uuid))
    hc = hc.group_by(CC.set_id, CC.card_id).cte("hc").prefix_with("MATERIALIZED")
    is_base = hc.c.base == 1
    owned = (select(hc.c.set_id, func.sum(hc.c.base).label("owned"),
                    func.count(case((is_base, hc.c.numbered_to))).label("numbered"),
                    func.coalesce(func.sum(hc.c.price), 0).label("cost"), func.count(hc.c.price).label("n"))
             .group_by(hc.c.set_id).subquery("owned"))
    st = SET_STATS
    return (select(owned.c.set_id, st.c.base_cards.label("total"), st.c.numbered_base_cards.label("numbered"),
                   st.c.raw_base_cents.label("cost"), st.c.priced_base_cards.label("n"),
                   owned.c.owned, owned.c.numbered.label("owned_numbered"), owned.c.cost.label("owned_cost"),
                   owned.c.n.label("owned_priced"), CardSet.name.label("set_name"),
                   Release.name.label("release_name"), Release.year.label("release_year"))
            .select_from(owned).join(st, st.c.set_id == owned.c.set_id)
            .join(CardSet, CardSet.id == owned.c.set_id).join(Release, Release.id == CardSet.release_id)
            .where(st.c.base_cards > 0))


async def per_set(*, session: AsyncSession, collection_id: uuid.UUID, set_id: uuid.UUID | None = None
                  ) -> list[dict[str, Any]]:
    """Per set in the collection (or only ``set_id``): totals, owned count, cost and scarcity of the
    missing base cards.

    One statement, driven by the collection, never by the catalog's cards:

    * ``hc``: the collection's distinct held cards with their set, base flag, serial number and raw
      price, all carried on the entries (migration ``collection_0002``); its sets are the sets in the
      collection;
    * ``set_base_stats``: per set, its base cards, the serial-numbered ones, the priced ones and their
      raw prices summed (migration ``collection_0003``): one row per set in the collection;
    * "missing" figures are catalog minus owned.
    """
    params = {"c": collection_id} if set_id is None else {"c": collection_id, "s": set_id}
    out = []
    for r in (await session.execute(_per_set_statement(set_id is not None), params)).all():
        m = r._mapping
        total_priced, owned_priced = int(m["n"] or 0), int(m["owned_priced"] or 0)
        missing_priced = total_priced - owned_priced
        cost = int(m["cost"] or 0)
        out.append({
            "set_id": m["set_id"], "set_name": m["set_name"], "release_name": m["release_name"],
            "release_year": m["release_year"], "total": int(m["total"]), "owned": int(m["owned"] or 0),
            "missing_cost": (cost - int(m["owned_cost"] or 0)) if missing_priced else None,
            "missing_priced": missing_priced,
            "missing_numbered": int(m["numbered"] or 0) - int(m["owned_numbered"] or 0),
            "avg_price": cost / total_priced if total_priced else None,
        })
    return out


def _holds(collection_id: uuid.UUID, parallel_id: uuid.UUID | None = None) -> Any:
    """EXISTS: the collection holds an unsold copy of ``Card`` (in ``parallel_id`` if given); one probe
    of the (collection, card) index per catalog card."""
    stmt = select(literal(1)).select_from(CC).where(_held(collection_id), CC.card_id == Card.id)
    if parallel_id is not None:
        stmt = stmt.where(CC.parallel_id == parallel_id)
    return stmt.exists()


async def missing_cards(*, session: AsyncSession, collection_id: uuid.UUID, set_ids: list[uuid.UUID]
                        ) -> dict[uuid.UUID, list[uuid.UUID]]:
    """The base cards of each listed set that the collection does not hold, in card-number order."""
    if not set_ids:
        return {}
    rows = (await session.execute(
        select(Card.set_id, Card.id)
        .where(Card.set_id.in_(set_ids), Card.variation_of.is_(None), ~_holds(collection_id))
        .order_by(Card.set_id, Card.number_sort, Card.number, Card.id)
    )).all()
    out: dict[uuid.UUID, list[uuid.UUID]] = {s: [] for s in set_ids}
    for set_id, card_id in rows:
        out[set_id].append(card_id)
    return out


async def set_in_collection(*, session: AsyncSession, collection_id: uuid.UUID, set_id: uuid.UUID) -> bool:
    found = await session.scalar(select(literal(1)).select_from(CC).where(_held(collection_id), CC.set_id == set_id).limit(1))
    return found is not None


async def parallel(*, session: AsyncSession, set_id: uuid.UUID, parallel_id: uuid.UUID) -> Parallel | None:
    return await session.scalar(select(Parallel).where(Parallel.id == parallel_id, Parallel.set_id == set_id))


async def set_header(*, session: AsyncSession, set_id: uuid.UUID) -> Any:
    return (await session.execute(
        select(CardSet.id, CardSet.name, Release.name, Release.year).join(Release, Release.id == CardSet.release_id)
        .where(CardSet.id == set_id))).first()


async def parallel_progress(*, session: AsyncSession, collection_id: uuid.UUID, set_id: uuid.UUID,
                            par: Parallel) -> tuple[int, int, list[uuid.UUID]]:
    """(total, owned as this parallel, missing ids) over the base cards the parallel applies to."""
    stmt = select(Card.id, _holds(collection_id, par.id)).where(Card.set_id == set_id, Card.variation_of.is_(None))
    if par.is_partial:
        stmt = stmt.where(Card.id.in_(select(ParallelCard.card_id).where(ParallelCard.parallel_id == par.id)))
    rows = (await session.execute(stmt.order_by(Card.number_sort, Card.number, Card.id))).all()
    missing = [r[0] for r in rows if not r[1]]
    return len(rows), len(rows) - len(missing), missing
