"""Importers report bad records with their location and go on; the CLI prints a summary; pulls follow the odds."""

from __future__ import annotations

import json
import logging
import random
import uuid

from sqlalchemy import func, select

from cli.main import main
from store.importers import junkwax, tcgdex
from store.models import Card
from tools import _odds


def _release(uid: str, cards: list[dict]) -> dict:
    return {"$schema": "x", "name": "1991 Fleer Baseball", "version": "1.0", "uniqueId": uid,
            "sets": [{"uniqueId": str(uuid.uuid4()), "name": "Base Set", "cards": cards,
                      "parallels": [{"name": "Gold", "numberedTo": 10}]}]}


async def test_junkwax_bad_records_are_reported_and_skipped(sessions, tmp_path, caplog):
    year = tmp_path / "categories" / "baseball" / "1991"
    year.mkdir(parents=True)
    good = [{"uniqueId": str(uuid.uuid4()), "name": "Ken Griffey Jr.", "number": "1", "attributes": ["RC"]},
            {"uniqueId": "not-a-uuid", "name": "Broken"},
            {"uniqueId": str(uuid.uuid4()), "name": "Nolan Ryan", "number": "2",
             "variations": [{"variation": "Error Back", "parallels": [{"name": "Red", "numberedTo": 5}]}]}]
    (year / "1991-Fleer.json").write_text(json.dumps(_release(str(uuid.uuid4()), good)))
    (year / "1991-Broken.json").write_text("{not json")
    with caplog.at_level(logging.WARNING, logger="cardwise.catalog"):
        counts = await junkwax.run(sessions, str(tmp_path))
    assert counts["cards"] == 2 and counts["variations"] == 1 and counts["bad_records"] == 2
    assert counts["parallels"] == 2  # set-level Gold + partial Red on the variation
    text = caplog.text
    assert "1991-Fleer.json:sets[0].cards[1]" in text and "1991-Broken.json" in text
    assert [(e["file"], e["row"]) for e in sorted(counts["skipped"], key=lambda e: e["file"])] == [
        ("categories/baseball/1991/1991-Broken.json", None),
        ("categories/baseball/1991/1991-Fleer.json", "sets[0].cards[1]")]
    assert "unreadable release file" in sorted(counts["skipped"], key=lambda e: e["file"])[0]["reason"]
    async with sessions() as s:
        assert (await s.execute(select(func.count()).select_from(Card))).scalar_one() == 3
        var = (await s.execute(select(Card).where(Card.variation_of.is_not(None)))).scalars().one()
        assert var.description.startswith("Error Back")


async def test_tcgdex_bad_records_and_digital_sets(sessions, tmp_path):
    (tmp_path / "sets.json").write_text(json.dumps([
        {"id": "base1", "name": {"en": "Base Set"}, "serie": "Base", "cardCount": {"official": 102},
         "releaseDate": "1999-01-09", "_file": "Base/Base Set.ts"},
        {"id": "A1", "name": {"en": "Genetic Apex"}, "serie": "Pokémon TCG Pocket", "cardCount": {"official": 1},
         "releaseDate": "2024-10-30", "_file": "Pokémon TCG Pocket/Genetic Apex.ts"},
    ]))
    (tmp_path / "cards.json").write_text(json.dumps([
        {"name": {"en": "Charizard"}, "set": "Base Set", "serieDir": "Base", "localId": "4", "rarity": "Rare",
         "hp": 120, "illustrator": "Mitsuhiro Arita",
         "variants": [{"type": "holo", "subtype": "unlimited"}, {"type": "holo", "stamp": ["1st-edition"]}]},
        {"name": {"en": "Pikachu"}, "set": "Nowhere", "serieDir": "Base", "localId": "58", "rarity": "Common"},
        {"name": {"en": "Bulbasaur"}, "set": "Genetic Apex", "serieDir": "Pokémon TCG Pocket", "localId": "1",
         "rarity": "One Diamond"},
    ]))
    counts = await tcgdex.run(sessions, str(tmp_path))
    skipped = counts.pop("skipped")
    assert counts == {"releases": 1, "sets": 1, "cards": 1, "parallels": 1, "skipped_digital": 1, "bad_records": 1}
    assert [(e["file"], e["row"]) for e in skipped] == [("sets.json", 1), ("cards.json", 1)]
    assert "Genetic Apex" in skipped[0]["reason"] and "unknown set Base/Nowhere" in skipped[1]["reason"]


def test_variant_names():
    base, pars = tcgdex.variant_names([{"type": "holo", "subtype": "unlimited"},
                                       {"type": "holo", "subtype": "shadowless", "stamp": ["1st-edition"]},
                                       {"type": "holo", "subtype": "shadowless"}])
    assert base == "Holo" and pars == ["1st Edition Shadowless Holo", "Shadowless Holo"]
    assert tcgdex.variant_names({"normal": True, "reverse": True, "holo": False}) == ("Normal", ["Reverse Holo"])


def test_cli_import_demo_prints_summary(db_url, monkeypatch, capsys):
    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    assert main(["import", "demo", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["importer"] == "demo" and summary["cards"] > 50
    assert main(["import", "demo", "--if-empty"]) == 0
    assert "the catalog already has cards" in capsys.readouterr().out
    assert main(["import", "junkwax"]) == 2  # needs a source


async def test_random_pulls_follow_the_odds(client, auth, cat):
    """1,600 pulls from the Chrome base set (4 cards a request): frequencies match tools._odds.expected."""
    _odds.set_rng(random.Random(11))
    try:
        hits: dict[str, int] = {}
        pulls = 0
        for _ in range(400):
            r = await client.get("/v1/catalog/cards/random", headers=auth,
                                 params={"count": "200", "includeParallels": "true", "setId": str(cat.sets["chrome"].id)})
            for c in (await r.json())["cards"]:
                pulls += 1
                hits[c.get("parallelName", "base")] = hits.get(c.get("parallelName", "base"), 0) + 1
    finally:
        _odds.set_rng(random.Random())
    assert pulls == 1600
    # every request returns each of the set's 4 cards (the variation is a card too) once
    pars = cat.parallels
    per_card = {
        "ohtani": [pars["refractor"], pars["gold"], pars["superfractor"], pars["red_partial"]],
        "judge": [pars["refractor"], pars["gold"], pars["superfractor"]],
        "skenes": [pars["refractor"], pars["gold"], pars["superfractor"]],
        "ohtani_var": [pars["refractor"], pars["gold"], pars["superfractor"]],
    }
    exp_refractor = sum(_odds.expected(v)[pars["refractor"]] for v in per_card.values()) / len(per_card)
    exp_gold = sum(_odds.expected(v)[pars["gold"]] for v in per_card.values()) / len(per_card)
    for name, p in (("Refractor", exp_refractor), ("Gold Refractor", exp_gold)):
        sd = (p * (1 - p) / pulls) ** 0.5
        assert abs(hits.get(name, 0) / pulls - p) < 5 * sd, (name, hits, p)
    assert hits.get("Superfractor", 0) < 10  # expected about 1.6 in 1,600
    assert hits.get("Red Lava", 0) < 12  # only Ohtani has it: about 2 in 1,600


def test_cli_import_bad_source(db_url, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    assert main(["import", "junkwax", str(tmp_path / "missing"), "--quiet"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["import", "junkwax", "https://example.com/CardLists.zip", "--quiet"]) == 2
