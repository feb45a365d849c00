"""Each entry's value and catalog facts (migration collection_0002) stay current on every write path:
entry add (single, batch) and update, price rows written by the refresh or an importer, card and
parallel changes in the catalog, and a price change racing an entry write."""

from __future__ import annotations

import asyncio
import uuid
from datetime import date, timedelta

from sqlalchemy import delete, select, text, update

from store.importers._bulk import upsert
from store.models import Card, CardPrice, CollectionCard, Parallel, PriceRecord, Release
from store.queries.pricing import refresh_prices
from tests.collections.conftest import add_price


async def _value(api, cid) -> str | None:
    st, a = await api.get(f"/v1/collection/{cid}/analytics")
    assert st == 200, a
    return a["financials"]["currentMarketValue"]


async def _sale(sessions, card_id, dollars: int, days_ago: int, *, grade_id=None) -> None:
    async with sessions() as s, s.begin():
        s.add(PriceRecord(id=uuid.uuid4(), card_id=card_id, grade_id=grade_id, title="sale", price_cents=dollars * 100,
                          date=date.today() - timedelta(days=days_ago), listing_type="auction", source="test"))


async def _refresh(sessions) -> None:
    async with sessions() as s, s.begin():
        await refresh_prices(session=s)


async def _add(api, cid, item) -> dict:
    st, body = await api.post(f"/v1/collection/{cid}/cards", item)
    assert st == 201, body
    return body


async def test_analytics_follow_a_price_refresh(api, owned, cat, sessions):
    judge = cat.cards["judge"].id
    await _add(api, owned.cid, {"cardId": str(judge), "quantity": 2})
    await _add(api, owned.cid, {"cardId": str(judge), "gradeId": str(cat.grades["psa-10"])})
    assert await _value(api, owned.cid) is None
    await _sale(sessions, judge, 10, 30)
    await _refresh(sessions)
    assert await _value(api, owned.cid) == "20.00"           # 2 raw copies at the $10 median
    await _sale(sessions, judge, 30, 1)
    await _sale(sessions, judge, 500, 2, grade_id=cat.grades["psa-10"])
    await _refresh(sessions)
    assert await _value(api, owned.cid) == "540.00"          # raw median (10, 30) = 20 x 2 + PSA 10 500
    st, b = await api.get(f"/v1/collection/{owned.cid}/breakdown", groupBy="grade")
    assert {g["groupKey"]: g["totalCurrentValue"] for g in b["groups"]} == {"PSA 10": "500.00", "Raw": "40.00"}


async def test_updating_grade_or_parallel_revalues_the_entry(api, owned, cat, sessions):
    judge, gold = cat.cards["judge"].id, cat.parallels["gold"].id
    await add_price(sessions, judge, 1000)
    await add_price(sessions, judge, 10000, parallel_id=gold)
    await add_price(sessions, judge, 7000, grade_id=cat.grades["psa-9"], key="psa-9")
    entry = await _add(api, owned.cid, {"cardId": str(judge)})
    assert await _value(api, owned.cid) == "10.00"
    path = f"/v1/collection/{owned.cid}/cards/{entry['id']}"
    assert (await api.put(path, {"parallelId": str(gold)}))[0] == 200
    assert await _value(api, owned.cid) == "100.00"
    assert (await api.put(path, {"parallelId": None, "gradeId": str(cat.grades["psa-9"])}))[0] == 200
    assert await _value(api, owned.cid) == "70.00"
    assert (await api.put(path, {"gradeId": str(cat.grades["psa-10"])}))[0] == 200
    assert await _value(api, owned.cid) is None              # no PSA 10 price: no fallback
    assert (await api.put(path, {"gradeId": None, "quantity": 3}))[0] == 200
    assert await _value(api, owned.cid) == "30.00"


async def test_batch_add_values_every_entry_and_price_rows_follow(api, owned, cat, sessions):
    c = cat.cards
    await add_price(sessions, c["ohtani"].id, 4000)
    await _add(api, owned.cid, [{"cardId": str(c["ohtani"].id)}, {"cardId": str(c["charizard"].id), "quantity": 2}])
    assert await _value(api, owned.cid) == "40.00"
    # an importer upserting price rows (the demo import): insert, then update in place
    row = {"id": uuid.uuid4(), "card_id": c["charizard"].id, "parallel_id": None, "grade_id": None,
           "price_key": "raw", "value_cents": 30000, "sample_count": 1}
    async with sessions() as s, s.begin():
        await upsert(s, CardPrice, [row])
    assert await _value(api, owned.cid) == "640.00"
    async with sessions() as s, s.begin():
        await upsert(s, CardPrice, [{**row, "value_cents": 20000}])
    assert await _value(api, owned.cid) == "440.00"
    async with sessions() as s, s.begin():
        await s.execute(delete(CardPrice).where(CardPrice.card_id == c["ohtani"].id))
    assert await _value(api, owned.cid) == "400.00"


async def test_set_progress_costs_follow_raw_prices(api, owned, cat, sessions):
    c = cat.cards
    chrome = str(c["judge"].set_id)
    await _add(api, owned.cid, {"cardId": str(c["judge"].id)})
    await add_price(sessions, c["judge"].id, 1000)
    await add_price(sessions, c["ohtani"].id, 4000)
    st, one = await api.get(f"/v1/collection/{owned.cid}/set-progress/{chrome}")
    assert st == 200, one
    assert one["estimatedCostToComplete"] == "40.00" and one["averageCardValue"] == "25.00"
    async with sessions() as s, s.begin():
        await s.execute(update(CardPrice).where(CardPrice.card_id == c["judge"].id).values(value_cents=3000))
    st, page = await api.get(f"/v1/collection/{owned.cid}/set-progress")
    (row,) = [r for r in page["sets"] if r["setId"] == chrome]
    assert row["estimatedCostToComplete"] == "40.00" and row["averageCardValue"] == "35.00"


async def test_catalog_changes_reach_the_entries(api, owned, cat, sessions):
    """A re-import renaming a card or moving it to another release, and a deleted parallel (its
    entries fall back to the base card by the foreign key's SET NULL)."""
    judge, gold = cat.cards["judge"], cat.parallels["gold"]
    await add_price(sessions, judge.id, 1000)
    await add_price(sessions, judge.id, 10000, parallel_id=gold.id)
    await _add(api, owned.cid, {"cardId": str(judge.id), "parallelId": str(gold.id)})
    async with sessions() as s, s.begin():  # the importers' upsert (INSERT ... ON CONFLICT DO UPDATE)
        other = await s.scalar(select(Release.id).where(Release.name == "1989 Topps"))
        await upsert(s, Card, [{"id": judge.id, "set_id": judge.set_id, "release_id": other, "name": "Aaron James Judge",
                                "number": judge.number}])
    st, b = await api.get(f"/v1/collection/{owned.cid}/breakdown", groupBy="player")
    assert [g["groupKey"] for g in b["groups"]] == ["Aaron James Judge"]
    st, b = await api.get(f"/v1/collection/{owned.cid}/breakdown", groupBy="year")
    assert [(g["groupKey"], g["totalCurrentValue"]) for g in b["groups"]] == [("1989", "100.00")]
    async with sessions() as s, s.begin():  # a release's year and manufacturer reach its cards' entries
        await s.execute(update(Release).where(Release.id == other).values(year="1990", manufacturer_id=None))
    st, b = await api.get(f"/v1/collection/{owned.cid}/breakdown", groupBy="year")
    assert [g["groupKey"] for g in b["groups"]] == ["1990"]
    st, b = await api.get(f"/v1/collection/{owned.cid}/breakdown", groupBy="manufacturer")
    assert [g["groupKey"] for g in b["groups"]] == ["Unknown"]
    async with sessions() as s, s.begin():
        await s.execute(delete(Parallel).where(Parallel.id == gold.id))
    assert await _value(api, owned.cid) == "10.00"


async def test_price_change_racing_an_entry_write_is_not_lost(owned, cat, sessions):
    """An entry written in an open transaction while a price for its card arrives: the price writer
    waits for the entry (advisory lock on PostgreSQL, the write lock on SQLite) and then revalues it."""
    card_id = cat.cards["griffey"].id
    entry_id = uuid.uuid4()
    async with sessions() as s1:
        await s1.begin()
        s1.add(CollectionCard(id=entry_id, collection_id=uuid.UUID(owned.cid), card_id=card_id))
        await s1.flush()
        writer = asyncio.create_task(add_price(sessions, card_id, 5000))
        await asyncio.sleep(0.3)
        assert not writer.done()          # blocked behind the uncommitted entry
        await s1.commit()
    await asyncio.wait_for(writer, 10)
    async with sessions() as s:
        assert await s.scalar(select(CollectionCard.unit_cents).where(CollectionCard.id == entry_id)) == 5000


async def _stats_match_a_recount(sessions) -> dict:
    """set_base_stats (migration collection_0003) equals a recount from card and card_price."""
    recount = text(
        "SELECT c.set_id, count(*), count(c.numbered_to), count(r.p), coalesce(sum(r.p), 0) FROM card c "
        "LEFT JOIN (SELECT card_id, max(value_cents) p FROM card_price WHERE parallel_id IS NULL AND grade_id IS NULL "
        "GROUP BY card_id) r ON r.card_id = c.id WHERE c.variation_of IS NULL GROUP BY c.set_id")
    async with sessions() as s:
        kept = {uuid.UUID(str(r[0])): tuple(r[1:]) for r in await s.execute(text(
            "SELECT set_id, base_cards, numbered_base_cards, priced_base_cards, raw_base_cents FROM set_base_stats "
            "WHERE base_cards <> 0 OR raw_base_cents <> 0"))}
        fresh = {uuid.UUID(str(r[0])): tuple(r[1:]) for r in await s.execute(recount)}
    assert kept == fresh
    return fresh


async def test_set_stats_follow_catalog_and_price_changes(cat, sessions):
    c, sid = cat.cards, cat.cards["judge"].set_id
    await _stats_match_a_recount(sessions)
    await add_price(sessions, c["judge"].id, 1000)
    await add_price(sessions, c["judge"].id, 1500)                          # a duplicate raw row: the higher counts
    await add_price(sessions, c["ohtani_var"].id, 9000)                     # a variation: not a base card
    await _sale(sessions, c["ohtani"].id, 40, 3)
    await _refresh(sessions)
    assert (await _stats_match_a_recount(sessions))[sid] == (3, 0, 2, 5500)
    async with sessions() as s, s.begin():
        s.add(Card(id=uuid.uuid4(), set_id=sid, release_id=c["judge"].release_id, name="New Guy", number="99",
                   numbered_to=10))
        await s.execute(update(Card).where(Card.id == c["ohtani_var"].id).values(variation_of=None))
        await s.execute(update(Card).where(Card.id == c["skenes"].id).values(numbered_to=25))
    assert (await _stats_match_a_recount(sessions))[sid] == (5, 2, 3, 14500)
    async with sessions() as s, s.begin():                                  # cascades to its price rows
        await s.execute(delete(Card).where(Card.id == c["ohtani_var"].id))
        await s.execute(update(CardPrice).where(CardPrice.card_id == c["judge"].id).values(value_cents=500))
    assert (await _stats_match_a_recount(sessions))[sid] == (4, 2, 2, 4500)
