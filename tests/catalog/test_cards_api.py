"""Card search, detail and random pulls over the generated catalog (tests/factories.py)."""

from __future__ import annotations

import uuid

import pytest

from store.models import CardPrice, FieldValue, MetadataField


async def get(client, auth, path, **params):
    r = await client.get(path, params=params, headers=auth)
    return r.status, await r.json()


async def names(client, auth, **params):
    status, body = await get(client, auth, "/v1/catalog/cards", **params)
    assert status == 200, body
    return [c["name"] for c in body["cards"]], body


async def test_name_is_partial_and_case_insensitive(client, auth, cat):
    found, body = await names(client, auth, name="OHTA")
    assert found == ["Shohei Ohtani", "Shohei Ohtani"]
    assert body["total_count"] == 2 and body["take"] == 20 and body["skip"] == 0
    assert (await names(client, auth, name="ht"))[0] == ["Shohei Ohtani", "Shohei Ohtani"]  # short: LIKE path
    assert (await names(client, auth, name="100%"))[0] == []


async def test_number_is_exact(client, auth, cat):
    assert set((await names(client, auth, number="1"))[0]) == {"Shohei Ohtani"}
    assert (await names(client, auth, number="RA-PS"))[0] == ["Paul Skenes"]
    assert (await names(client, auth, number="RA"))[0] == []


async def test_year_overrides_min_max(client, auth, cat):
    assert set((await names(client, auth, year="1989"))[0]) == {"Ken Griffey Jr."}
    assert set((await names(client, auth, year="1989", min_year="2020"))[0]) == {"Ken Griffey Jr."}
    got = set((await names(client, auth, min_year="1990", max_year="2000"))[0])
    assert got == {"Charizard", "Pikachu"}


async def test_manufacturer_by_name_or_uuid_and_release_set_filters(client, auth, cat):
    by_name = set((await names(client, auth, manufacturer="wizards of the coast"))[0])
    by_id = set((await names(client, auth, manufacturer=str(cat.manufacturers["wotc"].id)))[0])
    assert by_name == by_id == {"Charizard", "Pikachu"}
    assert set((await names(client, auth, releaseName="chrome", setName="autog"))[0]) == {"Paul Skenes"}
    assert len((await names(client, auth, setId=str(cat.sets["chrome"].id)))[0]) == 4
    assert len((await names(client, auth, releaseId=str(cat.releases["chrome"].id)))[0]) == 5


async def test_attribute_filters(client, auth, cat):
    assert (await names(client, auth, attributeShortName="AU"))[0] == ["Paul Skenes"]
    assert (await names(client, auth, attributeShortName="au"))[0] == []  # case-sensitive
    assert len((await names(client, auth, attributeId=str(cat.attributes["rc"].id)))[0]) == 2


async def test_sort_and_order(client, auth, cat):
    asc = (await names(client, auth, sort="name"))[0]
    assert asc == sorted(asc, key=str.lower)
    desc = (await names(client, auth, sort="name", order="desc"))[0]
    assert desc == list(reversed(asc))
    years = (await names(client, auth, sort="year"))[0]
    assert years[0] == "Ken Griffey Jr."
    _, body = await names(client, auth, sort="set")
    sets = [c["setName"] for c in body["cards"]]
    assert sets == sorted(sets, key=str.lower) and sets[-1] == "Rookie Autographs"
    _, body = await names(client, auth, sort="release", order="desc")
    assert [c["releaseName"] for c in body["cards"]][0] == "Base Set"


async def test_prices_and_price_sort(client, auth, cat, sessions):
    async with sessions() as s, s.begin():
        s.add_all([
            CardPrice(card_id=cat.cards["judge"].id, price_key="raw", value_cents=500),
            CardPrice(card_id=cat.cards["ohtani"].id, price_key="raw", value_cents=1250),
            CardPrice(card_id=cat.cards["ohtani"].id, price_key="psa-10", value_cents=9900),
            CardPrice(card_id=cat.cards["ohtani"].id, parallel_id=cat.parallels["gold"].id, price_key="raw",
                      value_cents=40000),
        ])
    found, body = await names(client, auth, sort="price-raw", order="desc", take=2)
    assert found == ["Shohei Ohtani", "Aaron Judge"]
    assert body["cards"][0]["prices"] == {"psa-10": "99.00", "raw": "12.50"}
    status, detail = await get(client, auth, f"/v1/catalog/cards/{cat.cards['ohtani'].id}")
    gold = next(p for p in detail["parallels"] if p["name"] == "Gold Refractor")
    assert gold["prices"] == {"raw": "400.00"} and gold["numberedTo"] == 50
    asc, _ = await names(client, auth, sort="price-raw", take=1)
    assert asc == ["Aaron Judge"]


async def test_card_detail(client, auth, cat):
    status, body = await get(client, auth, f"/v1/catalog/cards/{cat.cards['ohtani'].id}")
    assert status == 200
    names_ = {p["name"] for p in body["parallels"]}
    assert names_ == {"Refractor", "Gold Refractor", "Superfractor", "Red Lava"}
    assert body["parallelCount"] == 4 and body["setName"] == "Base" and body["releaseName"] == "2024 Topps Chrome"
    status, judge = await get(client, auth, f"/v1/catalog/cards/{cat.cards['judge'].id}")
    assert "Red Lava" not in {p["name"] for p in judge["parallels"]}  # partial: only its cards
    status, var = await get(client, auth, f"/v1/catalog/cards/{cat.cards['ohtani_var'].id}")
    assert var["variationOf"] == str(cat.cards["ohtani"].id)
    status, auto = await get(client, auth, f"/v1/catalog/cards/{cat.cards['skenes_auto'].id}")
    assert auto["numberedTo"] == 99 and auto["attributes"] == ["AU", "RC"]


@pytest.mark.parametrize("path", ["/v1/catalog/cards/{}", "/v1/catalog/releases/{}", "/v1/catalog/sets/{}",
                                  "/v1/catalog/parallels/{}", "/v1/catalog/attributes/{}", "/v1/catalog/fields/{}",
                                  "/v1/catalog/releases/{}/cards", "/v1/catalog/sets/{}/cards"])
async def test_unknown_is_404_and_malformed_is_400(client, auth, cat, path):
    r = await client.get(path.format(uuid.uuid4()), headers=auth)
    assert r.status == 404 and (await r.json())["code"] == "NOT_FOUND"
    r = await client.get(path.format("not-a-uuid"), headers=auth)
    assert r.status == 400 and (await r.json())["code"] == "VALIDATION_ERROR"


@pytest.mark.parametrize("params", [
    {"take": "0"}, {"take": "101"}, {"skip": "-1"}, {"sort": "bogus"}, {"order": "up"}, {"setId": "xyz"},
    {"releaseId": "123"}, {"year": "twenty"}, {"attributeId": "nope"},
])
async def test_card_search_rejects_bad_input(client, auth, cat, params):
    status, body = await get(client, auth, "/v1/catalog/cards", **params)
    assert status == 400 and body["code"] == "VALIDATION_ERROR" and body["error"]


async def test_take_bounds_accepted(client, auth, cat):
    assert (await get(client, auth, "/v1/catalog/cards", take="1"))[1]["take"] == 1
    assert len((await get(client, auth, "/v1/catalog/cards", take="100", skip="2"))[1]["cards"]) == 6


async def test_random_cards(client, auth, cat, sessions):
    status, body = await get(client, auth, "/v1/catalog/cards/random", count="200")
    assert status == 200 and body["count"] == 8 and all("isParallel" not in c for c in body["cards"])
    seen = set()
    for _ in range(20):  # unfiltered pulls sample the whole catalog (primary-key probe)
        status, body = await get(client, auth, "/v1/catalog/cards/random", count="3")
        ids = [c["id"] for c in body["cards"]]
        assert len(ids) == 3 == len(set(ids))
        seen.update(ids)
    assert len(seen) >= 6
    status, body = await get(client, auth, "/v1/catalog/cards/random", count="3", name="ohtani")
    assert body["count"] == 2
    for bad in ({"count": "0"}, {"count": "201"},
                {"setId": str(cat.sets["chrome"].id), "releaseId": str(cat.releases["chrome"].id)},
                {"sort": "price-raw"}, {"field": "NOCOLON"}):
        status, err = await get(client, auth, "/v1/catalog/cards/random", **bad)
        assert status == 400 and err["code"] == "VALIDATION_ERROR", bad
    status, body = await get(client, auth, "/v1/catalog/cards/random", count="50", includeParallels="true",
                             setId=str(cat.sets["chrome"].id))
    assert status == 200 and all("isParallel" in c for c in body["cards"])
    for c in body["cards"]:
        if c["isParallel"]:
            assert c["parallelId"] and c["parallelName"] and "numberedTo" in c


async def test_random_cards_field_filter(client, auth, cat, sessions):
    async with sessions() as s, s.begin():
        f = MetadataField(key="RARITY", name="Rarity")
        s.add(f)
        await s.flush()
        s.add(FieldValue(field_id=f.id, entity_type="card", entity_id=cat.cards["charizard"].id, value="Rare Holo"))
        s.add(FieldValue(field_id=f.id, entity_type="card", entity_id=cat.cards["pikachu"].id, value="Common"))
    status, body = await get(client, auth, "/v1/catalog/cards/random", count="10", field="rarity:RARE HOLO")
    assert [c["name"] for c in body["cards"]] == ["Charizard"]
    r = await client.get("/v1/catalog/cards/random?count=10&field=RARITY:common&field=RARITY:rare%20holo",
                         headers=auth)
    assert (await r.json())["count"] == 0  # all must match
    status, body = await get(client, auth, "/v1/catalog/search", q="chari", field="RARITY:Rare Holo")
    assert [x["name"] for x in body["results"]] == ["Charizard"]
