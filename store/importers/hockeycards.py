"""``cardwise import hockeycards PATH``: two real hockey sets with scans (drdeteck/hockeycards).

PATH is the folder holding ``data/`` and ``img/``. Imported: the 1991-92 Upper Deck McDonald's
All-Stars (``data/mcdonalds-data.json`` key ``McD91-92``) and the 1996-97 Upper Deck Collector's
Choice (``data/96-97-cc-data.json``), each as a release with a set of its own cards and one per subset
(holograms, inserts), cards with number, name and
team. Images: each card record names its scans (``image_front`` / ``image_back``, paths relative to
PATH, e.g. ``img/cards/McD91-92/56699-Mc-1Fr.jpg``: ``...Fr.jpg`` = front, ``...Bk.jpg`` = back);
each existing file becomes a ``card_image`` row (side front/back, bytes, size) with the relative
path as its ``source``. Ids are uuid5 of the set key and card number.
"""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any

from store.importers._bulk import Lookups, derive_id, number_sort, upsert
from store.importers._skips import Skips
from store.models import Card, CardImage, CardSet, Release

NAME = "hockeycards"
HELP = "1991-92 McDonald's Upper Deck and 1996-97 Collector's Choice hockey sets with real scans"
NEEDS_SOURCE = True
log = logging.getLogger("cardwise.catalog")

SETS = [("data/mcdonalds-data.json", "McD91-92"), ("data/96-97-cc-data.json", "96-97-CC")]


def _size(data: bytes) -> tuple[int | None, int | None]:
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as im:
            return im.width, im.height
    except Exception:  # noqa: BLE001
        return None, None


async def run(sessions, source: str | None = None, *, progress: Any = None) -> dict[str, Any]:
    if not source:
        raise ValueError("hockeycards needs the path of the hockeycards folder (data/ and img/)")
    root = Path(source)
    counts: dict[str, Any] = dict.fromkeys(("releases", "sets", "cards", "images", "bad_records"), 0)
    skips = Skips(log, NAME, root)
    look = Lookups()
    for rel_path, key in SETS:
        doc = json.loads((root / rel_path).read_text(encoding="utf-8"))[key]
        async with sessions() as s, s.begin():
            seg = await look.segment(s, "Hockey", "NHL")
            man = await look.manufacturer(s, "Upper Deck")
            rel_id = derive_id("hockeycards", "release", key)
            await upsert(s, Release, [{"id": rel_id, "segment_id": seg, "manufacturer_id": man,
                                       "name": doc["set_display_name"], "year": doc["set_year_label"],
                                       "description": None, "source": "hockeycards"}])
            counts["releases"] += 1
        # the release's own cards, then each subset's (holograms, inserts) as a set of its own in it
        for sub in [doc, *(x for x in doc.get("subsets") or [] if isinstance(x, dict))]:
            await _import_set(sessions, root, rel_path, rel_id, sub, counts, skips, progress)
    return {**counts, **skips.summary()}


async def _import_set(sessions, root: Path, rel_path: str, rel_id, doc: dict, counts: dict, skips: Skips,
                      progress) -> None:
    key = doc["set_key"]
    bar = progress(f"hockeycards {key}", len(doc.get("cards") or [])) if progress else None
    async with sessions() as s, s.begin():
        set_id = derive_id("hockeycards", "set", key)
        await upsert(s, CardSet, [{"id": set_id, "release_id": rel_id, "name": doc["set_name"],
                                   "description": None, "pack_odds": None, "is_identifiable": True}])
        counts["sets"] += 1
        cards, images = [], []
        for i, c in enumerate(doc.get("cards") or []):
            try:
                number = str(c["base_number"])
                cid = derive_id("hockeycards", "card", key, number)
                cards.append({"id": cid, "set_id": set_id, "release_id": rel_id, "name": str(c["name"]),
                              "number": number, "number_sort": number_sort(number),
                              "description": c.get("team") or None, "variation_of": None,
                              "numbered_to": None, "rarity": None})
                for side, field in (("front", "image_front"), ("back", "image_back")):
                    path = c.get(field)
                    if path and (root / path).is_file():
                        data = (root / path).read_bytes()
                        w, h = _size(data)
                        images.append({"id": derive_id(cid, "image", side), "card_id": cid, "side": side,
                                       "content_type": "image/jpeg", "data": data, "width": w, "height": h,
                                       "source": path})
            except Exception as exc:  # noqa: BLE001
                counts["bad_records"] += 1
                skips.add(root / rel_path, f"{key}.cards[{i}]", f"bad card: {exc!r}")
            if bar:
                bar.advance(1)
        await upsert(s, Card, cards)
        await upsert(s, CardImage, images)
        counts["cards"] += len(cards)
        counts["images"] += len(images)
    if bar:
        bar.close()
