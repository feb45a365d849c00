"""Small real catalogs for tests: parts of the real data sets in ../shared/data, written to a folder."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select

from store.models import (
    Attribute,
    Card,
    CardAttribute,
    CardImage,
    CardPrice,
    CardSet,
    FieldValue,
    Manufacturer,
    MarketplaceListing,
    MetadataField,
    Parallel,
    ParallelCard,
    PopulationCount,
    PopulationSetLink,
    PopulationSync,
    PriceRecord,
    Release,
    Segment,
)
from tests.conftest import shared_data

CATALOG = (Segment, Manufacturer, Release, CardSet, Card, Attribute, CardAttribute, Parallel, ParallelCard,
           MetadataField, FieldValue, CardImage, PriceRecord, CardPrice, PopulationCount, PopulationSetLink,
           PopulationSync, MarketplaceListing)
VOLATILE = {"card_price": {"id"}, "population_sync": {"last_synced_at"}, "card_image": {"created_at", "updated_at"},
            "marketplace_listing": {"listed_at"}}


async def catalog_dump(sessions) -> dict[str, list[tuple]]:
    """Every row of the catalog and market tables (less ids and times made at random), to compare catalogs."""
    out = {}
    async with sessions() as s:
        for model in CATALOG:
            table = model.__table__
            cols = [c for c in table.c if c.name not in VOLATILE.get(table.name, set())]
            rows = (await s.execute(select(*cols))).all()
            out[table.name] = sorted(tuple(str(v) for v in r) for r in rows)
    return out


def tcgdex_subset(dest: Path, names: tuple[str, ...] = ("Base Set", "Neo Destiny")) -> Path:
    """The real TCGdex sets named ``names`` (English names) with their cards, as a tcgdex folder."""
    src = shared_data("tcgdex")
    sets = [s for s in json.loads((src / "sets.json").read_text()) if (s.get("name") or {}).get("en") in names]
    files = {tuple(s["_file"].removesuffix(".ts").split("/", 1)) for s in sets}
    cards = [c for c in json.loads((src / "cards.json").read_text()) if (c.get("serieDir"), c.get("set")) in files]
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "sets.json").write_text(json.dumps(sets))
    (dest / "cards.json").write_text(json.dumps(cards))
    (dest / "series.json").write_text((src / "series.json").read_text())
    return dest
