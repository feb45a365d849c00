"""``cardwise import tcgdex PATH``: the Pokemon TCG of tcgdex/cards-database (MIT): repository, archive or JSON.

SOURCE (a path or an https URL) is the repository itself, a checkout or its GitHub archive
(``.../archive/refs/heads/master.tar.gz`` or ``.zip``; only ``data/**.ts`` is extracted, and each
file's object literal is read by a parser, never run: ``_tcgdex_upstream``), or a folder of its
JSON export: ``sets.json`` and ``cards.json`` (an array, streamed item by item). Both give the
same catalog.
Mapping: segment = Pokemon; manufacturer = Wizards of the Coast for the series it printed (Base,
Gym, Neo, Legendary Collection, E-Card), The Pokemon Company International for the rest;
release = a tcgdex set (year and release date from ``releaseDate``); set = the main set of that
release (same name); card = card (``localId`` -> number, English name, or the first name given);
RARITY, ARTIST (illustrator) and HP -> metadata fields (rarity also on the card).
Parallels = ``variants[]``: the first variant without a stamp or special print is the base card;
every other variant is a parallel named from its stamps, print and finish ("1st Edition
Shadowless Holo", "Reverse Holo"); it is full-set when every card of the set has it, otherwise a
partial parallel linked to its cards. Pokemon cards are not serial numbered (no print runs).
The digital TCG Pocket sets are skipped. Every set is identifiable (photos of its cards are matched
by the text printed on them; ``python -m evals.vision --real`` measures it). Ids: uuid5 of the
tcgdex ids (stable re-imports).
"""

from __future__ import annotations

import json
import logging
import uuid
from datetime import date
from pathlib import Path
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from store.importers import _tcgdex_upstream as upstream
from store.importers._bulk import Lookups, clip, derive_id, number_sort, upsert
from store.importers._fetch import fetched
from store.importers._jsonstream import iter_array
from store.importers._skips import Skips
from store.importers._tcgdex_upstream import Item
from store.models import Card, CardSet, FieldValue, Parallel, ParallelCard, Release

NAME = "tcgdex"
HELP = ("Pokemon TCG catalog (path or https URL of the tcgdex/cards-database repository or its .tar.gz/.zip "
        "archive, or of a folder of its JSON export: sets.json, cards.json)")
NEEDS_SOURCE = True
log = logging.getLogger("cardwise.catalog")

WOTC_SERIES = {"Base", "Gym", "Neo", "Legendary Collection", "E-Card"}
JSON_FILES = ("sets.json", "cards.json")
DIGITAL_SERIES = {"Pokémon TCG Pocket", "Pokemon TCG Pocket"}
FINISH = {"normal": "Normal", "reverse": "Reverse Holo", "holo": "Holo", "firstEdition": "1st Edition"}


def _en(names: Any) -> str:
    if isinstance(names, str):
        return names
    if isinstance(names, dict) and names:
        return str(names.get("en") or next(iter(names.values())))
    raise ValueError("missing name")


def _words(text: str) -> str:
    return "1st Edition" if text == "1st-edition" else " ".join(w.capitalize() for w in text.split("-"))


def variant_names(variants: Any) -> tuple[str | None, list[str]]:
    """(base variant name, parallel names) for one card's ``variants``."""
    names: list[tuple[str, bool]] = []  # (name, plain)
    if isinstance(variants, dict):  # older boolean form {"normal": true, "holo": false, ...}
        for key, label in FINISH.items():
            if variants.get(key):
                names.append((label, key != "firstEdition"))
    elif isinstance(variants, list):
        for v in variants:
            if not isinstance(v, dict):
                continue
            stamps = [_words(s) for s in v.get("stamp") or [] if isinstance(s, str)]
            sub = v.get("subtype")
            parts = stamps + ([_words(sub)] if sub and sub != "unlimited" else [])
            parts.append(FINISH.get(v.get("type"), _words(str(v.get("type") or "normal"))))
            names.append((" ".join(parts), not stamps and sub in (None, "unlimited")))
    seen: list[str] = []
    for n, _ in names:
        if n not in seen:
            seen.append(n)
    if not seen:
        return None, []
    base = next((n for n, plain in names if plain), seen[0])
    return base, [n for n in seen if n != base]


class _SetBuffer:
    def __init__(self, set_id: uuid.UUID, file: Path) -> None:
        self.set_id = set_id
        self.file = file
        self.cards: list[dict[str, Any]] = []
        self.fields: list[dict[str, Any]] = []
        self.variants: dict[str, list[uuid.UUID]] = {}
        self.ids: set[uuid.UUID] = set()


async def _flush(sessions, buf: _SetBuffer) -> int:
    total = len(buf.cards)
    pars, links = [], []
    for order, (name, card_ids) in enumerate(buf.variants.items()):
        pid = derive_id("tcgdex", "parallel", buf.set_id, name)
        partial = len(set(card_ids)) < total
        pars.append({"id": pid, "set_id": buf.set_id, "name": name, "description": None, "numbered_to": None,
                     "is_partial": partial, "sort_order": order})
        if partial:
            links += [{"parallel_id": pid, "card_id": c} for c in dict.fromkeys(card_ids)]
    async with sessions() as s, s.begin():
        await upsert(s, Card, buf.cards)
        await upsert(s, FieldValue, buf.fields)
        await upsert(s, Parallel, pars)
        await upsert(s, ParallelCard, links, keys=("parallel_id", "card_id"), nothing=True)
    return len(pars)


async def _safe_flush(sessions, buf: _SetBuffer, report) -> int:
    try:
        return await _flush(sessions, buf)
    except Exception as exc:  # noqa: BLE001 - this set's cards roll back; the import goes on
        report(buf.file, None, f"set {buf.set_id}: could not store {len(buf.cards)} cards: {exc!r}"[:500])
        return 0


async def run(sessions, source: str | None = None, *, progress: Any = None) -> dict[str, Any]:
    if not source:
        raise ValueError("tcgdex needs the path or URL of the tcgdex/cards-database repository (a checkout or "
                         "its .tar.gz/.zip archive) or of a folder holding its JSON export (sets.json, cards.json)")
    async with fetched(source, files=JSON_FILES, holds=lambda p: _is_json(p) or upstream.holds(p), keep=_wanted) as root:
        if _is_json(root):
            return await _run(sessions, root, _json_sets(root), lambda: _json_cards(root), progress)
        if upstream.holds(root):
            return await _run(sessions, root, upstream.sets(root), lambda: upstream.cards(root, DIGITAL_SERIES),
                              progress)
        raise ValueError(f"{source} holds neither sets.json and cards.json nor the repository's data/ folder")


def _is_json(folder: Path) -> bool:
    return all((folder / f).is_file() for f in JSON_FILES)


def _wanted(member: str) -> bool:
    """Archive members worth extracting: the repository's data/**.ts, or a JSON export."""
    parts = member.split("/")
    return (member.endswith(".ts") and "data" in parts[:-1]) or parts[-1] in (*JSON_FILES, "series.json")


def _json_sets(root: Path) -> Iterator[Item]:
    path = root / "sets.json"
    for i, st in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        yield path, i, st


def _json_cards(root: Path) -> Iterator[Item]:
    path = root / "cards.json"
    items = iter_array(path)
    i = -1
    while True:
        try:
            i, c = next(items)
        except StopIteration:
            return
        except ValueError as exc:
            yield path, i + 1, ValueError(f"unreadable from here on: {exc}")
            return
        yield path, i, c


async def _run(sessions, root: Path, sets_items: Iterable[Item], card_items: Callable[[], Iterator[Item]],
               progress: Any) -> dict[str, Any]:
    counts: dict[str, Any] = dict.fromkeys(("releases", "sets", "cards", "parallels", "skipped_digital",
                                            "bad_records"), 0)
    skips = Skips(log, NAME, root)

    def report(file: Path | str, row: int | None, message: str) -> None:
        counts["bad_records"] += 1
        skips.add(file, row, message)

    look = Lookups()
    set_ids: dict[tuple[str, str], uuid.UUID] = {}
    async with sessions() as s, s.begin():
        seg = await look.segment(s, "Pokemon", "PKMN")
        field_ids = {k: await look.field(s, k, n) for k, n in
                     (("RARITY", "Rarity"), ("ARTIST", "Artist"), ("HP", "Hit Points"))}
        rel_rows, set_rows = [], []
        for file, row, st in sets_items:
            try:
                if isinstance(st, Exception):
                    raise st
                serie_dir, file_name = st["_file"].split("/", 1)
                if serie_dir in DIGITAL_SERIES:
                    counts["skipped_digital"] += 1
                    skips.add(file, row, f"{_en(st.get('name') or '?')}: a digital TCG Pocket set "
                              "(its cards are left out too)")
                    continue
                name = _en(st["name"])
                rdate = date.fromisoformat(st["releaseDate"]) if st.get("releaseDate") else None
                man = await look.manufacturer(
                    s, "Wizards of the Coast" if serie_dir in WOTC_SERIES else "The Pokemon Company International")
                rel_id = derive_id("tcgdex", "release", st["id"])
                set_id = derive_id("tcgdex", "set", st["id"])
                official = (st.get("cardCount") or {}).get("official")
                rel_rows.append({"id": rel_id, "segment_id": seg, "manufacturer_id": man, "name": name,
                                 "year": str(rdate.year) if rdate else None, "release_date": rdate,
                                 "description": f"{st.get('serie')} series" + (f", {official} cards" if official else ""),
                                 "source": "tcgdex"})
                set_rows.append({"id": set_id, "release_id": rel_id, "name": name, "description": None,
                                 "pack_odds": None, "is_identifiable": True})
                set_ids[(serie_dir, file_name.removesuffix(".ts"))] = set_id
            except Exception as exc:  # noqa: BLE001
                report(file, row, f"bad set: {exc!r}")
        await upsert(s, Release, rel_rows)
        await upsert(s, CardSet, set_rows)
    counts["releases"] = counts["sets"] = len(set_rows)
    set_release = {sr["id"]: sr["release_id"] for sr in set_rows}

    bar = progress("tcgdex cards", None) if progress else None
    buf: _SetBuffer | None = None
    flushed: set[uuid.UUID] = set()
    for file, row, c in card_items():
        loc = f"{file}[{row}]" if row is not None else str(file)
        try:
            if isinstance(c, Exception):
                raise c
            serie_dir = c["serieDir"]
            if serie_dir in DIGITAL_SERIES:
                continue
            set_id = set_ids.get((serie_dir, c["set"]))
            if set_id is None:
                raise ValueError(f"unknown set {serie_dir}/{c['set']}")
            if buf is None or buf.set_id != set_id:
                if buf is not None:
                    counts["parallels"] += await _safe_flush(sessions, buf, report)
                    flushed.add(buf.set_id)
                if set_id in flushed:  # cards.json lists each set's cards together; say so when not
                    log.warning("cards of set %s are not contiguous at %s; its parallels are judged per run",
                                c["set"], loc)
                buf = _SetBuffer(set_id, file)
            number = clip(str(c["localId"]), 40)
            card_id = derive_id("tcgdex", "card", set_id, number)
            if card_id in buf.ids:
                raise ValueError(f"duplicate card number {number} in {c['set']}")
            name = clip(_en(c["name"]), 300)
            rarity = c.get("rarity") if isinstance(c.get("rarity"), str) else None
            types = " ".join(t for t in c.get("types") or [] if isinstance(t, str))
            desc = " ".join(filter(None, [types, c.get("category"), c.get("stage")])) or None
            buf.ids.add(card_id)
            buf.cards.append({"id": card_id, "set_id": set_id, "release_id": set_release[set_id], "name": name,
                              "number": number, "number_sort": number_sort(number), "description": desc,
                              "variation_of": None, "numbered_to": None, "rarity": rarity})
            for key, value in (("RARITY", rarity), ("ARTIST", c.get("illustrator")), ("HP", c.get("hp"))):
                if value not in (None, ""):
                    buf.fields.append({"id": derive_id(card_id, "field", key), "field_id": field_ids[key],
                                       "entity_type": "card", "entity_id": card_id, "value": str(value)[:500]})
            _, pars = variant_names(c.get("variants"))
            for p in pars:
                buf.variants.setdefault(p, []).append(card_id)
            counts["cards"] += 1
            if bar:
                bar.advance(1)
        except Exception as exc:  # noqa: BLE001
            report(file, row, f"bad card: {exc!r}")
    if buf is not None:
        counts["parallels"] += await _safe_flush(sessions, buf, report)
    if bar:
        bar.close()
    return {**counts, **skips.summary()}
