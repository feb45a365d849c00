"""Output models and converters shared by the catalog tools."""

from __future__ import annotations

import uuid
from typing import Any

from tools._models import CamelOut, Out, cents_to_money
from tools.errors import invalid
from store.queries.catalog_filters import parse_fields


class FieldKV(CamelOut):
    key: str
    value: str


class ParallelOut(CamelOut):
    id: str
    name: str
    description: str | None = None
    numbered_to: int | None = None
    is_partial: bool | None = None
    prices: dict[str, str] | None = None
    cards: list[str] | None = None


class CardOut(CamelOut):
    id: str
    release_id: str
    set_id: str
    name: str
    set_name: str
    number: str | None = None
    description: str | None = None
    release_name: str | None = None
    release_year: str | None = None
    attributes: list[str] | None = None
    prices: dict[str, str] | None = None
    variation_of: str | None = None


class CardDetail(CardOut):
    numbered_to: int | None = None
    fields: list[FieldKV] | None = None
    parallel_count: int
    parallels: list[ParallelOut]


class CardsPage(Out):
    cards: list[CardOut]
    total_count: int
    skip: int
    take: int


def money_map(prices: dict[str, int] | None) -> dict[str, str] | None:
    if not prices:
        return None
    return {k: cents_to_money(v) for k, v in sorted(prices.items())}  # type: ignore[misc]


def card_out(row: Any, attrs: dict[uuid.UUID, list[str]], prices: dict[Any, dict[str, int]],
             cls: type[CardOut] = CardOut, **extra: Any) -> Any:
    c = row
    return cls(id=str(c.id), release_id=str(c.release_id), set_id=str(c.set_id), name=c.name, set_name=row.set_name,
               number=c.number, description=c.description, release_name=row.release_name,
               release_year=row.release_year, attributes=attrs.get(c.id) or None,
               prices=money_map(prices.get((c.id, None))),
               variation_of=str(c.variation_of) if c.variation_of else None, **extra)


def parallel_out(p: Any, *, prices: dict[str, int] | None = None, cards: list[uuid.UUID] | None = None) -> ParallelOut:
    return ParallelOut(id=str(p.id), name=p.name, description=p.description, numbered_to=p.numbered_to,
                       is_partial=bool(p.is_partial), prices=money_map(prices),
                       cards=[str(c) for c in cards] if p.is_partial and cards is not None else None)


def fields_or_400(values: list[str] | None) -> list[tuple[str, str]]:
    try:
        return parse_fields(values)
    except ValueError as exc:
        raise invalid(str(exc)) from None


def page_counts(total: int, skip: int, take: int) -> dict[str, int]:
    return {"total_count": total, "skip": skip, "take": take}
