"""Releases, sets, parallels, attributes, fields, manufacturers, search, autocomplete, calendar, images."""

from __future__ import annotations

import base64
import random
import uuid
from datetime import date

import pytest

from store.models import CardImage, FieldValue, MetadataField
from tools import _odds


async def get(client, auth, path, **params):
    r = await client.get(path, params=params, headers=auth)
    return r.status, await r.json()


async def test_releases_search_filters_and_sort(client, auth, cat):
    s, body = await get(client, auth, "/v1/catalog/releases", name="TOPPS", sort="year", order="desc")
    assert s == 200 and [r["name"] for r in body["releases"]] == ["2024 Topps Chrome", "1989 Topps"]
    s, body = await get(client, auth, "/v1/catalog/releases", segment="pokemon")
    assert [r["name"] for r in body["releases"]] == ["Base Set"] and body["releases"][0]["is_identifiable"] is True
    s, body = await get(client, auth, "/v1/catalog/releases", segment=str(cat.segments["baseball"].id),
                        is_identifiable="false")
    assert [r["name"] for r in body["releases"]] == ["1989 Topps"]
    s, body = await get(client, auth, "/v1/catalog/releases", year="2024", min_year="1900", max_year="1950")
    assert body["total_count"] == 1
    s, body = await get(client, auth, "/v1/catalog/releases", manufacturer="Topps", take="1", skip="1", sort="name")
    assert [r["name"] for r in body["releases"]] == ["2024 Topps Chrome"] and body["total_count"] == 2
    for bad in ({"sort": "number"}, {"is_identifiable": "yes"}, {"take": "101"}):
        s, err = await get(client, auth, "/v1/catalog/releases", **bad)
        assert s == 400 and err["code"] == "VALIDATION_ERROR"


async def test_release_detail_cards_and_random(client, auth, cat):
    rid = cat.releases["chrome"].id
    s, body = await get(client, auth, f"/v1/catalog/releases/{rid}")
    sets = {x["name"]: x for x in body["sets"]}
    assert sets["Base"]["cardCount"] == 3 and sets["Base"]["parallelCount"] == 4  # base cards only
    s, body = await get(client, auth, f"/v1/catalog/releases/{rid}/cards", sort="number")
    assert [c["number"] for c in body["cards"]] == ["1", "2", "10", "RA-PS"]
    s, body = await get(client, auth, f"/v1/catalog/releases/{rid}/cards", setId=str(cat.sets["chrome_auto"].id))
    assert [c["name"] for c in body["cards"]] == ["Paul Skenes"]
    s, body = await get(client, auth, "/v1/catalog/releases/random", count="200", segment="BASEBALL")
    assert s == 200 and body["count"] == 2
    s, err = await get(client, auth, "/v1/catalog/releases/random", count="0")
    assert s == 400


async def test_sets_search_detail_cards_random(client, auth, cat):
    s, body = await get(client, auth, "/v1/catalog/sets", name="base", sort="year")
    assert [x["releaseName"] for x in body["sets"]] == ["1989 Topps", "Base Set", "2024 Topps Chrome"]
    s, body = await get(client, auth, "/v1/catalog/sets", is_identifiable="true", releaseId=str(cat.releases["chrome"].id))
    assert [x["name"] for x in body["sets"]] == ["Base"] and body["sets"][0]["cardCount"] == 3
    sid = cat.sets["chrome"].id
    s, body = await get(client, auth, f"/v1/catalog/sets/{sid}")
    red = next(p for p in body["parallels"] if p["name"] == "Red Lava")
    assert red["isPartial"] is True and red["cards"] == [str(cat.cards["ohtani"].id)] and red["numberedTo"] == 5
    gold = next(p for p in body["parallels"] if p["name"] == "Gold Refractor")
    assert gold["isPartial"] is False and "cards" not in gold
    s, body = await get(client, auth, f"/v1/catalog/sets/{sid}/cards", sort="name", order="desc")
    assert [c["name"] for c in body["cards"]] == ["Shohei Ohtani", "Paul Skenes", "Aaron Judge"]
    s, body = await get(client, auth, f"/v1/catalog/sets/{sid}/cards", number="10")
    assert [c["name"] for c in body["cards"]] == ["Paul Skenes"]
    s, body = await get(client, auth, "/v1/catalog/sets/random", count="2", manufacturer="topps")
    assert body["count"] == 2 and all(x["releaseName"] != "Base Set" for x in body["sets"])


async def test_manufacturers_parallels_attributes(client, auth, cat):
    s, body = await get(client, auth, "/v1/catalog/manufacturers", name="wiz")
    assert [m["name"] for m in body["manufacturers"]] == ["Wizards of the Coast"]
    s, body = await get(client, auth, "/v1/catalog/manufacturers", order="desc")
    assert [m["name"] for m in body["manufacturers"]] == ["Wizards of the Coast", "Topps"]
    s, body = await get(client, auth, "/v1/catalog/parallels", name="refractor", sort="name")
    assert [p["name"] for p in body["parallels"]] == ["Gold Refractor", "Refractor"]
    assert body["parallels"][0]["cardCount"] == 3 and body["parallels"][0]["releaseYear"] == "2024"
    s, body = await get(client, auth, "/v1/catalog/parallels", year="1999")
    assert {p["name"] for p in body["parallels"]} == {"1st Edition", "Shadowless"}
    s, body = await get(client, auth, "/v1/catalog/parallels", releaseName="chrome", sort="bogus")
    assert s == 400
    s, body = await get(client, auth, f"/v1/catalog/parallels/{cat.parallels['red_partial'].id}")
    assert body["isPartial"] is True and body["cards"] == [str(cat.cards["ohtani"].id)] and body["setName"] == "Base"
    s, body = await get(client, auth, "/v1/catalog/attributes", sort="cardCount", order="desc")
    assert [(a["shortName"], a["cardCount"]) for a in body["attributes"]] == [("RC", 2), ("AU", 1)]
    s, body = await get(client, auth, f"/v1/catalog/attributes/{cat.attributes['au'].id}")
    assert body["name"] == "Autograph" and body["cardCount"] == 1


async def test_fields(client, auth, cat, sessions):
    async with sessions() as s, s.begin():
        hp = MetadataField(key="HP", name="Hit Points")
        s.add(hp)
        await s.flush()
        s.add(FieldValue(field_id=hp.id, entity_type="card", entity_id=cat.cards["charizard"].id, value="120"))
    s, body = await get(client, auth, "/v1/catalog/fields", key="h", sort="usageCount", order="desc")
    assert body["fields"][0]["key"] == "HP" and body["fields"][0]["usageCount"] == 1
    s, one = await get(client, auth, f"/v1/catalog/fields/{hp.id}")
    assert one["name"] == "Hit Points"
    s, detail = await get(client, auth, f"/v1/catalog/cards/{cat.cards['charizard'].id}")
    assert detail["fields"] == [{"key": "HP", "value": "120"}]


async def test_catalog_search_ranked(client, auth, cat):
    s, body = await get(client, auth, "/v1/catalog/search", q="refractor")
    assert s == 200 and body["results"][0]["name"] == "Refractor" and body["results"][0]["matchKind"] == "exact"
    assert all(r["type"] == "parallel" for r in body["results"])
    s, body = await get(client, auth, "/v1/catalog/search", q="base")
    kinds = {r["type"] for r in body["results"]}
    assert {"set", "release"} <= kinds and body["total_count"] == len(body["results"])
    s, body = await get(client, auth, "/v1/catalog/search", q="shohei ohtani", type="card", segment="Baseball")
    assert [r["name"] for r in body["results"]] == ["Shohei Ohtani"] * 2 and body["results"][0]["cardNumber"] == "1"
    for bad in ({"q": "x"}, {"q": "a" * 201}, {"q": "abc", "type": "team"}, {}):
        s, err = await get(client, auth, "/v1/catalog/search", **bad)
        assert s == 400, bad


async def test_autocomplete(client, auth, cat):
    s, body = await get(client, auth, "/v1/autocomplete/cards", q="sk")
    assert body == {"suggestions": ["Paul Skenes"]}
    s, body = await get(client, auth, "/v1/autocomplete/cards", q="a", segmentId=str(cat.segments["pokemon"].id))
    assert body["suggestions"] == ["Charizard", "Pikachu"]
    s, body = await get(client, auth, "/v1/autocomplete/sets", q="base")
    assert body["suggestions"] == ["Base", "Base Set"]
    s, body = await get(client, auth, "/v1/autocomplete/releases", q="topps")
    assert body["suggestions"] == ["2024 Topps Chrome", "1989 Topps"]  # equally good matches: the newer first
    s, body = await get(client, auth, "/v1/autocomplete/manufacturers", q="o")
    assert body["suggestions"] == ["Topps", "Wizards of the Coast"]
    s, body = await get(client, auth, "/v1/autocomplete/years", q="19")
    assert body["suggestions"] == ["1989", "1999"]
    s, body = await get(client, auth, "/v1/autocomplete/segments", q="ball")
    assert body["suggestions"] == ["Baseball"]
    s, err = await get(client, auth, "/v1/autocomplete/cards")
    assert s == 400
    s, err = await get(client, auth, "/v1/autocomplete/cards", q="a", setId="bad")
    assert s == 400


async def test_release_calendar(client, auth, cat, sessions):
    from store.models import Release

    async with sessions() as s, s.begin():
        r = await s.get(Release, cat.releases["chrome"].id)
        r.release_date = date(2024, 8, 21)
    s, body = await get(client, auth, "/v1/release-calendar/")
    first = body["release_calendar"][0]
    assert first["name"] == "2024 Topps Chrome" and first["release_date"] == "2024-08-21"
    assert first["pre_order_date"] is None and set(first) == {"id", "name", "year", "release_date", "pre_order_date",
                                                              "segment_id", "manufacturer_id"}
    s, body = await get(client, auth, "/v1/release-calendar/", segment="POKEMON")
    assert [x["name"] for x in body["release_calendar"]] == ["Base Set"]


async def test_card_image(client, auth, cat, sessions):
    cid = cat.cards["charizard"].id
    r = await client.get(f"/v1/images/cards/{cid}", headers=auth)
    assert r.status == 404
    async with sessions() as s, s.begin():
        s.add(CardImage(card_id=cid, side="back", content_type="image/jpeg", data=b"\xff\xd8back"))
        s.add(CardImage(card_id=cid, side="front", content_type="image/jpeg", data=b"\xff\xd8front"))
    r = await client.get(f"/v1/images/cards/{cid}", headers=auth)
    assert r.status == 200 and r.content_type == "image/jpeg" and await r.read() == b"\xff\xd8front"
    s, body = await get(client, auth, f"/v1/images/cards/{cid}", format="json")
    assert body["contentType"] == "image/jpeg"
    assert base64.b64decode(body["data"].split(",", 1)[1]) == b"\xff\xd8front"
    r = await client.get(f"/v1/images/cards/{cat.cards['pikachu'].id}", params={"default": "true"}, headers=auth)
    assert r.status == 200 and r.content_type == "image/png"
    r = await client.get(f"/v1/images/cards/{uuid.uuid4()}", params={"default": "true"}, headers=auth)
    assert r.status == 404


class _P:
    def __init__(self, name, n):
        self.name, self.numbered_to = name, n


def test_parallel_odds_frequencies():
    pars = [_P("Gold", 50), _P("Super", 1), _P("Orange", 25), _P("Refractor", None), _P("Prism", None)]
    rng = random.Random(7)
    n = 200_000
    seen: dict = {}
    for _ in range(n):
        hit = _odds.roll(pars, rng)
        seen[hit] = seen.get(hit, 0) + 1
    exp = _odds.expected(pars)
    assert abs(sum(exp.values()) - 1) < 1e-9
    for key, p in exp.items():
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(seen.get(key, 0) / n - p) < 5 * sd + 1e-4, (getattr(key, "name", "base"), p)
    # rarest first: the /1 is rolled before the /25 and /50
    assert exp[pars[1]] == pytest.approx(0.001)
    assert exp[pars[2]] == pytest.approx(0.999 * 0.025)


def test_odds_without_unlimited_returns_base_otherwise():
    assert _odds.expected([_P("Gold", 50)])[None] == pytest.approx(0.95)
    assert _odds.expected([])[None] == 1.0
