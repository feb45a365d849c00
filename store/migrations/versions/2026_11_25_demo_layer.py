"""demo: the demo catalog's rows are marked (``demo``) so real importers skip them and one command removes them

``release``, ``card_set`` and ``card`` get ``demo`` (false by default); rows already written by
``cardwise import demo`` (releases with ``source = 'demo'``) are marked with their sets and cards.

Revision ID: demo_0001
Revises: keys_0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "demo_0001"
down_revision = "keys_0002"
branch_labels = None
depends_on = None

TABLES = ("release", "card_set", "card")


def upgrade() -> None:
    for table in TABLES:  # a plain ADD COLUMN (SQLite's batch copy would break the tables' triggers)
        op.add_column(table, sa.Column("demo", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.execute("UPDATE release SET demo = true WHERE source = 'demo'")
    op.execute("UPDATE card_set SET demo = true WHERE release_id IN (SELECT id FROM release WHERE demo)")
    op.execute("UPDATE card SET demo = true WHERE release_id IN (SELECT id FROM release WHERE demo)")


def downgrade() -> None:
    for table in reversed(TABLES):
        op.drop_column(table, "demo")
