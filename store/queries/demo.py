"""The demo catalog as a layer of its own: what it holds, what points at it, and its removal.

Demo rows are marked ``demo`` (release, set, card; migration demo_0001). Removing the demo deletes
its cards, sets and releases; the database cascades to their parallels, prices, price records,
populations, listings and images. Users' collections, lists and binders stay: their entries of demo
cards move to the real card each copies (``demo_twins``); only entries of demo cards with no real
twin go with those cards, and both are listed so the command can say so.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from store.queries import demo_twins
from store.models import (
    Attribute,
    Card,
    CardAttribute,
    CardSet,
    CollectionCard,
    FieldValue,
    Grade,
    GradingType,
    Manufacturer,
    MetadataField,
    PopulationCount,
    PopulationSync,
    Release,
    Segment,
    WantListCard,
)

# what the demo importer creates by name and shares with real imports; kept while real rows use them
SEGMENTS = ("Baseball", "Basketball", "Pokemon")
MANUFACTURERS = ("Topps", "Panini", "Wizards of the Coast")
ATTRIBUTES = ("RC", "AU")
FIELDS = ("RARITY",)


def matchable(demo: Any, segment_id: Any) -> Any:
    """A clause for matching real inputs (photos, titles): demo rows only count in a segment (game or
    sport) that has no real release, so the demo never stands in for a real card."""
    real = select(Release.segment_id).where(Release.demo.is_(False))
    return or_(demo.is_(False), segment_id.notin_(real))


async def present(*, session: AsyncSession) -> bool:
    return (await session.scalar(select(Release.id).where(Release.demo.is_(True)).limit(1))) is not None


async def has_real_cards(*, session: AsyncSession) -> bool:
    """Whether the catalog holds any card that is not demo data."""
    return (await session.scalar(select(Card.id).where(Card.demo.is_(False)).limit(1))) is not None


async def overlap(*, session: AsyncSession) -> dict[str, int]:
    """Demo cards per segment that now also holds real releases (the game or sport imported for real)."""
    real = select(Release.segment_id).where(Release.demo.is_(False))
    stmt = (select(Segment.name, func.count(Card.id)).join(Release, Release.segment_id == Segment.id)
            .join(Card, Card.release_id == Release.id)
            .where(Release.demo.is_(True), Segment.id.in_(real)).group_by(Segment.name).order_by(Segment.name))
    return {name: int(n) for name, n in (await session.execute(stmt)).all()}


async def summary(*, session: AsyncSession) -> dict[str, Any]:
    """How much demo data there is, how many users' entries point at demo cards, and which of them
    move to a real twin or go with the demo."""
    return {**await _counts(session), **(await demo_twins.plan(session=session)).counts()}


async def _counts(session: AsyncSession) -> dict[str, int]:
    demo_cards = select(Card.id).where(Card.demo.is_(True))

    async def count(stmt: Any) -> int:
        return int(await session.scalar(stmt) or 0)

    return {
        "releases": await count(select(func.count()).select_from(Release).where(Release.demo.is_(True))),
        "sets": await count(select(func.count()).select_from(CardSet).where(CardSet.demo.is_(True))),
        "cards": await count(select(func.count()).select_from(Card).where(Card.demo.is_(True))),
        "collection_entries": await count(select(func.count()).select_from(CollectionCard)
                                          .where(CollectionCard.card_id.in_(demo_cards))),
        "want_list_entries": await count(select(func.count()).select_from(WantListCard)
                                         .where(WantListCard.card_id.in_(demo_cards))),
    }


async def remove(*, session: AsyncSession) -> dict[str, Any]:
    """Move users' entries of demo cards to their real twins, then delete the demo catalog and everything
    hanging from it; returns ``summary`` as it was before."""
    moves = await demo_twins.plan(session=session)
    before = {**await _counts(session), **moves.counts()}
    await demo_twins.apply(session=session, plan=moves)
    ids = select(Release.id).where(Release.demo.is_(True))
    sets = select(CardSet.id).where(CardSet.demo.is_(True))
    cards = select(Card.id).where(Card.demo.is_(True))
    await session.execute(delete(FieldValue).where(or_(
        (FieldValue.entity_type == "card") & FieldValue.entity_id.in_(cards),
        (FieldValue.entity_type == "set") & FieldValue.entity_id.in_(sets),
        (FieldValue.entity_type == "release") & FieldValue.entity_id.in_(ids))))
    # cards, then sets, then releases: the per-set sums (set_base_stats) are kept by triggers that run
    # after each statement and need the set still there when its cards go
    await session.execute(delete(Card).where(Card.demo.is_(True)))  # cascades to prices, entries, images...
    await session.execute(delete(CardSet).where(CardSet.demo.is_(True)))  # parallels, population links
    await session.execute(delete(Release).where(Release.demo.is_(True)))
    await _drop_orphans(session)
    return before


async def _drop_orphans(session: AsyncSession) -> None:
    """The demo's own segments, manufacturers, attributes and fields when nothing real uses them, and
    the synthetic population sync marks of companies left without counts."""
    await session.execute(delete(Segment).where(
        Segment.name.in_(SEGMENTS), ~exists().where(Release.segment_id == Segment.id)))
    await session.execute(delete(Manufacturer).where(
        Manufacturer.name.in_(MANUFACTURERS), ~exists().where(Release.manufacturer_id == Manufacturer.id)))
    await session.execute(delete(Attribute).where(
        Attribute.short_name.in_(ATTRIBUTES), ~exists().where(CardAttribute.attribute_id == Attribute.id)))
    await session.execute(delete(MetadataField).where(
        MetadataField.key.in_(FIELDS), ~exists().where(FieldValue.field_id == MetadataField.id)))
    counted = (select(GradingType.company_id).join(Grade, Grade.type_id == GradingType.id)
               .join(PopulationCount, PopulationCount.grade_id == Grade.id))
    await session.execute(delete(PopulationSync).where(PopulationSync.synthetic.is_(True),
                                                       PopulationSync.company_id.notin_(counted)))


async def demo_card_ids(*, session: AsyncSession, card_ids: list[Any]) -> set[Any]:
    """Which of these cards belong to the demo catalog."""
    if not card_ids:
        return set()
    return set((await session.execute(select(Card.id).where(Card.id.in_(card_ids), Card.demo))).scalars())
