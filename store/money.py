"""Money as the API writes it: integer cents to a decimal string with two places ("12.50")."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation


def cents_to_money(cents: int | None) -> str | None:
    if cents is None:
        return None
    return f"{Decimal(cents) / 100:.2f}"


def money_to_cents(value: str | None) -> int | None:
    """``cents_to_money`` reversed: "12.50" -> 1250 (half a cent rounds up)."""
    if value is None:
        return None
    try:
        return int((Decimal(value) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    except InvalidOperation as exc:  # pragma: no cover - guarded by Money
        raise ValueError(str(exc)) from exc
