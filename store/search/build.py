"""Reading the catalog out of the database into a fresh index folder."""

from __future__ import annotations

import math
import uuid
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tantivy
from sqlalchemy import String, Uuid, func, literal_column, select, type_coerce
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import (
    Attribute,
    Card,
    CardAttribute,
    CardPrice,
    CardSet,
    FieldValue,
    Manufacturer,
    MetadataField,
    Parallel,
    ParallelCard,
    Release,
    Segment,
)
from store.queries.catalog_cards import PARALLEL_ORDER, shown_price
from store.search.fold import abbreviations, fold, number_key, season, year_tokens
from store.search.pages import PagesWriter
from store.search.schema import ENTITIES, NAMES, START_LETTERS, build_schema

MAX_IDS = 20
WRITER_HEAP = 1_000_000_000
SMALL_HEAP = 200_000_000  # the entities' own index (``ENTITIES``): a few percent of the documents


@dataclass
class _Group:
    """One distinct name of a kind: the entities carrying it."""
    label: str
    ids: list[tuple[int, str]] = field(default_factory=list)  # (sort key, id): newest first
    count: int = 0
    years: set[str | None] = field(default_factory=set)
    segments: Counter = field(default_factory=Counter)
    spellings: Counter = field(default_factory=Counter)


@dataclass
class CatalogRows:
    """The catalog as plain tuples, read in a handful of statements."""
    segments: dict[Any, str]
    makers: dict[Any, str]
    releases: dict[Any, tuple[str, str | None, Any, Any]]  # id -> name, year, segment_id, manufacturer_id
    sets: dict[Any, tuple[str, Any]]  # id -> name, release_id
    parallels: list[tuple[Any, str, Any, bool, int | None]]  # id, name, set_id, is_partial, numbered_to (shown order)
    partial_counts: dict[Any, int]
    partial_links: dict[Any, list[Any]]  # card id -> the partial parallels listing it
    attributes: dict[Any, list[str]]
    # id, name, number, variation_of, set_id, release_id, description
    cards: list[tuple[Any, str, str | None, Any, Any, Any, str | None]]
    # what a result page shows beside the card itself: metadata fields (by key, value), base prices
    fields: dict[Any, list[tuple[str, str]]] = field(default_factory=dict)
    prices: dict[Any, dict[str, int]] = field(default_factory=dict)
    # for the listing-title matcher: print runs, and demo cards a real release of their segment stands in for
    numbered_to: dict[Any, int] = field(default_factory=dict)
    stand_ins: set[Any] = field(default_factory=set)


class _Canon(dict):
    """Ids as the driver returns them (SQLite: 32 hex digits; PostgreSQL: its UUID) -> canonical text, the
    form ``str(uuid.UUID)`` writes, memoised (a card's set and release ids repeat); reading them as
    ``uuid.UUID`` first (SQLAlchemy's type) cost most of the read's CPU."""

    def __init__(self) -> None:
        super().__init__({None: None})

    def __missing__(self, value: Any) -> str:
        text = str(value).lower()
        if len(text) == 32:
            text = f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"
        elif len(text) != 36:
            text = str(uuid.UUID(text))
        self[value] = text
        return text


def _sel(*cols: Any) -> Any:
    """``select`` of ``cols``, ids as the driver returns them (``_Canon`` makes them text)."""
    return select(*(type_coerce(c, String) if isinstance(getattr(c, "type", None), Uuid) else c for c in cols))


async def read_catalog(session: AsyncSession) -> CatalogRows:
    canon = _Canon()
    conn = await session.connection()  # Core rows: no ORM loading per row

    async def rows(stmt, *at: int) -> list[tuple]:
        got = (await conn.execute(stmt)).all()
        if not got:
            return []
        cols: list[Any] = list(zip(*got, strict=True))
        for i in at:
            cols[i] = map(canon.__getitem__, cols[i])
        return list(zip(*cols, strict=True))

    attrs: dict[Any, list[str]] = defaultdict(list)
    links: dict[Any, list[Any]] = defaultdict(list)
    for pid, cid in await rows(_sel(ParallelCard.parallel_id, ParallelCard.card_id), 0, 1):
        links[cid].append(pid)
    fields: dict[Any, list[tuple[str, str]]] = defaultdict(list)
    for cid, key, value in await rows(_sel(FieldValue.entity_id, MetadataField.key, FieldValue.value)
                                      .join(MetadataField, MetadataField.id == FieldValue.field_id)
                                      .where(FieldValue.entity_type == "card")
                                      .order_by(FieldValue.entity_id, MetadataField.key, FieldValue.value), 0):
        fields[cid].append((key, value))
    prices: dict[Any, dict[str, int]] = defaultdict(dict)
    for cid, key, cents in await rows(_sel(CardPrice.card_id, CardPrice.price_key, CardPrice.value_cents)
                                      .where(CardPrice.parallel_id.is_(None)), 0):
        if shown_price(key):
            prices[cid][key] = cents
    real = select(Release.segment_id).where(Release.demo.is_(False))
    stand_ins = {r[0] for r in await rows(_sel(Card.id).join(Release, Release.id == Card.release_id)
                                          .where(Card.demo.is_(True), Release.segment_id.in_(real)), 0)}
    for cid, short, name in await rows(_sel(CardAttribute.card_id, Attribute.short_name, Attribute.name)
                                       .join(Attribute, Attribute.id == CardAttribute.attribute_id), 0):
        attrs[cid] += [short, name]
    return CatalogRows(
        segments=dict(await rows(_sel(Segment.id, Segment.name), 0)),
        makers=dict(await rows(_sel(Manufacturer.id, Manufacturer.name), 0)),
        releases={r[0]: tuple(r[1:]) for r in await rows(_sel(
            Release.id, Release.name, Release.year, Release.segment_id, Release.manufacturer_id), 0, 3, 4)},
        sets={r[0]: tuple(r[1:]) for r in await rows(_sel(CardSet.id, CardSet.name, CardSet.release_id), 0, 2)},
        parallels=await rows(_sel(Parallel.id, Parallel.name, Parallel.set_id, Parallel.is_partial, Parallel.numbered_to)
                             .order_by(*PARALLEL_ORDER), 0, 2),
        partial_counts=dict(await rows(_sel(ParallelCard.parallel_id, func.count())
                                       .group_by(ParallelCard.parallel_id), 0)),
        attributes=attrs,
        partial_links=links,
        numbered_to=dict(await rows(_sel(Card.id, Card.numbered_to).where(Card.numbered_to.is_not(None)), 0)),
        stand_ins=stand_ins,
        fields=fields,
        prices=prices,
        cards=await rows(_in_table_order(_sel(Card.id, Card.name, Card.number, Card.variation_of, Card.set_id,
                                              Card.release_id, Card.description), conn.dialect.name), 0, 3, 4, 5),
    )


def _in_table_order(stmt: Any, dialect: str) -> Any:
    """Cards in the order they lie in their table (the documents' order decides ties): SQLite reads them so
    already; PostgreSQL's scan of a large table may start where another scan is (``synchronize_seqscans``), so
    two nodes' builds of one database ordered tied results differently."""
    return stmt.order_by(literal_column(f"{Card.__tablename__}.ctid")) if dialect == "postgresql" else stmt


def starts(folded: str) -> str:
    """The first 1 to ``START_LETTERS`` letters of every word: what a word typed so far that long matches
    (one posting list instead of a prefix over thousands of words: at 1M generated names a 3-letter
    prefix took 1.35 ms that way, 0.1-0.2 ms as one term)."""
    return " ".join(sorted({w[:n] for w in folded.split() for n in range(1, min(len(w), START_LETTERS) + 1)}))


def _sid(value: Any) -> str:
    if isinstance(value, str):
        return value
    return str(value) if isinstance(value, uuid.UUID) else str(uuid.UUID(str(value)))


def _writer(schema: tantivy.Schema, folder: Path, heap: int) -> tantivy.IndexWriter:
    folder.mkdir()
    return tantivy.Index(schema, path=str(folder), reuse=False).writer(heap_size=heap, num_threads=1)


def _commit(writer: tantivy.IndexWriter) -> None:
    writer.commit()
    writer.wait_merging_threads()


def write_index(cat: CatalogRows, path: Path) -> int:
    """Write every card and distinct name into a new index at ``path``; returns the documents written."""
    schema = build_schema()
    index = tantivy.Index(schema, path=str(path), reuse=False)
    # one thread with room for the whole catalog: one segment (a query walks each segment's terms: 8 segments
    # cost 2-3x one); a larger catalog spills into a few
    writer = index.writer(heap_size=WRITER_HEAP, num_threads=1)
    # the names in one segment too (at 1M cards, 988k names spilled into 3 at 200 MB: each query walked 3
    # term dictionaries, and ``CatalogIndex`` weighs a one-segment index's small pages itself)
    names_writer = _writer(schema, path / NAMES, WRITER_HEAP)
    entities_writer = _writer(schema, path / ENTITIES, SMALL_HEAP)
    pages = PagesWriter(path)
    by_set: dict[str, list] = defaultdict(list)  # set id -> its parallels in page order
    for pid, name, sid, partial, numbered_to in cat.parallels:
        by_set[_sid(sid)].append([_sid(pid), name, numbered_to, bool(partial)])
    seg_keys = {sid: [fold(n), _sid(sid)] for sid, n in cat.segments.items()}
    rel_ids = {rid: _sid(rid) for rid in cat.releases}  # ids as text, once each (not once per card)
    set_ids = {sid: _sid(sid) for sid in cat.sets}
    set_words = {sid: fold(name) for sid, (name, _) in cat.sets.items()}
    maker_keys = {mid: [fold(n), _sid(mid)] for mid, n in cat.makers.items()}
    rel_info = {}
    rel_context: dict[Any, set[str]] = {}  # what a query may name a card's release by, whole
    for rid, (name, year, seg_id, maker_id) in cat.releases.items():
        span = season(year)
        folded = fold(name)
        words = [folded, *abbreviations(folded), *year_tokens(year), fold(cat.segments.get(seg_id)),
                 fold(cat.makers.get(maker_id))]
        rel_info[rid] = (span[0] if span else 0, year, seg_id, maker_id, words)
        seg_word = fold(cat.segments.get(seg_id))
        keys = {folded}
        if seg_word and folded.endswith(" " + seg_word):  # "1989 upper deck baseball" is "1989 upper deck"
            keys.add(folded[: -len(seg_word) - 1])
        rel_context[rid] = keys
    groups: dict[str, dict[str, _Group]] = {k: {} for k in ("name", "release", "set", "parallel", "manufacturer")}

    def group(kind: str, label: str) -> _Group:
        g = groups[kind].get(label)
        if g is None:
            g = groups[kind][label] = _Group(label)
        return g

    set_cards: Counter = Counter()
    name_cards = Counter(fold(c[1]) for c in cat.cards)
    name_terms: dict[str, tuple[str, str]] = {}  # folded name -> its starts and its words sorted (7 cards a name)
    number_keys: dict[Any, str] = {}

    def terms(folded: str) -> tuple[str, str]:
        got = name_terms.get(folded)
        if got is None:
            got = name_terms[folded] = (starts(folded), " ".join(sorted(folded.split())))
        return got  # how many cards a name has: famous players first on ties
    written = 0

    def entity(kind: str, eid: Any, name: str, release_id: Any, set_id: Any | None, extra: list[str],
               weight: float) -> tantivy.Document:
        """A card, set, release or parallel: its name, the words around it and the fields filters use."""
        first_year, year, seg_id, maker_id, rel_words = rel_info[release_id]
        folded = fold(name)
        newness = min(max(first_year - 1900, 0), 130) / 130
        start, bag = terms(folded)
        # a card's id and name are read from its page entry: stored and indexed here, they were 1M distinct
        # terms and stored values at 1M cards, 15-20 % of the build's CPU
        own = {} if kind == "card" else {"kind": kind, "id": _sid(eid), "label": name}
        d = tantivy.Document(name=folded, name_key=folded, name_start=start, name_bag=bag,
                             text=" ".join([folded, *extra, *rel_words]), year=first_year,
                             release_id=rel_ids[release_id], weight=0.02 * newness + weight, **own)
        for key in rel_context[release_id]:
            d.add_text("context", key)
        if set_id is not None:
            d.add_text("set_id", set_ids[set_id])
            d.add_text("context", set_words[set_id])
        if year:
            d.add_text("season", year.strip())
        for key in seg_keys.get(seg_id, ()):
            d.add_text("segment", key)
        for key in maker_keys.get(maker_id, ()):
            d.add_text("manufacturer", key)
        return d

    for cid, name, number, variation_of, set_id, release_id, description in cat.cards:
        first_year, year, seg_id, _, _ = rel_info[release_id]
        folded = fold(name)
        num = number_keys.get(number)
        if num is None:
            num = number_keys[number] = number_key(number)
        base = variation_of is None
        card_id = _sid(cid)
        d = entity("card", card_id, name, release_id, set_id,
                   [fold(number), num, set_words[set_id], *map(fold, cat.attributes.get(cid, ()))],
                   0.01 * base + 0.02 * min(math.log10(name_cards[folded] + 1) / 3, 1))
        d.add_integer("base", int(base))
        # all a page of search results shows (a ranked page reads nothing from the database), and what the
        # listing-title matcher checks; keys without a value are left out
        page = {
            "id": card_id, "release_id": rel_ids[release_id], "set_id": set_ids[set_id], "name": name,
            "set_name": cat.sets[set_id][0], "number": number, "description": description,
            "release_name": cat.releases[release_id][0], "release_year": year,
            "attributes": sorted(cat.attributes.get(cid, ())[::2]) or None,
            "variation_of": _sid(variation_of) if variation_of else None,
            "fields": cat.fields.get(cid) or None, "prices": cat.prices.get(cid) or None,
            "partials": [_sid(p) for p in cat.partial_links.get(cid, ())] or None,
            "numbered_to": cat.numbered_to.get(cid), "stand_in": cid in cat.stand_ins or None}
        page = {k: v for k, v in page.items() if v is not None}
        partials = {_sid(p) for p in cat.partial_links.get(cid, ())}
        shared = None if partials else set_id
        shown = [] if pages.has(shared) else [
            (i, n, t) for i, n, t, partial in by_set.get(set_ids[set_id], ()) if not partial or i in partials]
        d.add_unsigned("ord", pages.add(page, shown, shared))
        if num:
            d.add_text("number", num)
        writer.add_document(d)
        written += 1
        set_cards[set_id] += 1
        if folded:  # spellings that fold alike ("Griffey Jr." / "Griffey, Jr.") are one name
            g = group("name", folded)
            g.spellings[name] += 1
            g.ids.append((-(first_year * 2 + base), card_id))
            g.count += 1
            g.segments[seg_id] += 1
    # the cards' segment is written (tantivy lets go of the GIL) while the names and entities are made
    pool = ThreadPoolExecutor(1, thread_name_prefix="index-commit")
    cards_done = pool.submit(_commit, writer)
    pool.shutdown(wait=False)  # its thread ends with the commit
    rel_cards: Counter = Counter()
    for sid, n in set_cards.items():
        rel_cards[cat.sets[sid][1]] += n
    for rid, (name, year, seg_id, maker_id) in cat.releases.items():
        g = group("release", name)
        g.ids.append((-rel_info[rid][0], _sid(rid)))
        g.count += rel_cards[rid]
        g.years.add(year)
        g.segments[seg_id] += 1
        if maker_id in cat.makers:
            m = group("manufacturer", cat.makers[maker_id])
            m.ids = [(0, _sid(maker_id))]
            m.count += rel_cards[rid]
            m.segments[seg_id] += 1
    for sid, (name, rid) in cat.sets.items():
        _, year, seg_id, _, _ = rel_info[rid]
        g = group("set", name)
        g.ids.append((-rel_info[rid][0], _sid(sid)))
        g.count += set_cards[sid]
        g.years.add(year)
        g.segments[seg_id] += 1
    for pid, name, sid, partial, _ in cat.parallels:
        rid = cat.sets[sid][1]
        g = group("parallel", name)
        g.ids.append((-rel_info[rid][0], _sid(pid)))
        g.count += cat.partial_counts.get(pid, 0) if partial else set_cards[sid]
        g.years.add(rel_info[rid][1])
        g.segments[rel_info[rid][2]] += 1
    for rid, (name, _, _, _) in cat.releases.items():
        entities_writer.add_document(entity("e_release", rid, name, rid, None, [], 0.0))
    for sid, (name, rid) in cat.sets.items():
        entities_writer.add_document(entity("e_set", sid, name, rid, sid, [], 0.0))
    for pid, name, sid, _, _ in cat.parallels:
        entities_writer.add_document(entity("e_parallel", pid, name, cat.sets[sid][1], sid, [fold(cat.sets[sid][0])], 0.0))
    written += len(cat.releases) + len(cat.sets) + len(cat.parallels)
    for kind, named in groups.items():
        for key, g in named.items():
            label = g.spellings.most_common(1)[0][0] if g.spellings else key
            folded = fold(label)
            if not folded:
                continue
            ids = [i for _, i in sorted(g.ids)[:MAX_IDS]]
            years = {y for y in g.years if y}
            seg = g.segments.most_common(1)[0][0] if g.segments else None
            popularity = min(math.log10(g.count + 1) / 4, 1.0)
            n_words = len(folded.split())
            year = next(iter(years)) if len(years) == 1 else None
            around = [folded, *abbreviations(folded), *year_tokens(year), fold(cat.segments.get(seg))]
            start, bag = terms(folded)
            d = tantivy.Document(kind=kind, name=folded, name_key=folded, name_start=start, name_bag=bag,
                                 text=" ".join(around), label=label, count=g.count,
                                 weight=0.05 * popularity + 0.01 * max(0, 5 - n_words) / 5)
            d.add_unsigned("ord", pages.add_label(label))
            for i in ids:
                d.add_text("ids", i)
            if year:
                d.add_text("year_label", year)
            if seg in cat.segments:
                d.add_text("segment_label", cat.segments[seg])
            names_writer.add_document(d)
            written += 1
    for w in (names_writer, entities_writer):
        _commit(w)
    cards_done.result()
    pages.close()
    return written
