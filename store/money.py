"""Money as the API writes it: integer cents to a decimal string with two places ("12.50")."""

from __future__ import annotations

from decimal import Decimal


def cents_to_money(cents: int | None) -> str | None:
    if cents is None:
        return None
    return f"{Decimal(cents) / 100:.2f}"
