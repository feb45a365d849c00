"""``cardwise search reindex`` and the index an import leaves behind for servers to open."""

from __future__ import annotations

import json
import uuid

from api import cli
from store.models import Card, CardSet, Release, Segment
from store.search import index_root, open_current
from tests.conftest import shared_data


async def _one_card(sessions) -> None:
    seg, rel, st = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    async with sessions() as s, s.begin():
        s.add(Segment(id=seg, name="Baseball"))
        await s.flush()
        s.add(Release(id=rel, segment_id=seg, name="1989 Upper Deck", year="1989"))
        await s.flush()
        s.add(CardSet(id=st, release_id=rel, name="Base"))
        await s.flush()
        s.add(Card(id=uuid.uuid4(), set_id=st, release_id=rel, name="Ken Griffey Jr.", number="1"))


async def test_reindex_builds_the_index_of_the_database(db_url, sessions, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    await _one_card(sessions)
    import asyncio

    rc = await asyncio.to_thread(cli.main, ["search", "reindex", "--quiet"])
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert rc == 0 and out["documents"] >= 4  # the card, its name, release, set
    root = index_root(db_url, str(tmp_path / "search"))
    index = await open_current(sessions, root)  # a server finds it built and opens it
    assert str(index.path) == out["path"]
    assert index.names("griffey jr")[0].name == "Ken Griffey Jr."


async def test_an_import_leaves_a_current_index(db_url, sessions, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    path = shared_data("junkwax", "categories", "baseball", "2024", "2024-Topps-Chrome.json")
    import asyncio

    assert await asyncio.to_thread(cli.main, ["import", "junkwax", str(path), "--quiet"]) == 0
    root = index_root(db_url, str(tmp_path / "search"))
    built = [p.name for p in root.iterdir() if not p.name.startswith(".")]
    index = await open_current(sessions, root)
    assert built == [index.path.name]  # opened, not built again
    assert index.names("eury perez")[0].name == "Eury Pérez"
