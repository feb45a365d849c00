"""catalog: name-search indexes (PostgreSQL pg_trgm GIN, SQLite FTS5 trigram tables)

Partial, case-insensitive name search (``name ILIKE '%x%'``) must not scan the card table.

* PostgreSQL: the ``pg_trgm`` extension and a GIN index on ``lower(name) gin_trgm_ops`` for
  card, card_set, release and parallel; ``lower(name) LIKE '%x%'`` uses it.
* SQLite: an external-content FTS5 table with the ``trigram`` tokenizer per searched table
  (``card_fts`` ...), kept in sync by triggers; queries use ``MATCH`` for terms of 3 or more
  characters (trigram's minimum) and fall back to LIKE for shorter ones.

These objects are not in the SQLAlchemy models (the migration checker ignores them).

Revision ID: catalog_0001
Revises: 0001_initial
"""

from __future__ import annotations

from alembic import op

revision = "catalog_0001"
down_revision = "market_0001"
branch_labels = None
depends_on = None

TABLES = ("card", "card_set", "release", "parallel")


def _sqlite_up(table: str) -> list[str]:
    fts = f"{table}_fts"
    return [
        f"CREATE VIRTUAL TABLE {fts} USING fts5(name, content='{table}', content_rowid='rowid', tokenize='trigram')",
        f"INSERT INTO {fts}(rowid, name) SELECT rowid, name FROM {table}",
        f"CREATE TRIGGER {fts}_ai AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO {fts}(rowid, name) VALUES (new.rowid, new.name); END",
        f"CREATE TRIGGER {fts}_ad AFTER DELETE ON {table} BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, name) VALUES ('delete', old.rowid, old.name); END",
        f"CREATE TRIGGER {fts}_au AFTER UPDATE OF name ON {table} WHEN old.name IS NOT new.name BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, name) VALUES ('delete', old.rowid, old.name); "
        f"INSERT INTO {fts}(rowid, name) VALUES (new.rowid, new.name); END",
    ]


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for t in TABLES:
            op.execute(f'CREATE INDEX IF NOT EXISTS ix_{t}_name_trgm ON "{t}" USING gin (lower(name) gin_trgm_ops)')
    elif dialect == "sqlite":
        for t in TABLES:
            for stmt in _sqlite_up(t):
                op.execute(stmt)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        for t in TABLES:
            op.execute(f"DROP INDEX IF EXISTS ix_{t}_name_trgm")
    elif dialect == "sqlite":
        for t in TABLES:
            for suffix in ("ai", "ad", "au"):
                op.execute(f"DROP TRIGGER IF EXISTS {t}_fts_{suffix}")
            op.execute(f"DROP TABLE IF EXISTS {t}_fts")
