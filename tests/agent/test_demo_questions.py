"""The issue's example questions, answered by the built-in model over HTTP on the run command's
demo catalog (demo importer + the synthetic market generators), with the real tools."""

from __future__ import annotations

import pytest

from store.importers import demo, population_synthetic, prices_synthetic


@pytest.fixture
async def demo_catalog(sessions):
    await demo.run(sessions, None)
    await population_synthetic.run(sessions, None)
    await prices_synthetic.run(sessions, None)


async def ask(client, auth, query: str, **extra) -> dict:
    resp = await client.post("/v1/ai/query", json={"query": query, **extra}, headers=auth)
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def test_parallels_of_ohtani(client, auth, demo_catalog):
    body = await ask(client, auth, "What parallels does 2024 Topps Chrome Shohei Ohtani #1 have?")
    assert "Gold Refractor /50" in body["answer"] and "Superfractor /1" in body["answer"]
    assert body["toolsUsed"][-1] == "catalog_card"


async def test_psa10_population_of_charizard_says_it_is_synthetic(client, auth, demo_catalog):
    body = await ask(client, auth, "How many PSA 10 Base Set Charizards are there?")
    assert "PSA 10" in body["answer"] and "Charizard" in body["answer"]
    assert "synthetic" in body["answer"]
    assert "population_card" in body["toolsUsed"]


async def test_price_of_charizard_comes_from_the_catalog_prices(client, auth, demo_catalog):
    body = await ask(client, auth, "What is the price of Base Set Charizard?")
    assert "$" in body["answer"], body["answer"]


async def test_collection_worth_and_top_card(client, auth, demo_catalog):
    cards = await (await client.get("/v1/catalog/cards?name=Ohtani&take=1", headers=auth)).json()
    card = cards["cards"][0]
    collector = await (await client.post("/v1/collectors/", json={"name": "me"}, headers=auth)).json()
    coll = await (await client.post("/v1/collection/", json={"collectorId": collector["id"], "name": "Main"},
                                    headers=auth)).json()
    added = await client.post(f"/v1/collection/{coll['id']}/cards",
                              json={"cardId": card["id"], "quantity": 2, "buyPrice": "10.00"}, headers=auth)
    assert added.status == 201
    body = await ask(client, auth, "What is my collection worth and what is my top card?",
                     context={"collectionId": coll["id"]})
    assert "collection_analytics" in body["toolsUsed"]
    assert "Ohtani" in body["answer"] and "$" in body["answer"], body["answer"]
