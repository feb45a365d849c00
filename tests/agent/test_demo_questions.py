"""The issue's example questions, answered by the built-in model over HTTP on the run command's
demo catalog (demo importer + the synthetic market generators), with the real tools."""

from __future__ import annotations

from pathlib import Path

import pytest

from store.importers import demo, population_synthetic, prices_synthetic
from tests.conftest import copy_of, filled_template


async def _demo(sessions) -> None:
    await demo.run(sessions, None)
    await population_synthetic.run(sessions, None)
    await prices_synthetic.run(sessions, None)


@pytest.fixture(scope="session")
def demo_template(db_backend: str, request: pytest.FixtureRequest, tmp_path_factory):
    """The demo catalog imported once per backend (10-20 s), copied for each test."""
    yield from filled_template(db_backend, request, _demo, tmp_path_factory)


@pytest.fixture
def db_url(db_backend: str, demo_template, tmp_path: Path):
    """This module's tests each get a copy of the demo catalog (the ``client`` and ``sessions`` use it)."""
    yield from copy_of(db_backend, demo_template, tmp_path)


async def ask(client, auth, query: str, **extra) -> dict:
    resp = await client.post("/v1/ai/query", json={"query": query, **extra}, headers=auth)
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def test_parallels_of_ohtani(client, auth):
    body = await ask(client, auth, "What parallels does 2024 Topps Chrome Shohei Ohtani #1 have?")
    assert "Gold Refractor /50" in body["answer"] and "Superfractor /1" in body["answer"]
    assert body["toolsUsed"][-1] == "catalog_card"


async def test_psa10_population_of_charizard_says_it_is_synthetic(client, auth):
    body = await ask(client, auth, "How many PSA 10 Base Set Charizards are there?")
    assert "PSA 10" in body["answer"] and "Charizard" in body["answer"]
    assert "synthetic" in body["answer"]
    assert "population_card" in body["toolsUsed"]


async def test_price_of_charizard_comes_from_the_catalog_prices(client, auth):
    body = await ask(client, auth, "What is the price of Base Set Charizard?")
    assert "$" in body["answer"], body["answer"]


async def test_collection_worth_and_top_card(client, auth):
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
