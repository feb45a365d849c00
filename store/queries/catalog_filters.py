"""Filters shared by the catalog queries: partial names through the search indexes, years,
manufacturer/segment by UUID or name, KEY:VALUE fields.

Partial names use the database's own indexes: on PostgreSQL ``lower(name) LIKE '%x%'`` is served
by the ``pg_trgm`` GIN index on ``lower(name)``; on SQLite a term of 3+ characters is first
matched in the table's FTS5 trigram index (``<table>_fts MATCH '"x"'``), the LIKE then only
confirms the (few) candidates. Shorter terms cannot use trigrams and fall back to LIKE.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, exists, func, literal_column, select
from sqlalchemy import column as sql_column
from sqlalchemy import table as sql_table
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Card, FieldValue, Manufacturer, MetadataField, Release, Segment

FTS_TABLES = {"card", "card_set", "release", "parallel"}


def dialect_of(session: AsyncSession) -> str:
    return session.get_bind().dialect.name


def like_pattern(term: str) -> str:
    esc = term.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{esc}%"


def name_match(column: Any, term: str, dialect: str) -> ColumnElement[bool]:
    """Case-insensitive partial match of ``term`` in ``column`` (a ``name`` column), index-backed."""
    cond = func.lower(column).like(like_pattern(term), escape="\\")
    table = column.table.name
    if dialect == "sqlite" and table in FTS_TABLES and len(term) >= 3:
        # anonymous bind parameters keep the statement text stable, so SQLAlchemy's compiled cache hits
        fts = sql_table(f"{table}_fts", sql_column("rowid"))
        match = literal_column(f"{table}_fts").op("MATCH")(bindparam(None, '"' + term.replace('"', '""') + '"',
                                                                     unique=True))
        return and_(literal_column(f'"{table}".rowid').in_(select(fts.c.rowid).where(match)), cond)
    return cond


def is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return len(value) == 36


def by_id_or_name(id_col: Any, name_col: Any, value: str) -> ColumnElement[bool]:
    if is_uuid(value):
        return id_col == uuid.UUID(value)
    return func.lower(name_col) == value.lower()


def manufacturer_cond(value: str) -> ColumnElement[bool]:
    return Release.manufacturer_id.in_(
        select(Manufacturer.id).where(by_id_or_name(Manufacturer.id, Manufacturer.name, value)))


def segment_cond(value: str) -> ColumnElement[bool]:
    return Release.segment_id.in_(select(Segment.id).where(by_id_or_name(Segment.id, Segment.name, value)))


def year_conds(year: str | None, min_year: str | None, max_year: str | None) -> list[ColumnElement[bool]]:
    """``year`` (exact) overrides ``min_year``/``max_year`` (inclusive, compared as year strings)."""
    if year:
        return [Release.year == year]
    out = []
    if min_year:
        out.append(Release.year >= min_year)
    if max_year:
        out.append(func.substr(Release.year, 1, 4) <= max_year[:4])
    return out


def parse_fields(values: list[str] | None) -> list[tuple[str, str]]:
    """``KEY:VALUE`` pairs (key uppercased); raises ``ValueError`` for a malformed one."""
    out = []
    for raw in values or []:
        key, sep, value = raw.partition(":")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"field must be KEY:VALUE, got {raw!r}")
        out.append((key.strip().upper(), value.strip()))
    return out


def field_conds(pairs: list[tuple[str, str]], entity_type: str, entity_id: Any) -> list[ColumnElement[bool]]:
    """Every pair must match a metadata value of the entity (values compared case-insensitively)."""
    return [
        exists().where(FieldValue.entity_type == entity_type, FieldValue.entity_id == entity_id,
                       FieldValue.field_id == MetadataField.id, MetadataField.key == key,
                       func.lower(FieldValue.value) == value.lower())
        for key, value in pairs
    ]


@dataclass
class CardFilter:
    name: str | None = None
    number: str | None = None
    year: str | None = None
    min_year: str | None = None
    max_year: str | None = None
    manufacturer: str | None = None
    segment: str | None = None
    release_id: str | None = None
    release_name: str | None = None
    set_id: str | None = None
    set_name: str | None = None
    attribute_id: str | None = None
    attribute_short_name: str | None = None
    fields: list[tuple[str, str]] = field(default_factory=list)
    base_only: bool = False


def card_conds(f: CardFilter, dialect: str) -> list[ColumnElement[bool]]:
    from store.models import Attribute, CardAttribute, CardSet

    conds: list[ColumnElement[bool]] = []
    if f.name:
        conds.append(name_match(Card.name, f.name, dialect))
    if f.number:
        conds.append(Card.number == f.number)
    conds += year_conds(f.year, f.min_year, f.max_year)
    if f.manufacturer:
        conds.append(manufacturer_cond(f.manufacturer))
    if f.segment:
        conds.append(segment_cond(f.segment))
    if f.release_id:
        conds.append(Card.release_id == uuid.UUID(f.release_id))
    if f.release_name:
        conds.append(name_match(Release.name, f.release_name, dialect))
    if f.set_id:
        conds.append(Card.set_id == uuid.UUID(f.set_id))
    if f.set_name:
        conds.append(name_match(CardSet.name, f.set_name, dialect))
    if f.attribute_id:
        conds.append(exists().where(CardAttribute.card_id == Card.id,
                                    CardAttribute.attribute_id == uuid.UUID(f.attribute_id)))
    if f.attribute_short_name:
        conds.append(exists().where(CardAttribute.card_id == Card.id, CardAttribute.attribute_id == Attribute.id,
                                    Attribute.short_name == f.attribute_short_name))
    conds += field_conds(f.fields, "card", Card.id)
    if f.base_only:
        conds.append(Card.variation_of.is_(None))
    return conds
