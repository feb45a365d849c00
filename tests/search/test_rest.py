"""REST callers of the search index: card name search, catalog search and autocomplete."""

from __future__ import annotations

import json
import random
import uuid

from store.models import Card


async def get(client, auth, path, **params):
    r = await client.get(path, params=params, headers=auth)
    assert r.status == 200, await r.text()
    return await r.json()


async def test_name_search_forgives_typos_order_and_accents(client, auth, cat):
    body = await get(client, auth, "/v1/catalog/cards", name="griffey jr ken")
    assert [c["name"] for c in body["cards"]] == ["Ken Griffey Jr."] and body["total_count"] == 1
    body = await get(client, auth, "/v1/catalog/cards", name="Shohie Ohtani")  # a typo
    assert [c["name"] for c in body["cards"]] == ["Shohei Ohtani"] * 2
    assert body["cards"][0]["id"] == str(cat.cards["ohtani"].id)  # the base card before its variation
    body = await get(client, auth, "/v1/catalog/cards", name="CHARIZÁRD")
    assert [c["name"] for c in body["cards"]] == ["Charizard"]
    body = await get(client, auth, "/v1/catalog/cards", name="skenes", year="2024", number="RA-PS")
    assert [c["number"] for c in body["cards"]] == ["RA-PS"]


async def test_a_ranked_page_shows_parallels_fields_and_prices_as_the_database_does(client, auth, cat, sessions):
    from store.models import CardPrice, FieldValue, MetadataField

    async with sessions() as s, s.begin():
        rarity = MetadataField(id=uuid.uuid4(), key="RARITY", name="Rarity")
        artist = MetadataField(id=uuid.uuid4(), key="ARTIST", name="Artist")
        s.add_all([rarity, artist])
        await s.flush()
        charizard = cat.cards["charizard"].id
        s.add_all([FieldValue(id=uuid.uuid4(), field_id=f.id, entity_type="card", entity_id=charizard, value=v)
                   for f, v in ((rarity, "Rare Holo"), (artist, "Mitsuhiro Arita"))])
        s.add(CardPrice(id=uuid.uuid4(), card_id=cat.cards["judge"].id, price_key="psa-10", value_cents=99000))
    for name in ("ohtani", "judge", "charizard"):  # a partial parallel on ohtani only; fields; a graded price
        ranked = await get(client, auth, "/v1/catalog/cards", name=name)
        from_sql = await get(client, auth, "/v1/catalog/cards", name=name, sort="name")
        assert sorted(ranked["cards"], key=lambda c: c["id"]) == sorted(from_sql["cards"], key=lambda c: c["id"])
    cards = {c["id"]: c for c in (await get(client, auth, "/v1/catalog/cards", name="ohtani"))["cards"]}
    assert "Red Lava" in [p["name"] for p in cards[str(cat.cards["ohtani"].id)]["parallels"]]
    judge = (await get(client, auth, "/v1/catalog/cards", name="judge"))["cards"][0]
    assert "Red Lava" not in [p["name"] for p in judge["parallels"]] and judge["prices"] == {"psa-10": "990.00"}
    charizard_page = (await get(client, auth, "/v1/catalog/cards", name="charizard"))["cards"][0]
    assert charizard_page["fields"] == [{"key": "ARTIST", "value": "Mitsuhiro Arita"},
                                        {"key": "RARITY", "value": "Rare Holo"}]


async def test_name_search_pages_every_match_once(client, auth, cat, sessions):
    rnd = random.Random(3)
    chrome = cat.sets["chrome"]
    async with sessions() as s, s.begin():
        for i in range(230):
            s.add(Card(id=uuid.uuid4(), set_id=chrome.id, release_id=chrome.release_id,
                       name=f"{rnd.choice(['Alex', 'Alec', 'Max'])} Tester{i % 7}", number=str(i)))
    seen, total = [], None
    for skip in range(0, 400, 50):
        body = await get(client, auth, "/v1/catalog/cards", name="tester", take="50", skip=str(skip))
        total = body["total_count"]
        seen += [c["id"] for c in body["cards"]]
    assert total == 230 and len(seen) == len(set(seen)) == 230
    body = await get(client, auth, "/v1/catalog/cards", name="tester", skip=str(2**53 - 1))
    assert body["cards"] == [] and body["total_count"] == 230


async def test_catalog_search_and_autocomplete_use_words_in_any_order(client, auth, cat):
    body = await get(client, auth, "/v1/catalog/search", q="topps chrome 2024", type="release")
    assert [r["name"] for r in body["results"]] == ["2024 Topps Chrome"]
    body = await get(client, auth, "/v1/catalog/search", q="ohtani chrome")
    assert [r["name"] for r in body["results"]] == ["Shohei Ohtani", "Shohei Ohtani"]
    body = await get(client, auth, "/v1/catalog/search", q="gold refractr")
    assert body["results"][0]["name"] == "Gold Refractor" and body["results"][0]["type"] == "parallel"
    assert (await get(client, auth, "/v1/autocomplete/cards", q="ken gr"))["suggestions"] == ["Ken Griffey Jr."]
    assert (await get(client, auth, "/v1/autocomplete/cards", q="aaron",
                      releaseId=str(cat.releases["chrome"].id)))["suggestions"] == ["Aaron Judge"]
    assert (await get(client, auth, "/v1/autocomplete/releases", q="chrome 20"))["suggestions"] == ["2024 Topps Chrome"]


async def test_a_ranked_page_shows_the_same_cards_as_the_database(client, auth, cat, sessions):
    from store.models import CardPrice

    async with sessions() as s, s.begin():
        s.add(CardPrice(id=uuid.uuid4(), card_id=cat.cards["skenes"].id, price_key="raw", value_cents=1250))
    ranked = await get(client, auth, "/v1/catalog/cards", name="skenes")
    from_sql = await get(client, auth, "/v1/catalog/cards", name="skenes", sort="name")  # SQL's own path
    assert ranked["total_count"] == from_sql["total_count"] == 2
    by_id = {c["id"]: c for c in from_sql["cards"]}
    assert [c for c in ranked["cards"] if c != by_id[c["id"]]] == [], by_id
    assert any(c.get("prices") == {"raw": "12.50"} for c in ranked["cards"])
    assert any(c.get("attributes") == ["AU", "RC"] for c in ranked["cards"])


async def test_a_ranked_page_is_written_byte_for_byte_as_the_database_path_writes_it(client, auth, cat, sessions):
    from store.models import CardPrice, FieldValue, MetadataField

    chrome = cat.sets["chrome"]
    acuna = uuid.uuid4()
    async with sessions() as s, s.begin():  # a name beyond ASCII with a quote, a price and a field
        s.add(Card(id=acuna, set_id=chrome.id, release_id=chrome.release_id, name='Ronald Acuña "Jr."', number="7"))
        field = MetadataField(id=uuid.uuid4(), key="ARTIST", name="Artist")
        s.add(field)
        await s.flush()
        s.add(FieldValue(id=uuid.uuid4(), field_id=field.id, entity_type="card", entity_id=acuna, value="Ōtani\tX"))
        s.add(CardPrice(id=uuid.uuid4(), card_id=acuna, price_key="raw", value_cents=123456))
    for name in ("Acuña", "charizard", "ohtani"):  # ohtani: a partial parallel lists only one of its two cards
        ranked = await client.get("/v1/catalog/cards", params={"name": name}, headers=auth)
        from_sql = await client.get("/v1/catalog/cards", params={"name": name, "sort": "name"}, headers=auth)
        ranked_body, sql_body = await ranked.read(), await from_sql.read()
        if name == "ohtani":  # two cards, in another order: each card's keys and values, in order
            def cards(body: bytes) -> list:
                return sorted(json.loads(body, object_pairs_hook=list)[0][1], key=str)

            assert cards(ranked_body) == cards(sql_body)
        else:
            assert ranked_body == sql_body
            assert json.loads(ranked_body)["total_count"] == 1
