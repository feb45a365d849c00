"""market: full-text search over marketplace listing and price record titles

PostgreSQL: GIN expression indexes on ``to_tsvector('english', title)`` (queried with the same
expression, ranked with ``ts_rank``). SQLite: FTS5 tables ``<table>_fts(id UNINDEXED, title)``
carrying the base row's id (rowids are not stable across VACUUM), kept in sync by triggers
(queried with MATCH, ranked with ``bm25``).

Revision ID: market_0001
Revises: 0001_initial
"""

from __future__ import annotations

from alembic import op

revision = "market_0001"
down_revision = "0001_initial"
branch_labels = None
depends_on = None

TABLES = ("marketplace_listing", "price_record")


def upgrade() -> None:
    bind = op.get_bind()
    for t in TABLES:
        if bind.dialect.name == "postgresql":
            op.execute(f"CREATE INDEX ix_{t}_title_fts ON {t} USING GIN (to_tsvector('english', title))")
            continue
        op.execute(f"CREATE VIRTUAL TABLE {t}_fts USING fts5(id UNINDEXED, title, tokenize='porter unicode61')")
        op.execute(f"INSERT INTO {t}_fts(id, title) SELECT id, title FROM {t}")
        op.execute(f"CREATE TRIGGER {t}_fts_ai AFTER INSERT ON {t} BEGIN "
                   f"INSERT INTO {t}_fts(id, title) VALUES (new.id, new.title); END")
        op.execute(f"CREATE TRIGGER {t}_fts_ad AFTER DELETE ON {t} BEGIN "
                   f"DELETE FROM {t}_fts WHERE id = old.id; END")
        op.execute(f"CREATE TRIGGER {t}_fts_au AFTER UPDATE OF title ON {t} BEGIN "
                   f"UPDATE {t}_fts SET title = new.title WHERE id = old.id; END")


def downgrade() -> None:
    bind = op.get_bind()
    for t in TABLES:
        if bind.dialect.name == "postgresql":
            op.execute(f"DROP INDEX IF EXISTS ix_{t}_title_fts")
            continue
        for suffix in ("ai", "ad", "au"):
            op.execute(f"DROP TRIGGER IF EXISTS {t}_fts_{suffix}")
        op.execute(f"DROP TABLE IF EXISTS {t}_fts")
