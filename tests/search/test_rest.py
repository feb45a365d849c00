"""REST callers of the search index: card name search, catalog search and autocomplete."""

from __future__ import annotations

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
