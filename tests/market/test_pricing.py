"""Pricing: card history, bulk, search, timeseries, price refresh, PSA sales import."""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from store.importers import prices_synthetic, psa_sales
from store.models import CardPrice, PriceRecord
from store.queries.pricing import refresh_prices
from store.reference import grades as ref
from tests.conftest import shared_data
from tests.factories import seed_catalog

PSA10, PSA9 = ref.grade_id("PSA", "Card", "10"), ref.grade_id("PSA", "Card", "9")
TODAY = datetime.now(timezone.utc).astimezone().date()


def rec(card, *, days_ago=0, price=100, kind="auction", grade=None, parallel=None, title=None, source="eBay", qual=None):
    return PriceRecord(id=uuid.uuid4(), card_id=card.id, parallel_id=parallel.id if parallel else None, grade_id=grade,
                       qualifier=qual, title=title or f"{card.name} sale", price_cents=price * 100,
                       date=date.today() - timedelta(days=days_ago), listing_type=kind, source=source)


@pytest.fixture
async def priced(sessions):
    cat = await seed_catalog(sessions)
    oh = cat.cards["ohtani"]
    async with sessions() as s, s.begin():
        s.add_all([
            rec(oh, days_ago=1, price=10, title="2024 Topps Chrome Shohei Ohtani #1 raw"),
            rec(oh, days_ago=20, price=12, kind="fixed", source="COMC"),
            rec(oh, days_ago=200, price=8),
            rec(oh, days_ago=2, price=300, grade=PSA10, title="2024 Topps Chrome Shohei Ohtani #1 PSA 10"),
            rec(oh, days_ago=3, price=100, grade=PSA9),
            rec(oh, days_ago=4, price=900, grade=PSA10, parallel=cat.parallels["gold"],
                title="2024 Topps Chrome Shohei Ohtani #1 Gold Refractor /50 PSA 10"),
            rec(cat.cards["judge"], days_ago=5, price=50, title="Aaron Judge #2 Refractor"),
        ])
    return cat


async def test_card_history_raw_and_graded_sections(client, auth, priced):
    r = await client.get(f"/v1/pricing/{priced.cards['ohtani'].id}", headers=auth)
    assert r.status == 200
    body = await r.json()
    assert body["card"]["name"] == "Shohei Ohtani" and body["card"]["set"]["release"] == "2024 Topps Chrome"
    assert body["raw"]["period_days"] is None and body["raw"]["count"] == 3
    assert [x["price"] for x in body["raw"]["records"]] == [10.0, 12.0, 8.0]  # newest first
    psa = body["graded"][0]
    # the short name where the published API has it, the full name beside it
    assert (psa["company_name"], psa["company_full_name"]) == ("PSA", "Professional Sports Authenticator")
    assert [g["grade_value"] for g in psa["grades"]] == ["10", "9"]
    ten = psa["grades"][0]
    # the base card's records: the Gold Refractor /50's PSA 10 sale is not the base card's price
    assert "period_days" in ten and ten["count"] == 1 and "parallel_name" not in ten["records"][0]
    assert body["messages"] == [{"type": "info", "message": "These are the base card's records; its parallels' are "
                                 "asked for with parallel_id: Gold Refractor (1 records)"}]
    assert body["meta"]["total_records"] == 5 and body["query"]["as_of_date"]
    assert {s["source"] for s in body["meta"]["sources"]} == {"eBay", "COMC"}
    assert "synthetic" not in body["raw"]["records"][0]
    judge = await (await client.get(f"/v1/pricing/{priced.cards['judge'].id}", headers=auth)).json()
    assert "messages" not in judge  # no parallel records, nothing to say


async def test_filters_period_type_parallel_grade_limit(client, auth, priced):
    cid = priced.cards["ohtani"].id
    body = await (await client.get(f"/v1/pricing/{cid}?period=7d", headers=auth)).json()
    assert body["raw"]["period_days"] == 7 and body["meta"]["total_records"] == 3
    body = await (await client.get(f"/v1/pricing/{cid}?period=2w", headers=auth)).json()
    assert body["raw"]["period_days"] == 14
    body = await (await client.get(f"/v1/pricing/{cid}?listing_type=fixed", headers=auth)).json()
    assert body["meta"]["total_records"] == 1
    body = await (await client.get(f"/v1/pricing/{cid}?parallel_id=null&grade_id=null", headers=auth)).json()
    assert body["meta"]["total_records"] == 3 and body["graded"] == []
    body = await (await client.get(f"/v1/pricing/{cid}?parallel_id={priced.parallels['gold'].id}", headers=auth)).json()
    assert body["meta"]["total_records"] == 1 and body["card"]["parallel"]["name"] == "Gold Refractor"
    body = await (await client.get(f"/v1/pricing/{cid}?grade_id={PSA9}", headers=auth)).json()
    assert body["meta"]["total_records"] == 1 and body["raw"]["count"] == 0
    body = await (await client.get(f"/v1/pricing/{cid}?limit=2", headers=auth)).json()
    assert body["meta"]["total_records"] == 2 and body["messages"][0]["type"] == "warning"
    old = (date.today() - timedelta(days=100)).isoformat()
    body = await (await client.get(f"/v1/pricing/{cid}?as_of_date={old}", headers=auth)).json()
    assert body["meta"]["total_records"] == 1 and body["query"]["as_of_date"] == old
    future = (date.today() + timedelta(days=30)).isoformat()
    body = await (await client.get(f"/v1/pricing/{cid}?as_of_date={future}", headers=auth)).json()
    assert body["query"]["as_of_date"] < future


@pytest.mark.parametrize("qs", ["period=week", "period=0d", "period=7", "listing_type=any", "limit=0", "limit=501",
                                "parallel_id=nul", "grade_id=abc", "as_of_date=2024-13-01"])
async def test_bad_pricing_parameters_are_400(client, auth, priced, qs):
    r = await client.get(f"/v1/pricing/{priced.cards['ohtani'].id}?{qs}", headers=auth)
    assert r.status == 400 and (await r.json())["code"] == "VALIDATION_ERROR"


async def test_unknown_card_or_foreign_parallel_is_404(client, auth, priced):
    assert (await client.get(f"/v1/pricing/{uuid.uuid4()}", headers=auth)).status == 404
    r = await client.get(f"/v1/pricing/{priced.cards['ohtani'].id}?parallel_id={priced.parallels['first_edition'].id}",
                         headers=auth)
    assert r.status == 404


async def test_bulk_reports_each_card(client, auth, priced):
    ids = [str(priced.cards["ohtani"].id), str(uuid.uuid4()), str(priced.cards["judge"].id)]
    r = await client.post("/v1/pricing/", json={"card_ids": ids, "limit": 1}, headers=auth)
    assert r.status == 200
    body = await r.json()
    assert body["meta"] == {"requested": 3, "successful": 2, "failed": 1}
    assert [x["success"] for x in body["results"]] == [True, False, True]
    assert body["results"][1]["error"]["code"] == "NOT_FOUND"
    assert body["results"][0]["data"]["meta"]["total_records"] == 1
    for bad in ({"card_ids": []}, {"card_ids": [str(uuid.uuid4())] * 101}, {"card_ids": ["x"]}, {}):
        r = await client.post("/v1/pricing/", json=bad, headers=auth)
        assert r.status == 400


async def test_search_ranks_by_title_relevance(client, auth, priced):
    r = await client.get("/v1/pricing/search?q=ohtani gold refractor psa 10", headers=auth)
    assert r.status == 200
    body = await r.json()
    titles = [x["title"] for x in body["results"]]
    assert titles[0] == "2024 Topps Chrome Shohei Ohtani #1 Gold Refractor /50 PSA 10"
    assert "Aaron Judge #2 Refractor" in titles
    first = body["results"][0]
    assert first["matched_card"]["card_id"] == str(priced.cards["ohtani"].id)
    assert first["grade"]["grade_value"] == "10"
    raw = next(x for x in body["results"] if x["title"].endswith("raw"))
    assert "grade" not in raw
    assert body["query"]["q"] == "ohtani gold refractor psa 10"
    for bad in ("q=a", "q=" + "x" * 301, "q=ohtani&limit=501"):
        assert (await client.get(f"/v1/pricing/search?{bad}", headers=auth)).status == 400
    assert (await (await client.get("/v1/pricing/search?q=zzzz", headers=auth)).json())["results"] == []


async def test_timeseries_candles_and_bounds(client, auth, priced, sessions):
    cid = priced.cards["ohtani"].id
    async with sessions() as s, s.begin():  # an outlier among 6 raw auctions 10 days ago
        for p in (10, 11, 9, 10, 12, 5000):
            s.add(rec(priced.cards["ohtani"], days_ago=10, price=p))
    r = await client.get(f"/v1/pricing/{cid}/timeseries?interval=daily&periods=30", headers=auth)
    assert r.status == 200
    body = await r.json()
    candles = body["raw"]["candles"]
    assert [c["period_start"] for c in candles] == sorted(c["period_start"] for c in candles)
    ten_days = next(c for c in candles if c["types"].get("auction", {}).get("count") == 5)
    assert ten_days["types"]["auction"]["high"] == 12 and ten_days["types"]["auction"]["median"] == 10
    assert body["raw"]["totals"]["auction"]["filtered_count"] == 1
    assert body["query"]["periods"] == 30
    assert body["graded"][0]["grades"][0]["grade_value"] == "10"
    weekly = await (await client.get(f"/v1/pricing/{cid}/timeseries?interval=weekly&periods=300", headers=auth)).json()
    assert weekly["query"]["periods"] == 156
    monthly = await (await client.get(f"/v1/pricing/{cid}/timeseries?interval=monthly", headers=auth)).json()
    assert monthly["query"]["periods"] == 24
    assert all(c["period_start"].endswith("-01") for c in monthly["raw"]["candles"])
    pinned = await (await client.get(f"/v1/pricing/{cid}/timeseries?interval=daily&grade_id={PSA10}", headers=auth)).json()
    assert pinned["raw"]["candles"] == [] and pinned["graded"]
    for bad in ("interval=daily&periods=366", "interval=hourly", "periods=10", "interval=daily&periods=0"):
        assert (await client.get(f"/v1/pricing/{cid}/timeseries?{bad}", headers=auth)).status == 400
    empty = await (await client.get(f"/v1/pricing/{priced.cards['skenes'].id}/timeseries?interval=daily",
                                    headers=auth)).json()
    assert empty["raw"]["candles"] == [] and empty["graded"] == []


async def test_refresh_median_of_recent_sales_with_fixed_fallback(sessions, priced):
    async with sessions() as s, s.begin():
        assert await refresh_prices(session=s) > 0
        rows = {(r.card_id, r.parallel_id, r.price_key): r for r in (await s.scalars(select(CardPrice))).all()}
    oh = priced.cards["ohtani"].id
    assert rows[(oh, None, "raw")].value_cents == 900  # median(10, 8) auctions; the fixed ask is ignored
    assert rows[(oh, None, "psa-10")].value_cents == 30000
    assert rows[(oh, priced.parallels["gold"].id, "psa-10")].value_cents == 90000
    async with sessions() as s, s.begin():
        s.add(rec(priced.cards["skenes"], price=40, kind="fixed"))
    async with sessions() as s, s.begin():
        await refresh_prices(session=s)
        skenes = (await s.scalars(select(CardPrice).where(CardPrice.card_id == priced.cards["skenes"].id))).one()
    assert skenes.value_cents == 4000 and skenes.price_key == "raw"


async def test_synthetic_prices_are_marked(sessions, client, auth):
    cat = await seed_catalog(sessions)
    counts = await prices_synthetic.run(sessions, "3")
    assert counts["records"] > 0 and counts["synthetic"] == 1
    async with sessions() as s:
        rows = (await s.scalars(select(PriceRecord))).all()
        prices = (await s.scalars(select(CardPrice))).all()
    assert all(r.synthetic for r in rows) and prices and all(p.synthetic for p in prices)
    body = await (await client.get(f"/v1/pricing/{rows[0].card_id}", headers=auth)).json()
    shown = body["raw"]["records"] + [x for c in body["graded"] for g in c["grades"] for x in g["records"]]
    assert shown and all(x["synthetic"] is True and x["source"] == "eBay (synthetic)" for x in shown)
    assert cat.cards["charizard"].id not in {r.card_id for r in rows}  # sports cards only


def test_psa_file_names_parse():
    info = psa_sales.parse_name("pokemon-game-charizard-holo-1st-edition")
    assert info["sets"] == ("Base Set",) and info["name"] == "charizard" and info["parallel"] == "1st-edition"
    info = psa_sales.parse_name("2002-pokemon-neo-destiny-shining-charizard")
    assert info["sets"] == ("Neo Destiny",) and info["name"] == "shining charizard" and info["parallel"] is None


async def test_real_psa_sales_import(sessions, client, auth):
    folder = shared_data("psa-sales")
    cat = await seed_catalog(sessions)
    # Neo Destiny as the TCGdex importer builds it (release = set = "Neo Destiny")
    from store.models import Card, CardSet, Release

    async with sessions() as s, s.begin():
        rel = Release(id=uuid.uuid4(), segment_id=cat.segments["pokemon"].id, name="Neo Destiny", year="2002")
        s.add(rel)
        await s.flush()
        cs = CardSet(id=uuid.uuid4(), release_id=rel.id, name="Neo Destiny")
        s.add(cs)
        await s.flush()
        shining = Card(id=uuid.uuid4(), set_id=cs.id, release_id=rel.id, name="Shining Charizard", number="107")
        s.add(shining)
    counts = await psa_sales.run(sessions, str(folder))
    assert counts["matched_files"] == 3 and counts["records"] == 858  # 859 distinct lots, one without a grade
    again = await psa_sales.run(sessions, str(folder))
    assert again["records"] == counts["records"]
    async with sessions() as s:
        n = len((await s.scalars(select(PriceRecord))).all())
        ch_prices = {(p.parallel_id, p.price_key): p.value_cents for p in (await s.scalars(
            select(CardPrice).where(CardPrice.card_id == cat.cards["charizard"].id))).all()}
    assert n == counts["records"]  # idempotent
    # the "1st-edition" file holds rows of PSA's unlimited charizard-holo page: they are unlimited sales
    assert (None, "psa-10") in ch_prices and (None, "psa-9") in ch_prices
    assert not any(par for par, _ in ch_prices)
    assert counts["duplicate_rows"] == 553  # the 554th shared row has no grade
    body = await (await client.get(f"/v1/pricing/{cat.cards['charizard'].id}?parallel_id=null", headers=auth)).json()
    assert body["graded"][0]["company_name"] == "PSA"
    assert body["meta"]["total_records"] > 400
    ts = await (await client.get(f"/v1/pricing/{cat.cards['charizard'].id}/timeseries?interval=monthly&periods=120"
                                 f"&as_of_date=2020-06-30", headers=auth)).json()
    assert ts["graded"][0]["grades"]


async def test_timeseries_never_blends_a_parallel_into_the_base_card(client, auth, priced, sessions):
    cid = priced.cards["ohtani"].id
    async with sessions() as s, s.begin():  # a raw Gold Refractor /50 sale the same day as raw base sales
        s.add(rec(priced.cards["ohtani"], days_ago=1, price=58, parallel=priced.parallels["gold"]))
    base = await (await client.get(f"/v1/pricing/{cid}/timeseries?interval=monthly&periods=12", headers=auth)).json()
    highs = [c["types"]["auction"]["high"] for c in base["raw"]["candles"] if "auction" in c["types"]]
    assert highs and max(highs) == 10  # the base card's own sales only
    gold = priced.parallels["gold"].id
    one = await (await client.get(f"/v1/pricing/{cid}/timeseries?interval=monthly&periods=12&parallel_id={gold}",
                                  headers=auth)).json()
    assert [c["types"]["auction"]["high"] for c in one["raw"]["candles"]] == [58]
    assert one["card"]["parallel"]["name"] == "Gold Refractor"
    listed = await (await client.get(f"/v1/pricing/{cid}", headers=auth)).json()
    assert 58.0 not in [r["price"] for r in listed["raw"]["records"]]
    assert "Gold Refractor (2 records)" in listed["messages"][0]["message"]
