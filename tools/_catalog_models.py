"""Output models and converters shared by the catalog tools."""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import Field, SerializeAsAny

from store.queries import catalog_cards as cq
from store.queries.catalog_filters import parse_fields
from tools._models import CamelOut, Page, ServerMessage, advisories, cents_to_money, listed_as
from tools.errors import invalid


class FieldKV(CamelOut):
    key: str = Field(description="Metadata key, upper case (HP, RARITY, ARTIST ...)")
    value: str


class ParallelBrief(CamelOut):
    """A parallel of a card in a list: id, name and print run."""

    id: str
    name: str
    numbered_to: int | None = None


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
    fields: list[FieldKV] | None = Field(None, description="Metadata of the card (omitted when it has none)")
    # every card Cardwise imports is a base card of its set (parallels are variants of base cards)
    is_parallel_only: bool = Field(False, description="The card exists only as a parallel, not as a base card")
    parallels: list[ParallelBrief] | None = Field(None, description="The card's parallels (omitted when none)")


class CardDetail(CardOut):
    numbered_to: int | None = None
    parallel_count: int
    parallels: list[ParallelOut]  # type: ignore[assignment]  # the full parallel records here


class CardsPage(Page[CardOut], alias_generator=listed_as("cards")):
    # ``SerializeAsAny``: a page ranked by the search index holds its cards already rendered (dicts)
    items: list[SerializeAsAny[CardOut]]
    messages: list[ServerMessage] | None = None


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


async def card_items(s: Any, rows: list[Any], cls: type[CardOut] = CardOut,
                     extra: dict[uuid.UUID, dict[str, Any]] | None = None,
                     classes: dict[uuid.UUID, type[CardOut]] | None = None) -> list[Any]:
    """A page of cards with attributes, base prices, metadata fields and parallels (four queries);
    ``extra`` adds fields per card and ``classes`` picks another model per card."""
    ids = [r.id for r in rows]
    attrs, prices = await cq.enrich(session=s, card_ids=ids)
    fields = await cq.fields_of_cards(session=s, card_ids=ids)
    pars = await cq.parallels_of_cards(session=s, cards=list(rows))
    return [card_out(r, attrs, prices, (classes or {}).get(r.id, cls),
                     fields=[FieldKV(key=k, value=v) for k, v in fields.get(r.id, [])] or None,
                     parallels=[ParallelBrief(id=str(p.id), name=p.name, numbered_to=p.numbered_to)
                                for p in pars.get(r.id, [])] or None,
                     **(extra or {}).get(r.id, {}))
            for r in rows]


def page_messages(total: int, skip: int, year: str | None = None, min_year: str | None = None,
                  max_year: str | None = None) -> list[ServerMessage] | None:
    """Advisories of a card page: a skip past the end, a year that overrides a year range."""
    return advisories(
        (skip > 0 and skip >= total, "info", f"skip {skip} is past the last result (total_count {total})"),
        (bool(year and (min_year or max_year)), "warning", "year was given, so min_year and max_year were ignored"),
    )


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
