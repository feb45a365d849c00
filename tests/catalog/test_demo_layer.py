"""The demo catalog is a layer of its own: marked, never matched by real data, removable in one command.

The real side is real data: TCGdex's Base Set and Neo Destiny, JunkWax's 2024 Topps Chrome and the
PSA sales, from ../shared/data (skipped when absent, required in CI).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import func, select

from cli.main import main
from store.db import create_engine, sessionmaker
from store.importers import (
    demo,
    junkwax,
    listings_synthetic,
    population_synthetic,
    prices_synthetic,
    psa_sales,
    tcgdex,
)
from store.matching import TitleMatcher
from store.search import build as build_index
from store.models import (
    ApiKey,
    Binder,
    BinderCard,
    WantList,
    WantListCard,
    Card,
    CardSet,
    Collection,
    CollectionCard,
    Collector,
    MarketplaceListing,
    Parallel,
    PopulationCount,
    Release,
    Segment,
    PriceRecord,
)
from store.queries import catalog_version, demo_twins
from store.queries import identify as iq
from tests.conftest import copy_of, filled_template, shared_data
from tests.realdata import catalog_dump, tcgdex_subset

async def _demo_layer(sessions) -> None:
    """What ./scripts/run loads on an empty catalog: the demo and its synthetic market data."""
    await demo.run(sessions, None)
    await population_synthetic.run(sessions, None)
    await prices_synthetic.run(sessions, None)
    await listings_synthetic.run(sessions, None)


async def _real(sessions, folder: Path) -> dict:
    await tcgdex.run(sessions, str(tcgdex_subset(folder / "tcgdex")))
    await junkwax.run(sessions, str(shared_data("junkwax", "categories", "baseball", "2024", "2024-Topps-Chrome.json")))
    return await psa_sales.run(sessions, str(shared_data("psa-sales")))


def _imported(db_backend: str, request: pytest.FixtureRequest, tmp_path_factory, fill):
    """For a session fixture: this backend's template with ``fill(sessions, folder)`` imported once;
    yields (what ``copy_of`` takes, what ``fill`` returned: the real import's counts)."""
    folder = tmp_path_factory.mktemp("real")
    out: dict = {}

    async def run(sessions) -> None:
        out["counts"] = await fill(sessions, folder)

    for template in filled_template(db_backend, request, run, tmp_path_factory):
        yield template, out["counts"]


async def _real_only(sessions, folder: Path) -> dict:
    return await _real(sessions, folder)


async def _demo_then_real(sessions, folder: Path) -> dict:
    await demo.run(sessions, None)
    return await _real(sessions, folder)


async def _demo_layer_then_real(sessions, folder: Path) -> dict:
    await _demo_layer(sessions)
    return await _real(sessions, folder)


# The real import takes seconds to tens of seconds; each of these catalogs is imported once per backend
# and every test that starts from it gets a copy (``catalog_from``).
@pytest.fixture(scope="session")
def real_only(db_backend: str, request: pytest.FixtureRequest, tmp_path_factory):
    yield from _imported(db_backend, request, tmp_path_factory, _real_only)


@pytest.fixture(scope="session")
def demo_then_real(db_backend: str, request: pytest.FixtureRequest, tmp_path_factory):
    yield from _imported(db_backend, request, tmp_path_factory, _demo_then_real)


@pytest.fixture(scope="session")
def demo_layer_then_real(db_backend: str, request: pytest.FixtureRequest, tmp_path_factory):
    yield from _imported(db_backend, request, tmp_path_factory, _demo_layer_then_real)


@pytest.fixture
def imported(request: pytest.FixtureRequest):
    """(template, real import counts) of the catalog named by the test's ``catalog_from`` marker."""
    return request.getfixturevalue(request.node.get_closest_marker("catalog_from").args[0])


@pytest.fixture
def db_url(db_backend: str, request: pytest.FixtureRequest, tmp_path: Path):
    """A copy of the ``catalog_from`` catalog when the test names one, else a fresh migrated database."""
    if request.node.get_closest_marker("catalog_from") is not None:
        template = request.getfixturevalue("imported")[0]
    else:
        template = request.getfixturevalue("sqlite_template" if db_backend == "sqlite" else "pg_template")
    yield from copy_of(db_backend, template, tmp_path)


@pytest.fixture
def never_had_demo(db_backend: str, real_only, tmp_path: Path):
    """A database with the real side imported and never the demo."""
    (tmp_path / "never").mkdir()
    yield from copy_of(db_backend, real_only[0], tmp_path / "never")


async def _users_things(sessions, demo_zard, real_zard, demo_pikachu, demo_shadowless, wemby) -> dict:
    """A collection (demo Charizard Shadowless in a binder, the real Charizard, a demo-only card) and a
    want list (demo and real Charizard, demo Pikachu)."""
    async with sessions() as s, s.begin():
        key = ApiKey(id=uuid.uuid4(), name="t", key_hash=uuid.uuid4().hex * 2, prefix="t")
        s.add(key)
        await s.flush()
        who = Collector(id=uuid.uuid4(), api_key_id=key.id, name="me")
        s.add(who)
        await s.flush()
        coll = Collection(id=uuid.uuid4(), api_key_id=key.id, collector_id=who.id, name="Main")
        wants = WantList(id=uuid.uuid4(), api_key_id=key.id, collector_id=who.id, name="Wants")
        s.add_all([coll, wants])
        await s.flush()
        shadowless = CollectionCard(id=uuid.uuid4(), collection_id=coll.id, card_id=demo_zard, quantity=1,
                                    parallel_id=demo_shadowless, buy_price_cents=120000)
        s.add_all([shadowless, CollectionCard(id=uuid.uuid4(), collection_id=coll.id, card_id=real_zard, quantity=1),
                   CollectionCard(id=uuid.uuid4(), collection_id=coll.id, card_id=wemby, quantity=2)])
        binder = Binder(id=uuid.uuid4(), collection_id=coll.id, name="Holos")
        s.add(binder)
        await s.flush()
        s.add(BinderCard(id=uuid.uuid4(), binder_id=binder.id, collection_card_id=shadowless.id))
        s.add_all([WantListCard(id=uuid.uuid4(), list_id=wants.id, card_id=c)
                   for c in (demo_zard, real_zard, demo_pikachu)])
    return {"collection": coll.id, "wants": wants.id, "shadowless": shadowless.id, "binder": binder.id}


async def _one(sessions, stmt):
    async with sessions() as s:
        return (await s.execute(stmt)).scalars().one()


async def _charizards(sessions) -> dict[bool, uuid.UUID]:
    """demo? -> the base Charizard #4 of a "Base Set"."""
    async with sessions() as s:
        rows = (await s.execute(select(Card.demo, Card.id).join(CardSet, CardSet.id == Card.set_id).where(
            Card.name == "Charizard", Card.number == "4", CardSet.name == "Base Set"))).all()
    return {bool(d): i for d, i in rows}


@pytest.mark.catalog_from("demo_layer_then_real")
async def test_demo_remove_leaves_the_catalog_that_never_had_it(sessions, db_url, never_had_demo, monkeypatch, capsys):
    zards = await _charizards(sessions)
    pikachus = await _one(sessions, select(Card.id).where(Card.name == "Pikachu", Card.number == "58", Card.demo))
    real_pikachu = await _one(sessions, select(Card.id).join(CardSet, CardSet.id == Card.set_id).where(
        Card.name == "Pikachu", Card.number == "58", CardSet.name == "Base Set", Card.demo.is_(False)))
    demo_shadowless = await _one(sessions, select(Parallel.id).join(CardSet, CardSet.id == Parallel.set_id).where(
        Parallel.name == "Shadowless", CardSet.demo))
    wemby = await _one(sessions, select(Card.id).where(Card.name == "Victor Wembanyama", Card.demo))
    mine = await _users_things(sessions, zards[True], zards[False], pikachus, demo_shadowless, wemby)
    async with sessions() as s:
        version = await catalog_version.current(session=s)

    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    assert await asyncio.to_thread(main, ["demo", "remove", "--dry-run"]) == 0
    dry = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert dry["demo"] == "dry-run" and dry["cards"] > 50 and dry["collection_entries"] == 2
    assert (await _charizards(sessions)).keys() == {True, False}  # a dry run changes nothing
    assert await asyncio.to_thread(main, ["demo", "remove"]) == 0
    out = capsys.readouterr()
    summary = json.loads(out.out.strip().splitlines()[-1])
    assert {k: v for k, v in summary.items() if k != "moved"} == {k: v for k, v in dry.items() if k != "moved"} | {
        "demo": "removed"}
    assert summary["releases"] == 5 and summary["collection_entries"] == 2 and summary["want_list_entries"] == 2
    assert (summary["moved_collection_entries"], summary["moved_want_list_entries"]) == (1, 2)
    assert summary["removed"] == [{"kind": "collection", "in": "Main", "card": "Victor Wembanyama"}]
    assert "1 collection entries and 2 want-list items moved" in out.err
    assert "collection 'Main': Victor Wembanyama" in out.err

    engine = create_engine(never_had_demo)
    try:
        assert await catalog_dump(sessions) == await catalog_dump(sessionmaker(engine))
    finally:
        await engine.dispose()
    async with sessions() as s:
        assert await catalog_version.current(session=s) > version
        left = (await s.execute(select(CollectionCard.card_id, Parallel.name, CollectionCard.buy_price_cents)
                                .outerjoin(Parallel, Parallel.id == CollectionCard.parallel_id)
                                .where(CollectionCard.collection_id == mine["collection"]))).all()
        assert sorted(left, key=str) == sorted([(zards[False], "Shadowless Holo", 120000), (zards[False], None, None)],
                                               key=str)  # the demo-only card went; the rest is real now
        moved = await s.get(CollectionCard, mine["shadowless"])
        assert moved is not None and moved.card_name == "Charizard"  # its analytics facts follow the real card
        placed = (await s.execute(select(BinderCard.binder_id).where(BinderCard.collection_card_id == moved.id)))
        assert list(placed.scalars()) == [mine["binder"]]
        wanted = (await s.execute(select(WantListCard.card_id).where(WantListCard.list_id == mine["wants"]))).scalars()
        assert sorted(wanted, key=str) == sorted([zards[False], real_pikachu], key=str)
    assert await asyncio.to_thread(main, ["demo", "remove"]) == 0  # nothing left: says so, changes nothing
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["cards"] == 0


@pytest.mark.parametrize("with_demo", [
    pytest.param(False, id="real-only", marks=pytest.mark.catalog_from("real_only")),
    pytest.param(True, id="demo-and-real", marks=pytest.mark.catalog_from("demo_then_real"))])
async def test_psa_sales_match_the_real_base_set_charizard(sessions, client, auth, imported, with_demo):
    counts = imported[1]  # what importing the real side (after the demo, with_demo) returned
    assert counts["files"] == 26 and counts["matched_files"] == 25 and counts["unmatched_files"] == 1
    assert counts["records"] + counts["skipped_rows"] + counts["duplicate_rows"] + counts["unmatched_rows"] == 2859
    assert {"file": "1993-magic-gathering-unlimited-black-lotus.csv", "row": None,
            "reason": "no catalog card 'black lotus' in Unlimited Edition / Unlimited: its 18 sales are left out"
            } in counts["skipped"]
    assert [(e["file"], e["row"]) for e in counts["skipped"] if e["row"] is not None] == [
        ("1999-pokemon-game-charizard-holo.csv", 170), ("2002-pokemon-neo-destiny-shining-mewtwo.csv", 179),
        ("pokemon-game-charizard-holo-1st-edition.csv", 178)]
    real = (await _charizards(sessions))[False]
    body = await (await client.get(f"/v1/catalog/cards/{real}", headers=auth)).json()
    assert body["prices"]["psa-9"] == "7000.00" and body["prices"]["psa-10"] == "36110.54"
    async with sessions() as s:
        on_demo = await s.scalar(select(func.count()).select_from(PriceRecord).join(Card, Card.id == PriceRecord.card_id)
                                 .where(Card.demo.is_(True), PriceRecord.source != demo.SOURCE))
    assert on_demo == 0
    again = await psa_sales.run(sessions, str(shared_data("psa-sales")))
    assert again["records"] == counts["records"]
    async with sessions() as s:
        assert await s.scalar(select(func.count()).select_from(PriceRecord).where(PriceRecord.synthetic.is_(False))) \
            == counts["records"]


async def test_real_inputs_never_match_demo_cards(sessions, tmp_path):
    await demo.run(sessions, None)
    zards_demo_only = await _charizards(sessions)
    async with sessions() as s:  # a demo-only catalog: the demo is what identification has
        found = await iq.candidates_by_names(session=s, names=["Charizard"], segment_id=None)
        assert {r["card"].id for r in found} == {zards_demo_only[True]}
    await tcgdex.run(sessions, str(tcgdex_subset(tmp_path / "tcgdex")))
    zards = await _charizards(sessions)
    async with sessions() as s:
        found = await iq.candidates_by_names(session=s, names=["Charizard"], segment_id=None)
        assert zards[True] not in {r["card"].id for r in found} and zards[False] in {r["card"].id for r in found}
        names = await iq.identifiable_names(session=s)
        assert "Shohei Ohtani" in {n for n, _ in names}  # no real baseball yet: the demo's stays
        m = (await TitleMatcher.load(s)).match("1999 Pokemon Base Set Charizard #4 Holo PSA 10")
        assert m is not None and m.card_id == zards[False]
    index = await build_index(sessions, tmp_path / "search")  # the matcher asking the search index: the same
    async with sessions() as s:
        m = (await TitleMatcher.load(s, index)).match("1999 Pokemon Base Set Charizard #4 Holo PSA 10")
        assert m is not None and m.card_id == zards[False]


def test_real_import_beside_the_demo_says_so(db_url, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    assert main(["import", "demo", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["import", "tcgdex", str(tcgdex_subset(tmp_path / "tcgdex")), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "17 Pokemon demo cards" in err and "cardwise demo remove" in err
    assert main(["import", "junkwax", str(shared_data("junkwax", "categories", "basketball")), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "Basketball" in err and "17 Pokemon" in err


async def test_demo_prices_come_from_demo_price_records(sessions, client, auth):
    await demo.run(sessions, None)
    zard = (await _charizards(sessions))[True]
    card = await (await client.get(f"/v1/catalog/cards/{zard}", headers=auth)).json()
    body = await (await client.get(f"/v1/pricing/{zard}", headers=auth)).json()
    tens = [g for c in body["graded"] for g in c["grades"] if g["grade_value"] == "10"][0]["records"]
    assert len(tens) == 3 and all(r["source"] == demo.SOURCE and r["synthetic"] is True for r in tens)
    assert card["prices"]["psa-10"] == f"{sorted(r['price'] for r in tens)[1]:.2f}" == "1491.20"
    assert card["prices"]["raw"] == f"{sorted(r['price'] for r in body['raw']['records'])[1]:.2f}"
    assert max(r["date"] for r in tens) == date(2026, 11, 1).isoformat()


@pytest.mark.catalog_from("demo_then_real")
async def test_readme_questions_answer_about_the_real_card_beside_the_demo(sessions, client, auth):

    async def ask(q: str) -> dict:
        r = await client.post("/v1/ai/query", json={"query": q}, headers=auth)
        assert r.status == 200
        return await r.json()

    body = await ask("What parallels does 2024 Topps Chrome Shohei Ohtani #1 have?")
    assert body["answer"].startswith("2024 Topps Chrome Baseball Shohei Ohtani #1") and "Which one" not in body["answer"]
    assert body["toolsUsed"][-1] == "catalog_card"
    body = await ask("What is the price of Base Set Charizard?")
    assert "$36,110.54" in body["answer"] and "$7,000.00" in body["answer"]
    body = await ask("Show me Pikachu from Base Set")  # the demo's copy of a real card is left out
    assert body["answer"].count("1999 Base Set Pikachu #58") == 1 and "(demo)" not in body["answer"]


async def _synthetic_cards(sessions) -> dict[str, set[tuple[bool, str]]]:
    """table -> {(demo?, segment)} of the cards holding synthetic rows."""
    out = {}
    async with sessions() as s:
        for name, model, where in (("populations", PopulationCount, PopulationCount.synthetic.is_(True)),
                                   ("prices", PriceRecord, PriceRecord.source == "eBay (synthetic)"),
                                   ("listings", MarketplaceListing, MarketplaceListing.synthetic.is_(True))):
            rows = (await s.execute(select(Card.demo, Segment.name).distinct().join(model, model.card_id == Card.id)
                                    .join(Release, Release.id == Card.release_id)
                                    .join(Segment, Segment.id == Release.segment_id).where(where))).all()
            out[name] = {(bool(d), n) for d, n in rows}
    return out


@pytest.mark.catalog_from("demo_then_real")
async def test_synthetic_generators_draw_real_cards_beside_the_demo(sessions):
    for gen in (population_synthetic, prices_synthetic, listings_synthetic):
        await gen.run(sessions, "40")
    first = await _synthetic_cards(sessions)
    assert first["populations"] == {(False, "Pokemon"), (False, "Baseball")}  # drawn across the real catalog
    assert first["prices"] == first["listings"] == {(False, "Baseball")}  # sports only; never the demo's
    async with sessions() as s:
        picked = set((await s.execute(select(PopulationCount.card_id).distinct())).scalars())
    assert len(picked) == 40
    await population_synthetic.run(sessions, "40")  # seeded: the same cards again
    async with sessions() as s:
        assert set((await s.execute(select(PopulationCount.card_id).distinct())).scalars()) == picked


async def test_synthetic_generators_on_a_demo_only_catalog_stay_on_the_demo(sessions):
    await _demo_layer(sessions)
    found = await _synthetic_cards(sessions)
    assert {d for rows in found.values() for d, _ in rows} == {True} and found["prices"]


async def test_a_twin_is_the_same_card_in_the_same_release_not_a_namesake(sessions, cat):
    await demo.run(sessions, None)
    async with sessions() as s, s.begin():  # a real namesake: same player, number and year, another release
        donruss = Release(id=uuid.uuid4(), segment_id=cat.releases["chrome"].segment_id, name="2024 Donruss Baseball",
                          year="2024")
        s.add(donruss)
        await s.flush()
        whammy = CardSet(id=uuid.uuid4(), release_id=donruss.id, name="Whammy!")
        s.add(whammy)
        await s.flush()
        s.add(Card(id=uuid.uuid4(), set_id=whammy.id, release_id=donruss.id, name="Jackson Holliday", number="7"))
    chrome = select(Card.id).join(Release, Release.id == Card.release_id).where(
        Release.name == "2024 Topps Chrome", Card.demo)
    demo_ohtani = await _one(sessions, chrome.where(Card.name == "Shohei Ohtani", Card.number == "1"))
    demo_holliday = await _one(sessions, chrome.where(Card.name == "Jackson Holliday", Card.number == "7"))
    async with sessions() as s:
        twins = await demo_twins._twins(s, {demo_ohtani, demo_holliday})
    assert twins == {demo_ohtani: cat.cards["ohtani"].id}  # "2024 Topps Chrome" is the real 2024 Topps Chrome
