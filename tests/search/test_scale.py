"""Each server node keeps its own index, rebuilt from the shared database when the catalog changes:
two app instances on one PostgreSQL database both find what an import added, within seconds."""

from __future__ import annotations

import asyncio
import time

import pytest

from api.app import create_app
from cli.main import main
from store.search import index_root


@pytest.mark.postgres
async def test_two_nodes_see_an_import_within_seconds(aiohttp_client, make_settings, auth, db_url, tmp_path,
                                                      monkeypatch, sessions):
    nodes = [await aiohttp_client(create_app(make_settings(search_dir=str(tmp_path / f"node{i}"),
                                                           catalog_version_check_s=0.5)))
             for i in range(2)]
    params = {"name": "charizrd"}  # a typo: only the index finds it
    for node in nodes:
        body = await (await node.get("/v1/catalog/cards", params=params, headers=auth)).json()
        assert body["total_count"] == 0
    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    monkeypatch.setenv("CARDWISE_SEARCH_DIR", str(tmp_path / "importer"))  # the importer's machine
    assert await asyncio.to_thread(main, ["import", "demo", "--quiet"]) == 0
    started = time.monotonic()
    seen = [None, None]
    while None in seen and time.monotonic() - started < 10:
        for i, node in enumerate(nodes):
            if seen[i] is None:
                body = await (await node.get("/v1/catalog/cards", params=params, headers=auth)).json()
                if body["total_count"] > 0 and body["cards"][0]["name"] == "Charizard":
                    seen[i] = time.monotonic() - started
        await asyncio.sleep(0.1)
    assert None not in seen, seen
    for i in range(2):  # each node built its own copy
        root = index_root(db_url, str(tmp_path / f"node{i}"))
        assert [p for p in root.iterdir() if not p.name.startswith(".")]
