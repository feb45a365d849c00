"""The catalog importers on the real data sets (skipped when ../shared/data is absent) and the demo."""

from __future__ import annotations

import json

from sqlalchemy import func, select

from store.importers import demo, hockeycards, junkwax, tcgdex
from store.models import Card, CardImage, CardPrice, CardSet, Parallel, ParallelCard, Release
from tests.conftest import shared_data
from vision.photos import make_photo
from vision.render import CardSpec, render_card


async def _snapshot(sessions) -> dict:
    async with sessions() as s:
        out = {}
        for model in (Release, CardSet, Card, Parallel, ParallelCard, CardPrice, CardImage):
            out[model.__tablename__] = (await s.execute(select(func.count()).select_from(model))).scalar_one()
        out["names"] = sorted((str(c.id), c.name, c.number or "", c.description or "")
                              for c in (await s.execute(select(Card))).scalars())
        return out


async def _card(sessions, release_part: str, name: str, number: str):
    async with sessions() as s:
        return (await s.execute(select(Card).join(Release, Release.id == Card.release_id).where(
            Release.name.contains(release_part), Card.name == name, Card.number == number,
            Card.variation_of.is_(None)))).scalars().one()


async def test_junkwax_topps_chrome_ohtani(sessions, client, auth):
    path = shared_data("junkwax", "categories", "baseball", "2024", "2024-Topps-Chrome.json")
    counts = await junkwax.run(sessions, str(path))
    doc = json.loads(path.read_text())
    assert counts["cards"] == sum(len(s["cards"]) for s in doc["sets"])
    assert counts["sets"] == len(doc["sets"]) and counts["bad_records"] == 0
    before = await _snapshot(sessions)
    assert await junkwax.run(sessions, str(path)) == counts
    assert await _snapshot(sessions) == before  # re-import changes nothing
    ohtani = await _card(sessions, "2024 Topps Chrome", "Shohei Ohtani", "1")
    assert str(ohtani.id) == doc["sets"][0]["cards"][0]["uniqueId"]  # source ids kept
    r = await client.get(f"/v1/catalog/cards/{ohtani.id}", headers=auth)
    body = await r.json()
    numbered = {p["name"]: p["numberedTo"] for p in body["parallels"] if p.get("numberedTo")}
    assert numbered["Superfractors"] == 1 and numbered["Award Winners"] == 23
    assert any(p["isPartial"] for p in body["parallels"])
    r = await client.get("/v1/catalog/cards", params={"name": "ohtani", "number": "1", "releaseName": "topps chrome"},
                         headers=auth)
    found = (await r.json())["cards"]
    assert any(c.get("variationOf") == str(ohtani.id) for c in found)  # the image variation
    r = await client.get("/v1/catalog/manufacturers", params={"name": "topps"}, headers=auth)
    assert [m["name"] for m in (await r.json())["manufacturers"]] == ["Topps"]


def test_manufacturer_mapping():
    m = junkwax.manufacturer_for
    assert m("2024 Topps Chrome Baseball", 2024) == "Topps"
    assert m("1995 Bowman's Best Baseball", 1995) == "Topps"
    assert m("1990 Donruss Baseball", 1990) == "Donruss"
    assert m("2024 Donruss Baseball", 2024) == "Panini"
    assert m("1993 Score Baseball", 1993) == "Pinnacle Brands"
    assert m("1996 SP Baseball", 1996) == "Upper Deck"
    assert m("1991 Fleer Ultra Baseball", 1991) == "Fleer"


def _one_series(path, tmp_path, serie: str):
    """A JSON export holding one series' sets and cards (re-importing part of the data set is the
    same check as re-importing all of it, at a tenth of the time)."""
    sets = [s for s in json.loads((path / "sets.json").read_text()) if s["serie"] == serie]
    cards = [c for c in json.loads((path / "cards.json").read_text()) if c["serieDir"] == serie]
    (tmp_path / "sets.json").write_text(json.dumps(sets))
    (tmp_path / "cards.json").write_text(json.dumps(cards))
    return tmp_path, len(cards)


async def test_tcgdex_base_set_charizard(sessions, client, auth, tmp_path):
    path = shared_data("tcgdex")
    counts = await tcgdex.run(sessions, str(path))
    cards = json.loads((path / "cards.json").read_text())
    physical = [c for c in cards if c["serieDir"] not in tcgdex.DIGITAL_SERIES]
    assert counts["cards"] == len(physical) and counts["bad_records"] == 0 and counts["skipped_digital"] == 15
    before = await _snapshot(sessions)
    part, n = _one_series(path, tmp_path, "Base")
    again = await tcgdex.run(sessions, str(part))
    assert again["cards"] == n > 100 and again["bad_records"] == 0
    assert await _snapshot(sessions) == before  # re-import changes nothing
    async with sessions() as s:
        zard = (await s.execute(select(Card).join(CardSet, CardSet.id == Card.set_id).where(
            CardSet.name == "Base Set", Card.name == "Charizard", Card.number == "4"))).scalars().one()
    r = await client.get(f"/v1/catalog/cards/{zard.id}", headers=auth)
    body = await r.json()
    names = {p["name"] for p in body["parallels"]}
    assert any("1st Edition" in n for n in names) and any("Shadowless" in n for n in names)
    assert {"key": "ARTIST", "value": "Mitsuhiro Arita"} in body["fields"]
    r = await client.get(f"/v1/catalog/releases/{zard.release_id}", headers=auth)
    rel = await r.json()
    assert rel["year"] == "1999"
    r = await client.get("/v1/catalog/manufacturers", params={"name": "wizards"}, headers=auth)
    assert (await r.json())["total_count"] == 1
    # its sets are identifiable: a photo of Base Set Charizard #4 names that card among the catalog's
    # 80-odd Charizards, by the number and set printed on it
    r = await client.get(f"/v1/identify/check/set/{zard.set_id}", headers=auth)
    assert (await r.json())["is_identifiable"] is True
    spec = CardSpec(id=str(zard.id), name="Charizard", number="4", set_name="Base Set", release_name="Base Set",
                    year="1999", segment="Pokemon")
    data, _ = make_photo([render_card(spec)], "easy", seed=3)
    r = await client.post("/v1/identify/card", data=data, headers={**auth, "Content-Type": "image/jpeg"})
    (d,) = (await r.json())["detections"]
    assert d["card"]["id"] == str(zard.id)


async def test_hockeycards_images(sessions, client, auth):
    path = shared_data("hockeycards")
    counts = await hockeycards.run(sessions, str(path))
    # the releases' own cards and their subsets' (holograms 6; Young Guns 15, Gretzky extras 4, MVP Silver 45)
    assert counts["cards"] == 25 + 6 + 348 + 15 + 4 + 45 and counts["images"] == 58 and counts["sets"] == 6
    before = await _snapshot(sessions)
    await hockeycards.run(sessions, str(path))
    assert await _snapshot(sessions) == before
    r = await client.get("/v1/catalog/cards", params={"name": "gretzky", "number": "Mc-17"}, headers=auth)
    card = (await r.json())["cards"][0]
    r = await client.get(f"/v1/images/cards/{card['id']}", headers=auth)
    assert r.status == 200 and (await r.read())[:2] == b"\xff\xd8"
    r = await client.get("/v1/catalog/cards", params={"name": "gretzky", "number": "McH-01"}, headers=auth)
    (holo,) = (await r.json())["cards"]
    assert holo["setName"] == "Holograms" and holo["releaseName"] == "1991-92 Upper Deck McDonald's All-Stars"


async def test_demo_catalog(sessions, client, auth):
    counts = await demo.run(sessions, None)
    before = await _snapshot(sessions)
    assert await demo.run(sessions, None) == counts
    assert await _snapshot(sessions) == before
    r = await client.get("/v1/catalog/cards", params={"name": "Shohei Ohtani", "releaseName": "2024 Topps Chrome",
                                                      "number": "1"}, headers=auth)
    ohtani = (await r.json())["cards"][0]
    assert "demo data" in ohtani["description"].lower() and ohtani["prices"]["raw"] and ohtani["prices"]["psa-10"]
    r = await client.get(f"/v1/catalog/cards/{ohtani['id']}", headers=auth)
    assert {p["numberedTo"] for p in (await r.json())["parallels"] if p.get("numberedTo")} >= {1, 5, 25, 50}
    r = await client.get("/v1/catalog/cards", params={"name": "charizard", "number": "4"}, headers=auth)
    zard = (await r.json())["cards"][0]
    r = await client.get(f"/v1/catalog/cards/{zard['id']}", headers=auth)
    assert {"1st Edition", "Shadowless"} <= {p["name"] for p in (await r.json())["parallels"]}
    async with sessions() as s:
        assert (await s.execute(select(func.count()).select_from(CardPrice).where(
            CardPrice.synthetic.is_(False)))).scalar_one() == 0
