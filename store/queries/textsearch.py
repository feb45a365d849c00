"""Relevance-ranked title search with the database's own full-text engine.

PostgreSQL: ``to_tsvector('english', title) @@ to_tsquery(...)`` ranked by ``ts_rank`` (GIN
expression index from migration market_0001). SQLite: the FTS5 table ``<table>_fts`` ranked by
``bm25``. Query words are OR-ed so titles matching more of them rank higher.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Float, String, func, literal_column, select, text
from sqlalchemy.ext.asyncio import AsyncSession

WORD_RE = re.compile(r"[a-z0-9]+")


def words(q: str) -> list[str]:
    seen: list[str] = []
    for w in WORD_RE.findall(q.lower()):
        if w not in seen:
            seen.append(w)
    return seen[:32]


def ranked(session: AsyncSession, model: Any, q: str) -> Any | None:
    """A subquery ``(id, score)`` of rows of ``model`` whose title matches ``q``; None if no words."""
    ws = words(q)
    if not ws:
        return None
    table = model.__tablename__
    if session.bind.dialect.name == "postgresql":
        vec = func.to_tsvector(literal_column("'english'"), model.title)
        tsq = func.to_tsquery(literal_column("'english'"), " | ".join(ws))
        return (select(model.id.label("id"), func.ts_rank(vec, tsq).label("score"))
                .where(vec.op("@@")(tsq)).subquery())
    match = " OR ".join(f'"{w}"' for w in ws)
    stmt = text(f"SELECT id, -bm25({table}_fts) AS score FROM {table}_fts WHERE {table}_fts MATCH :m").bindparams(m=match)
    return stmt.columns(id=String, score=Float).subquery()


def join_on(model: Any, sub: Any, session: AsyncSession) -> Any:
    if session.bind.dialect.name == "postgresql":
        return model.id == sub.c.id
    # SQLite stores UUIDs as 32 hex characters; the FTS table holds the same text
    return func.replace(sub.c.id, "-", "") == literal_column(f"{model.__tablename__}.id")
