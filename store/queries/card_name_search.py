"""The most common catalog search, a partial name and nothing else in name order, on SQLite.

The general query (``catalog_cards.search_cards``) reads every match to count and sort it: with a
million cards a median term matches ~4,000 of them and costs 10-30 ms. Here:

1. the total comes from the FTS5 trigram index alone (``count(*)`` of the ``MATCH``, no card
   rows read): for an ASCII term of 3+ characters the trigram phrase match is exactly the
   case-insensitive substring match that ``lower(name) LIKE '%term%'`` makes;
2. the page then comes one of two ways, whichever reads less:
   - many matches: walk ``ix_card_name_sort`` (``lower(name), number_sort, number, id``, the
     search order) testing the name held in each index entry and stop at the page's last match
     (about ``(skip + take) x cards / matches`` entries);
   - few matches: read just those cards by rowid and sort them.
   Testing an index entry costs about a tenth of reading and sorting a match (measured with
   ``bench/catalog_search_bench.py``), hence ``WALK_FACTOR``.

Descending name order, other filters, short or non-ASCII terms and PostgreSQL keep the general query.
"""

from __future__ import annotations

import uuid

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from store.queries.catalog_filters import CardFilter, like_pattern

WALK_FACTOR = 10  # index entries tested for the cost of one match read and sorted
MIN_WALK_MATCHES = 1000

_COUNT = text("SELECT count(*) FROM card_fts WHERE card_fts MATCH :m")
_SIZE = text("SELECT coalesce(max(rowid), 0) FROM card")
_WALK = text("SELECT id FROM card INDEXED BY ix_card_name_sort WHERE lower(name) LIKE :p ESCAPE '\\' "
             "ORDER BY lower(name), number_sort, number, id LIMIT :take OFFSET :skip")
_SORT = text("SELECT id FROM card WHERE rowid IN (SELECT rowid FROM card_fts WHERE card_fts MATCH :m) "
             "ORDER BY lower(name), number_sort, number, id LIMIT :take OFFSET :skip")


def name_only_term(f: CardFilter, sort: str | None, order: str, dialect: str) -> str | None:
    """The term when this fast path answers the search exactly, else None."""
    term = f.name
    if dialect != "sqlite" or not term or len(term) < 3 or not term.isascii():
        return None
    if sort not in (None, "name") or order != "asc":
        return None
    others = (f.number, f.year, f.min_year, f.max_year, f.manufacturer, f.segment, f.release_id, f.release_name,
              f.set_id, f.set_name, f.attribute_id, f.attribute_short_name)
    if any(others) or f.fields or f.base_only:
        return None
    return term


async def page_ids(session: AsyncSession, term: str, skip: int, take: int) -> tuple[list[uuid.UUID], int]:
    """The ids of one page of cards whose name contains ``term``, in name order, and the total."""
    match = '"' + term.replace('"', '""') + '"'
    total = int((await session.execute(_COUNT, {"m": match})).scalar_one())
    if total == 0 or skip >= total:
        return [], total
    walk = total >= MIN_WALK_MATCHES  # the catalog's size is read only when a walk is in question
    if walk:
        size = int((await session.execute(_SIZE)).scalar_one())
        walk = (skip + take) * size < WALK_FACTOR * total * total
    if walk:
        rows = await session.execute(_WALK, {"p": like_pattern(term), "take": take, "skip": skip})
    else:
        rows = await session.execute(_SORT, {"m": match, "take": take, "skip": skip})
    return [_as_uuid(r[0]) for r in rows.all()], total


def _as_uuid(value) -> uuid.UUID:
    # SQLite stores SQLAlchemy's Uuid as 32 hex characters; a text() statement returns them raw
    return value if isinstance(value, uuid.UUID) else uuid.UUID(hex=value)
