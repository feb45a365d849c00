"""catalog: an index for walking cards in name order on SQLite (common-name searches stop early)

``card (lower(name), number_sort, number, id)`` is the search's default order. A search for a common
substring (thousands of matches) then reads the index in that order, tests the name from the index
entry itself and stops at the page's last match, instead of reading and sorting every match
(``store/queries/card_name_search.py``). PostgreSQL's planner makes that choice on its own; its
search keeps the ``pg_trgm`` index and nothing is added there.

Revision ID: catalog_0002
Revises: catalog_0001
"""

from __future__ import annotations

from alembic import op

revision = "catalog_0002"
down_revision = "catalog_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("CREATE INDEX IF NOT EXISTS ix_card_name_sort ON card (lower(name), number_sort, number, id)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP INDEX IF EXISTS ix_card_name_sort")
