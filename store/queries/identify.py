"""Queries behind card identification: candidate cards by OCR text (names through the search index), reference image features,
parallels, grading lookups, identifiable sets and stored identification requests.

A set is identifiable when ``card_set.is_identifiable`` is true; identification only ever matches
cards of identifiable sets (the same rule as ``GET /v1/identify/list/sets``).
"""

from __future__ import annotations

import asyncio
import itertools
import re
import uuid
from typing import Any

from sqlalchemy import and_, case, func, literal_column, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import (
    Attribute,
    Card,
    CardAttribute,
    CardImage,
    CardSet,
    Grade,
    GradingCompany,
    GradingType,
    IdentificationRequest,
    Manufacturer,
    Parallel,
    ParallelCard,
    Release,
    Segment,
)
from store.queries import catalog_version
from store.queries.demo import matchable
from store.queries._util import page
from store.search import CatalogIndex


def _card_select():
    return (
        select(Card, CardSet.name.label("set_name"), Release.name.label("release_name"), Release.year,
               Release.segment_id, Manufacturer.name.label("manufacturer"), Segment.name.label("segment_name"))
        .join(CardSet, CardSet.id == Card.set_id)
        .join(Release, Release.id == Card.release_id)
        .join(Segment, Segment.id == Release.segment_id)
        .outerjoin(Manufacturer, Manufacturer.id == Release.manufacturer_id)
        .where(CardSet.is_identifiable.is_(True), matchable(CardSet.demo, Release.segment_id))
    )


def _row(r: Any) -> dict[str, Any]:
    c: Card = r[0]
    return {"card": c, "set_name": r.set_name, "release_name": r.release_name, "year": r.year,
            "segment_id": r.segment_id, "manufacturer": r.manufacturer, "segment_name": r.segment_name}


async def resolve_segment(*, session: AsyncSession, ident: str) -> Segment | None:
    try:
        sid = uuid.UUID(ident)
    except ValueError:
        sid = None
    if sid is not None:
        seg = await session.get(Segment, sid)
        if seg is not None:
            return seg
    low = ident.strip().lower()
    stmt = select(Segment).where(or_(func.lower(Segment.name) == low, func.lower(Segment.shortname) == low))
    return (await session.scalars(stmt.limit(1))).first()


TEXT_HITS = 20  # cards of the search index's best names for a card's text (``candidates_by_text``)
TEXT_NAMES = 8  # distinct names among them whose cards become candidates


async def candidates_by_text(*, session: AsyncSession, index: CatalogIndex, read: str, segment_id: uuid.UUID | None,
                             numbers: list[str] = (), limit: int = 300) -> list[dict[str, Any]]:
    """Every card of the names the catalog search index finds in ``read`` (lines read off a card: other
    words, misread letters; ``CatalogIndex.cards_in_text``), those numbered one of ``numbers`` (lowercase)
    first: the index names the cards, SQL keeps those of identifiable sets (and of the segment) and brings
    all of a name's cards, since a name's cards score alike in the index and ``TEXT_HITS`` would cut some."""
    seg = str(segment_id) if segment_id is not None else None
    hits = await asyncio.to_thread(index.cards_in_text, read, segment=seg, limit=TEXT_HITS)
    names = list(dict.fromkeys(h.name for h in hits if h.name))[:TEXT_NAMES]
    if not names:
        return []
    # the names in the index's order (a common name's hundreds of cards must not crowd out the name read)
    rank = case({n: i for i, n in enumerate(names)}, value=Card.name, else_=len(names))
    stmt = _card_select().where(Card.name.in_(names))
    if numbers:
        stmt = stmt.order_by(case((func.lower(Card.number).in_(list(numbers)), 0), else_=1), rank)
    else:
        stmt = stmt.order_by(rank)
    if segment_id is not None:
        stmt = stmt.where(Release.segment_id == segment_id)
    return [_row(r) for r in (await session.execute(stmt.limit(limit))).all()]


async def candidates_by_trigrams(*, session: AsyncSession, words: list[str], segment_id: uuid.UUID | None,
                                 limit: int = 40) -> list[dict[str, Any]]:
    """Cards whose name shares the most letter triples with ``words`` (misread names: "Bayne Greizky"),
    through the name-search indexes: FTS5 trigram ``MATCH`` ranked by bm25 on SQLite, ``pg_trgm``
    similarity on PostgreSQL (cut at 0.2). Other engines answer nothing."""
    grams = sorted({w[i:i + 3] for w in words for i in range(len(w) - 2)})
    if not grams:
        return []
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        q = " OR ".join('"' + g.replace('"', '""') + '"' for g in grams)
        rows = await session.execute(text("SELECT rowid FROM card_fts WHERE card_fts MATCH :q ORDER BY rank LIMIT :n"),
                                     {"q": q, "n": limit * 3})
        rowids = [r[0] for r in rows.all()]
        if not rowids:
            return []
        stmt = _card_select().where(literal_column('"card".rowid').in_(rowids))
    elif dialect == "postgresql":
        # as lenient as SQLite's any-shared-triple match: a name read half wrong ("Prwl Slrenes" for
        # Paul Skenes) has a similarity of ~0.25, under pg_trgm's default cut of 0.3 (this
        # transaction only; the result is still ranked by similarity and limited)
        await session.execute(text("SET LOCAL pg_trgm.similarity_threshold = 0.2"))
        joined = " ".join(words)
        sim = func.similarity(func.lower(Card.name), joined)
        stmt = _card_select().where(func.lower(Card.name).op("%")(joined)).order_by(sim.desc())
    else:
        return []
    if segment_id is not None:
        stmt = stmt.where(Release.segment_id == segment_id)
    return [_row(r) for r in (await session.execute(stmt.limit(limit))).all()]


async def candidates_by_names(*, session: AsyncSession, names: list[str], segment_id: uuid.UUID | None,
                              limit: int = 300) -> list[dict[str, Any]]:
    """Cards named exactly one of ``names`` (as the catalog writes them; a name's cards may be many:
    117 Pikachu in the Pokemon catalog)."""
    if not names:
        return []
    stmt = _card_select().where(Card.name.in_(names))
    if segment_id is not None:
        stmt = stmt.where(Release.segment_id == segment_id)
    return [_row(r) for r in (await session.execute(stmt.limit(limit))).all()]


async def candidates_by_names_and_numbers(*, session: AsyncSession, names: list[str], numbers: list[str],
                                          segment_id: uuid.UUID | None) -> list[dict[str, Any]]:
    """Cards named one of ``names`` and numbered one of ``numbers`` (lowercase, as ``numbers`` in
    ``candidates_by_words``): a name's card of the number read, when a lookup returned only some of
    that name's cards."""
    if not names or not numbers:
        return []
    stmt = _card_select().where(Card.name.in_(names), func.lower(Card.number).in_(list(numbers)))
    if segment_id is not None:
        stmt = stmt.where(Release.segment_id == segment_id)
    return [_row(r) for r in (await session.execute(stmt.limit(100))).all()]


async def candidates_by_years_and_numbers(*, session: AsyncSession, years: list[str], numbers: list[str],
                                          segment_id: uuid.UUID | None) -> list[dict[str, Any]]:
    """Cards numbered one of ``numbers`` (lowercase, as in ``candidates_by_words``) in a release of one
    of ``years`` (a release year's first four characters: "1989", "2023" of "2023-24"): the cards a
    header read whole may name when the name is not read ("1989 Bowman Baseball Base Set #261" over
    an illegible three-player name). The caller keeps those whose release was read too."""
    if not years or not numbers:
        return []
    stmt = _card_select().where(func.substr(Release.year, 1, 4).in_(list(years)),
                                func.lower(Card.number).in_(list(numbers)))
    if segment_id is not None:
        stmt = stmt.where(Release.segment_id == segment_id)
    return [_row(r) for r in (await session.execute(stmt.limit(200))).all()]


async def candidates_by_number_prefixes(*, session: AsyncSession, prefixes: list[str], segment_id: uuid.UUID | None,
                                        limit: int = 300) -> list[dict[str, Any]]:
    """Cards whose number is one of ``prefixes`` (lowercase letters) and digits, a hyphen or not between
    ("McH-05" for "mch"): the class of cards a number's prefix read names (a set's holograms)."""
    # each prefix in every case as a range of the number index (a lower() scan of a large catalog took 0.4 s)
    forms = sorted({"".join(cs) for p in prefixes for cs in itertools.product(*((ch.lower(), ch.upper()) for ch in p))})
    if not prefixes or len(forms) > 512:
        return []
    stmt = _card_select().where(or_(*(and_(Card.number >= f, Card.number < f[:-1] + chr(ord(f[-1]) + 1))
                                      for f in forms)))
    if segment_id is not None:
        stmt = stmt.where(Release.segment_id == segment_id)
    shape = re.compile(rf"({'|'.join(map(re.escape, prefixes))})[- ]?\d+")
    rows = [_row(r) for r in (await session.execute(stmt.limit(limit * 2))).all()]
    return [r for r in rows if shape.fullmatch((r["card"].number or "").lower())][:limit]


class CandidateQueries:
    """The candidate lookups of one transaction, bound to a segment or none: what identification's
    ``CandidateLookup`` asks for (structurally; the store does not import the engine). Names in text go
    through the catalog search index (``index``); exact names, numbers, years and ids through SQL."""

    def __init__(self, session: AsyncSession, index: CatalogIndex, segment_id: uuid.UUID | None = None):
        self.session, self.index, self.segment_id = session, index, segment_id

    async def by_text(self, read, *, numbers=()) -> list[dict[str, Any]]:
        return await candidates_by_text(session=self.session, index=self.index, read=read,
                                        segment_id=self.segment_id, numbers=list(numbers))

    async def by_trigrams(self, words) -> list[dict[str, Any]]:
        return await candidates_by_trigrams(session=self.session, words=list(words), segment_id=self.segment_id)

    async def by_names(self, names) -> list[dict[str, Any]]:
        return await candidates_by_names(session=self.session, names=list(names), segment_id=self.segment_id)

    async def by_names_and_numbers(self, names, numbers) -> list[dict[str, Any]]:
        return await candidates_by_names_and_numbers(session=self.session, names=list(names),
                                                     numbers=list(numbers), segment_id=self.segment_id)

    async def by_years_and_numbers(self, years, numbers) -> list[dict[str, Any]]:
        return await candidates_by_years_and_numbers(session=self.session, years=list(years),
                                                     numbers=list(numbers), segment_id=self.segment_id)

    async def by_number_prefixes(self, prefixes) -> list[dict[str, Any]]:
        return await candidates_by_number_prefixes(session=self.session, prefixes=list(prefixes),
                                                   segment_id=self.segment_id)

    async def by_ids(self, ids) -> list[dict[str, Any]]:
        return await cards_by_ids(session=self.session, ids=list(ids), segment_id=self.segment_id)


async def name_index_version(*, session: AsyncSession) -> tuple[int, int]:
    """Changes when cards are added or removed or the catalog's version is raised (imports raise it)."""
    count = (await session.execute(select(func.count(Card.id)))).scalar_one()
    return int(count), await catalog_version.current(session=session)


async def identifiable_names(*, session: AsyncSession) -> list[tuple[str, uuid.UUID]]:
    """Every distinct (card name, segment id) of the identifiable sets."""
    stmt = (select(Card.name, Release.segment_id).join(CardSet, CardSet.id == Card.set_id)
            .join(Release, Release.id == Card.release_id)
            .where(CardSet.is_identifiable.is_(True), matchable(CardSet.demo, Release.segment_id)).distinct())
    return [(r[0], r[1]) for r in (await session.execute(stmt)).all()]


async def cards_by_ids(*, session: AsyncSession, ids: list[uuid.UUID], segment_id: uuid.UUID | None = None
                       ) -> list[dict[str, Any]]:
    if not ids:
        return []
    stmt = _card_select().where(Card.id.in_(ids))
    if segment_id is not None:
        stmt = stmt.where(Release.segment_id == segment_id)
    return [_row(r) for r in (await session.execute(stmt)).all()]


async def attributes_of(*, session: AsyncSession, card_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[str]]:
    out: dict[uuid.UUID, list[str]] = {}
    if not card_ids:
        return out
    rows = await session.execute(
        select(CardAttribute.card_id, Attribute.name).join(Attribute, Attribute.id == CardAttribute.attribute_id)
        .where(CardAttribute.card_id.in_(card_ids)).order_by(Attribute.name))
    for cid, name in rows.all():
        out.setdefault(cid, []).append(name)
    return out


async def image_index_version(*, session: AsyncSession) -> tuple[int, Any]:
    row = (await session.execute(
        select(func.count(CardImage.id), func.max(CardImage.created_at), func.count(CardImage.features)).where(CardImage.phash.is_not(None))
    )).one()
    return int(row[0]), (row[1], int(row[2]))


async def image_features(*, session: AsyncSession) -> list[tuple[uuid.UUID, str, dict | None]]:
    """(card id, phash, features) of every reference image with features, identifiable sets only."""
    stmt = (select(CardImage.card_id, CardImage.phash, CardImage.features)
            .join(Card, Card.id == CardImage.card_id).join(CardSet, CardSet.id == Card.set_id)
            .join(Release, Release.id == Card.release_id)
            .where(CardImage.phash.is_not(None), CardSet.is_identifiable.is_(True),
                   matchable(CardSet.demo, Release.segment_id)))
    return [(r[0], r[1], r[2]) for r in (await session.execute(stmt)).all()]


async def images_without_features(*, session: AsyncSession, limit: int = 200) -> list[CardImage]:
    stmt = select(CardImage).where(CardImage.phash.is_(None)).order_by(CardImage.id).limit(limit)
    return list((await session.scalars(stmt)).all())


async def parallels_for(*, session: AsyncSession, card: Card) -> list[Parallel]:
    """The parallels a card can come in: its set's full parallels and partial ones listing it."""
    stmt = (select(Parallel).where(Parallel.set_id == card.set_id)
            .where(or_(Parallel.is_partial.is_(False),
                       Parallel.id.in_(select(ParallelCard.parallel_id).where(ParallelCard.card_id == card.id))))
            .order_by(Parallel.sort_order, Parallel.name))
    return list((await session.scalars(stmt)).all())


async def grading(*, session: AsyncSession, abbreviation: str, grade: str | None
                  ) -> tuple[GradingCompany | None, Grade | None]:
    company = (await session.scalars(
        select(GradingCompany).where(func.upper(GradingCompany.abbreviation) == abbreviation.upper()))).first()
    if company is None or grade is None:
        return company, None
    rows = (await session.execute(
        select(Grade, GradingType.name).join(GradingType, GradingType.id == Grade.type_id)
        .where(and_(GradingType.company_id == company.id, Grade.value == grade)))).all()
    rows.sort(key=lambda r: (r[1] != "Card", r[1]))
    return company, rows[0][0] if rows else None


async def identifiable_sets(*, session: AsyncSession, skip: int, take: int) -> tuple[list[Any], int]:
    stmt = (select(Release.year, Release.name, Segment.name, CardSet.name, CardSet.id)
            .join(Release, Release.id == CardSet.release_id).join(Segment, Segment.id == Release.segment_id)
            .where(CardSet.is_identifiable.is_(True))
            .order_by(Segment.name, Release.year.desc(), Release.name, CardSet.name, CardSet.id))
    return await page(session, stmt, skip=skip, take=take)


async def set_identifiable(*, session: AsyncSession, set_id: uuid.UUID) -> bool | None:
    s = await session.get(CardSet, set_id)
    return None if s is None else bool(s.is_identifiable)


async def mark_identifiable(*, session: AsyncSession, on: bool, set_ids: list[uuid.UUID] = (),
                            release_ids: list[uuid.UUID] = (), segment_ids: list[uuid.UUID] = ()) -> tuple[int, int]:
    """Photo identification turned on or off for the sets given, every set of the releases given and
    every set of the segments given. Returns ``(sets named, sets changed)``."""
    conds = []
    if set_ids:
        conds.append(CardSet.id.in_(list(set_ids)))
    if release_ids:
        conds.append(CardSet.release_id.in_(list(release_ids)))
    if segment_ids:
        conds.append(CardSet.release_id.in_(select(Release.id).where(Release.segment_id.in_(list(segment_ids)))))
    if not conds:
        return 0, 0
    named = (await session.execute(select(func.count(CardSet.id)).where(or_(*conds)))).scalar_one()
    changed = await session.execute(update(CardSet).where(or_(*conds), CardSet.is_identifiable.is_not(on))
                                    .values(is_identifiable=on).execution_options(synchronize_session=False))
    return int(named), int(changed.rowcount)


async def save_request(*, session: AsyncSession, request_id: uuid.UUID, key_id: uuid.UUID,
                       segment_id: uuid.UUID | None, detected: int, ms: float, result: dict) -> None:
    session.add(IdentificationRequest(id=request_id, api_key_id=key_id, segment_id=segment_id,
                                      detected_count=detected, processing_ms=ms, result=result))
    await session.flush()
