"""keys: requests per API key and calendar month (GET /v1/subscription/)

Revision ID: keys_0002
Revises: catalog_0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "keys_0002"
down_revision = "catalog_0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_key_usage",
        sa.Column("api_key_id", sa.Uuid(), nullable=False),
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("calls", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["api_key_id"], ["api_key.id"], name=op.f("fk_api_key_usage_api_key_id_api_key"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("api_key_id", "month", name=op.f("pk_api_key_usage")),
    )


def downgrade() -> None:
    op.drop_table("api_key_usage")
