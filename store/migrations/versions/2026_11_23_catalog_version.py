"""catalog: a version counter raised by every catalog-changing command

``catalog_version`` holds one row (id 1). ``cardwise import ...`` and ``cardwise vision ...`` raise
it when they finish; serving processes read it about once a second and drop their cached catalog
answers (``api/response_cache.py``) when it moved.

Revision ID: catalog_0003
Revises: collection_0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "catalog_0003"
down_revision = "collection_0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "catalog_version",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_catalog_version")),
    )
    op.execute("INSERT INTO catalog_version (id, version, changed_at) VALUES (1, 0, CURRENT_TIMESTAMP)")


def downgrade() -> None:
    op.drop_table("catalog_version")
