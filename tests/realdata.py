"""Small real catalogs for tests: parts of the real data sets in ../shared/data, written to a folder."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import shared_data


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
