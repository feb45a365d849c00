"""collection analytics: composite indexes for set progress and entry pricing

* ``ix_card_set_base`` card(set_id, variation_of, numbered_to): a set's base cards and serial
  numbers are counted from the index alone (replaces ``ix_card_set_id``, its prefix).
* ``ix_collection_card_owned`` collection_card(collection_id, card_id, sold_price_cents, sold_date):
  a collection's held cards from the index alone (replaces ``ix_collection_card_collection_id``).
* ``ix_card_price_lookup`` gains ``value_cents``: pricing an entry is an index-only probe.

Revision ID: collection_0001
Revises: catalog_0002
"""

from __future__ import annotations

from alembic import op

revision = "collection_0001"
down_revision = "catalog_0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_card_set_base", "card", ["set_id", "variation_of", "numbered_to"])
    op.drop_index("ix_card_set_id", table_name="card")
    op.create_index("ix_collection_card_owned", "collection_card",
                    ["collection_id", "card_id", "sold_price_cents", "sold_date"])
    op.drop_index("ix_collection_card_collection_id", table_name="collection_card")
    op.drop_index("ix_card_price_lookup", table_name="card_price")
    op.create_index("ix_card_price_lookup", "card_price", ["card_id", "parallel_id", "grade_id", "value_cents"])


def downgrade() -> None:
    op.drop_index("ix_card_price_lookup", table_name="card_price")
    op.create_index("ix_card_price_lookup", "card_price", ["card_id", "parallel_id", "grade_id"])
    op.create_index("ix_collection_card_collection_id", "collection_card", ["collection_id"])
    op.drop_index("ix_collection_card_owned", table_name="collection_card")
    op.create_index("ix_card_set_id", "card", ["set_id"])
    op.drop_index("ix_card_set_base", table_name="card")
