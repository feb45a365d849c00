"""``cardwise import junkwax PATH``: the JunkWax sports checklists (evanhantman/CardLists, MIT).

PATH is a checkout of the repository, its ``categories`` folder, one sport or year folder, or a
single release file (``categories/<sport>/<year>/<year>-<Release>.json``). Mapping:

* segment = sport (Baseball, Basketball, Football, Hockey); release = file (year from the path,
  the source ``uniqueId``); set = ``sets[]``; card = ``cards[]`` (team in ``note`` ->
  description, ``attributes`` RC/AU/SP... -> attributes, ``numberedTo`` -> print run; a set's
  ``numberedTo`` and ``attributes`` apply to each of its cards).
* variation = ``cards[].variations[]`` (and a set's ``variations[]``, which every card of the set
  has): a card with ``variationOf`` = the base card, id uuid5(card id, "variation", name).
* parallels: a set's ``parallels[]`` apply to every card (full-set parallels); card-level and
  variation-level ``parallels[]`` become partial parallels (``isPartial``) linked to their cards,
  one per (set, name, print run). Ids: uuid5(set id, kind, name, numberedTo). Insert odds go into
  the parallel's description and the set's ``pack_odds``.
* manufacturer: from the brand in the release name, see ``MANUFACTURERS`` (README table).
* every set is identifiable: photos of its cards are matched by the name and number printed on them
  (``python -m evals.vision --real`` measures it on these checklists).

Each file is one transaction; a file or record that cannot be read is reported with its
location and skipped. Source ids are kept, so a re-import updates in place.
"""

from __future__ import annotations

import json
import logging
import uuid
from pathlib import Path
from typing import Any

from store.importers._bulk import Lookups, clip, derive_id, number_sort, upsert
from store.importers._fetch import fetched
from store.importers._skips import Skips
from store.models import Card, CardAttribute, CardSet, Parallel, ParallelCard, Release

NAME = "junkwax"
HELP = ("JunkWax sports checklists (path or https URL: a CardLists checkout or repository archive, a folder or one "
        "release file)")
NEEDS_SOURCE = True
log = logging.getLogger("cardwise.catalog")

# (brand keyword in the release name, manufacturer, first year or None, last year or None); first match wins
MANUFACTURERS: list[tuple[str, str, int | None, int | None]] = [
    ("Panini", "Panini", None, None),
    ("Donruss", "Panini", 2014, None),
    ("Select", "Panini", 2014, None),
    ("Score", "Panini", 2014, None),
    ("Topps", "Topps", None, None),
    ("Bowman", "Topps", None, None),
    ("Finest", "Topps", None, None),
    ("Stadium Club", "Topps", None, None),
    ("O-Pee-Chee", "Topps", None, None),
    ("Upper Deck", "Upper Deck", None, None),
    ("Collectors Choice", "Upper Deck", None, None),
    ("SP", "Upper Deck", None, None),
    ("Fleer", "Fleer", None, None),
    ("Flair", "Fleer", None, None),
    ("Ultra", "Fleer", None, None),
    ("SkyBox", "Fleer", None, None),
    ("Donruss", "Donruss", None, 2013),
    ("Studio", "Donruss", None, None),
    ("Triple Play", "Donruss", None, None),
    ("Leaf", "Leaf", None, None),
    ("Score", "Pinnacle Brands", None, 2013),
    ("Scpre", "Pinnacle Brands", None, 2013),
    ("Pinnacle", "Pinnacle Brands", None, None),
    ("Select", "Pinnacle Brands", None, 2013),
    ("Pacific", "Pacific", None, None),
]
SPORTS = {"baseball": ("Baseball", "MLB"), "basketball": ("Basketball", "NBA"),
          "football": ("Football", "NFL"), "hockey": ("Hockey", "NHL")}


def manufacturer_for(release_name: str, year: int | None) -> str:
    """The manufacturer of a release from the brand words in its name (first row that matches)."""
    text = " " + release_name.replace("'s ", " ").replace("'", "") + " "
    for key, maker, first, last in MANUFACTURERS:
        if f" {key} " in text and (first is None or (year or 0) >= first) and (last is None or (year or 9999) <= last):
            return maker
    words = release_name.split()
    return words[1] if len(words) > 1 else words[0]


def release_files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    base = root / "categories" if (root / "categories").is_dir() else root
    return sorted(p for p in base.rglob("*.json") if p.parent.name[:4].isdigit())


def _odds(odds: list[dict[str, Any]] | None) -> str | None:
    if not odds:
        return None
    return "; ".join(f"{o.get('product')} {o.get('odds')}" for o in odds if isinstance(o, dict))[:100]


class _Batch:
    def __init__(self) -> None:
        self.cards: list[dict[str, Any]] = []
        self.parallels: dict[uuid.UUID, dict[str, Any]] = {}
        self.links: set[tuple[uuid.UUID, uuid.UUID]] = set()
        self.attrs: set[tuple[uuid.UUID, uuid.UUID]] = set()
        self.ids: set[uuid.UUID] = set()


def _parallel_row(set_id: uuid.UUID, p: dict[str, Any], *, partial: bool, order: int) -> dict[str, Any]:
    name = clip(str(p["name"]).strip(), 300)
    num = p.get("numberedTo")
    desc = "; ".join(filter(None, ["; ".join(p.get("notes") or []), _odds(p.get("insertOdds"))])) or None
    kind = "partial" if partial else "set"
    return {"id": derive_id(set_id, kind, name, num), "set_id": set_id, "name": name, "description": desc,
            "numbered_to": num if isinstance(num, int) and num > 0 else None, "is_partial": partial,
            "sort_order": order}


async def import_file(session, path: Path, look: Lookups, report) -> dict[str, int]:
    counts = dict.fromkeys(("releases", "sets", "cards", "variations", "parallels", "bad_records"), 0)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        rel_id = uuid.UUID(doc["uniqueId"])
        rel_name = str(doc["name"]).strip()
        sets = doc["sets"]
    except Exception as exc:  # noqa: BLE001 - a broken file is reported and skipped
        report(f"{path}", f"unreadable release file: {exc!r}")
        counts["bad_records"] += 1
        return counts
    year_dir = path.parent.name
    year = int(year_dir[:4]) if year_dir[:4].isdigit() else None
    sport = SPORTS.get(path.parent.parent.name.lower(), (path.parent.parent.name.title(), None))
    seg_id = await look.segment(session, *sport)
    man_id = await look.manufacturer(session, manufacturer_for(rel_name, year))
    await upsert(session, Release, [{
        "id": rel_id, "segment_id": seg_id, "manufacturer_id": man_id, "name": rel_name, "year": year_dir,
        "description": "; ".join(doc.get("notes") or []) or None, "source": "junkwax",
    }])
    counts["releases"] = 1
    b = _Batch()
    set_rows = []
    for si, s in enumerate(sets):
        loc = f"{path}:sets[{si}]"
        try:
            set_id = uuid.UUID(s["uniqueId"])
            set_rows.append({"id": set_id, "release_id": rel_id, "name": clip(str(s["name"]).strip(), 300),
                             "description": "; ".join(s.get("notes") or []) or None,
                             "pack_odds": _odds(s.get("insertOdds")), "is_identifiable": True})
        except Exception as exc:  # noqa: BLE001
            report(loc, f"bad set: {exc!r}")
            counts["bad_records"] += 1
            continue
        for pi, p in enumerate(s.get("parallels") or []):
            row = _parallel_row(set_id, p, partial=False, order=pi)
            b.parallels[row["id"]] = row
        for vi, v in enumerate(s.get("variations") or []):
            row = _parallel_row(set_id, {"name": v["variation"], "numberedTo": v.get("numberedTo"),
                                         "insertOdds": v.get("insertOdds")}, partial=False, order=100 + vi)
            b.parallels[row["id"]] = row
        set_attrs = [a for a in s.get("attributes") or [] if isinstance(a, str)]
        for ci, c in enumerate(s.get("cards") or []):
            try:
                await _card(session, b, look, c, set_id, rel_id, s.get("numberedTo"), set_attrs, counts)
            except Exception as exc:  # noqa: BLE001
                report(f"{loc}.cards[{ci}]", f"bad card: {exc!r}")
                counts["bad_records"] += 1
    await upsert(session, CardSet, set_rows)
    counts["sets"] = len(set_rows)
    await upsert(session, Card, [r for r in b.cards if r["variation_of"] is None])
    await upsert(session, Card, [r for r in b.cards if r["variation_of"] is not None])
    await upsert(session, Parallel, list(b.parallels.values()))
    counts["parallels"] = len(b.parallels)
    await upsert(session, ParallelCard, [{"parallel_id": p, "card_id": c} for p, c in b.links],
                 keys=("parallel_id", "card_id"), nothing=True)
    await upsert(session, CardAttribute, [{"card_id": c, "attribute_id": a} for c, a in b.attrs],
                 keys=("card_id", "attribute_id"), nothing=True)
    return counts


async def _card(session, b: _Batch, look: Lookups, c: dict[str, Any], set_id: uuid.UUID, rel_id: uuid.UUID,
                set_numbered: int | None, set_attrs: list[str], counts: dict[str, int]) -> None:
    card_id = uuid.UUID(c["uniqueId"])
    name = clip(str(c["name"]).strip(), 300)
    if not name:
        raise ValueError("empty name")
    if card_id in b.ids:
        raise ValueError(f"duplicate uniqueId {card_id}")
    b.ids.add(card_id)
    number = clip(c.get("number") or None, 40)
    base = {"set_id": set_id, "release_id": rel_id, "name": name, "number": number,
            "number_sort": number_sort(number)}
    b.cards.append({**base, "id": card_id, "description": c.get("note"), "variation_of": None,
                    "numbered_to": c.get("numberedTo") or set_numbered, "rarity": None})
    counts["cards"] += 1
    for a in set(set_attrs) | {a for a in c.get("attributes") or [] if isinstance(a, str)}:
        b.attrs.add((card_id, await look.attribute(session, a)))
    for p in c.get("parallels") or []:
        row = _parallel_row(set_id, p, partial=True, order=200)
        b.parallels.setdefault(row["id"], row)
        b.links.add((row["id"], card_id))
    variations = list(c.get("variations") or [])
    for v in variations:
        vname = str(v["variation"]).strip()
        vid = derive_id(card_id, "variation", vname)
        if vid in b.ids:
            continue
        b.ids.add(vid)
        desc = "; ".join(filter(None, [vname, v.get("note"), c.get("note")]))
        b.cards.append({**base, "id": vid, "description": desc, "variation_of": card_id,
                        "numbered_to": v.get("numberedTo") or c.get("numberedTo") or set_numbered, "rarity": None})
        counts["variations"] += 1
        for a in v.get("attributes") or []:
            if isinstance(a, str):
                b.attrs.add((vid, await look.attribute(session, a)))
        for p in v.get("parallels") or []:
            row = _parallel_row(set_id, p, partial=True, order=300)
            b.parallels.setdefault(row["id"], row)
            b.links.add((row["id"], vid))


async def run(sessions, source: str | None = None, *, progress: Any = None) -> dict[str, Any]:
    if not source:
        raise ValueError("junkwax needs a path or URL: the CardLists checkout or archive, a folder or a release file")
    async with fetched(source, holds=lambda p: (p / "categories").is_dir()) as root:
        return await _run(sessions, root, progress)


async def _run(sessions, root: Path, progress: Any) -> dict[str, Any]:
    if not root.exists():
        raise FileNotFoundError(f"{root} does not exist")
    files = release_files(root)
    bar = progress("junkwax releases", len(files)) if progress else None
    look = Lookups()
    totals: dict[str, Any] = dict.fromkeys(("releases", "sets", "cards", "variations", "parallels", "bad_records"), 0)
    skips = Skips(log, NAME, root)

    def report(location: str, message: str) -> None:
        file, _, row = location.partition(":")
        skips.add(file, row or None, message)

    for path in files:
        try:
            async with sessions() as session, session.begin():
                counts = await import_file(session, path, look, report)
        except Exception as exc:  # noqa: BLE001 - the file's rows roll back; the import goes on
            report(str(path), f"could not store release: {exc!r}"[:500])
            counts = {"bad_records": 1}
            look = Lookups()  # ids created in the rolled-back transaction are gone
        for k, v in counts.items():
            totals[k] += v
        if bar:
            bar.advance(1)
    if bar:
        bar.close()
    return {**totals, **skips.summary()}
