"""Marketplace: per-card view, full-text search, listing import, synthetic generator, title matcher."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from store.importers import listings, listings_synthetic
from store.matching import TitleMatcher
from store.search import build as build_index
from store.models import MarketplaceListing
from store.reference import grades as ref
from tests.factories import seed_catalog

PSA10, BGS95 = ref.grade_id("PSA", "Card", "10"), ref.grade_id("BGS", "Card", "9.5")


@pytest.fixture
async def market(sessions, tmp_path):
    cat = await seed_catalog(sessions)
    soon = (datetime.now(timezone.utc) + timedelta(days=3)).isoformat()
    past = (datetime.now(timezone.utc) - timedelta(days=1)).isoformat()
    rows = [
        {"title": "2024 Topps Chrome Shohei Ohtani #1 Gold Refractor /50 PSA 10", "source": "eBay", "price": 2500,
         "listing_type": "auction", "bid_count": 12, "end_date": soon, "external_id": "a1"},
        {"title": "2024 Topps Chrome Shohei Ohtani #1 Base", "source": "eBay", "price": 4.5, "listing_type": "fixed",
         "external_id": "a2"},
        {"title": "Shohei Ohtani 2024 Topps Chrome #1 BGS 9.5", "source": "COMC", "price": 60, "listing_type": "fixed",
         "external_id": "a3"},
        {"title": "2024 Topps Chrome Shohei Ohtani #1 Refractor", "source": "eBay", "price": 9, "listing_type": "auction",
         "bid_count": 2, "end_date": past, "external_id": "ended"},
        {"title": "Ohtani lot of 5 cards mixed", "source": "eBay", "price": 20, "listing_type": "fixed", "external_id": "a4"},
        {"title": "Aaron Judge 2024 Topps Chrome #2", "source": "eBay", "price": 3, "listing_type": "fixed",
         "card_id": str(cat.cards["judge"].id), "grade": "", "external_id": "a5"},
        {"title": "", "source": "eBay", "price": 1, "listing_type": "fixed"},
        {"title": "x", "source": "eBay", "price": 1, "listing_type": "raffle"},
    ]
    path = tmp_path / "listings.json"
    path.write_text(json.dumps({"listings": rows}))
    counts = await listings.run(sessions, str(path), search_root=tmp_path / "search")  # matched through the index
    cat.import_counts = counts
    return cat


async def test_import_links_titles_with_the_matcher(sessions, market):
    assert {k: v for k, v in market.import_counts.items() if k != "skipped"} == {
        "listings": 6, "matched": 5, "unmatched": 1, "skipped_rows": 2}
    assert [(e["file"], e["row"]) for e in market.import_counts["skipped"]] == [("listings.json", 6), ("listings.json", 7)]
    async with sessions() as s:
        gold = await s.scalar(select(MarketplaceListing).where(MarketplaceListing.external_id == "a1"))
        lot = await s.scalar(select(MarketplaceListing).where(MarketplaceListing.external_id == "a4"))
    assert gold.card_id == market.cards["ohtani"].id and gold.parallel_id == market.parallels["gold"].id
    assert gold.grade_id == PSA10
    assert lot.card_id is None


async def test_card_view_groups_raw_and_graded_with_search_link(client, auth, market):
    r = await client.get(f"/v1/marketplace/{market.cards['ohtani'].id}", headers=auth)
    assert r.status == 200
    body = await r.json()
    assert body["card"]["number"] == "1" and body["card"]["set"]["name"] == "Base"
    raw = body["raw"]
    assert raw["count"] == 1  # the ended auction is not active
    assert raw["records"][0]["price"] == 4.5 and raw["records"][0]["bid_count"] is None
    link = raw["records"][-1]
    assert link["listing_type"] == "search" and link["price"] is None and "ebay.com" in link["url"]
    assert "image_url" not in link
    companies = [(c["company_name"], c["company_full_name"]) for c in body["graded"]]
    assert companies == [("PSA", "Professional Sports Authenticator"), ("BGS", "Beckett Grading Services")]
    psa = body["graded"][0]["grades"][0]
    assert psa["grade_value"] == "10" and psa["count"] == 1
    assert psa["records"][0]["bid_count"] == 12 and psa["records"][0]["parallel_name"] == "Gold Refractor"
    assert body["meta"]["total_records"] == 3
    assert {s["source"]: s["count"] for s in body["meta"]["sources"]} == {"eBay": 2, "COMC": 1}
    assert body["query"]["listing_type"] == "both" and body["query"]["as_of_date"]


async def test_card_view_filters(client, auth, market):
    cid = market.cards["ohtani"].id
    body = await (await client.get(f"/v1/marketplace/{cid}?listing_type=auction", headers=auth)).json()
    assert body["meta"]["total_records"] == 1
    body = await (await client.get(f"/v1/marketplace/{cid}?grade_id=null", headers=auth)).json()
    assert body["graded"] == [] and body["raw"]["count"] == 1
    body = await (await client.get(f"/v1/marketplace/{cid}?grade_id={BGS95}", headers=auth)).json()
    assert body["meta"]["total_records"] == 1 and body["raw"]["records"] == []
    body = await (await client.get(f"/v1/marketplace/{cid}?parallel_id={market.parallels['gold'].id}", headers=auth)).json()
    assert body["meta"]["total_records"] == 1 and body["card"]["parallel"]["name"] == "Gold Refractor"
    body = await (await client.get(f"/v1/marketplace/{cid}?parallel_id=null", headers=auth)).json()
    assert body["meta"]["total_records"] == 2
    body = await (await client.get(f"/v1/marketplace/{cid}?limit=1", headers=auth)).json()
    assert body["meta"]["total_records"] == 1
    for bad in ("listing_type=search", "limit=0", "limit=501", "grade_id=zzz", "parallel_id=NULL"):
        assert (await client.get(f"/v1/marketplace/{cid}?{bad}", headers=auth)).status == 400
    assert (await client.get(f"/v1/marketplace/{uuid.uuid4()}", headers=auth)).status == 404


async def test_search_is_relevance_ranked_and_omits_unsure_matches(client, auth, market):
    r = await client.get("/v1/marketplace/search?q=ohtani gold refractor psa 10", headers=auth)
    assert r.status == 200
    body = await r.json()
    titles = [x["title"] for x in body["results"]]
    assert titles[0] == "2024 Topps Chrome Shohei Ohtani #1 Gold Refractor /50 PSA 10"
    assert "2024 Topps Chrome Shohei Ohtani #1 Refractor" not in titles  # ended
    first = body["results"][0]
    assert first["matched_card"]["name"] == "Shohei Ohtani" and first["grade"]["grade_value"] == "10"
    lot = next(x for x in body["results"] if x["title"].startswith("Ohtani lot"))
    assert "matched_card" not in lot and "grade" not in lot
    assert body["meta"]["total_records"] == len(titles)
    body = await (await client.get("/v1/marketplace/search?q=ohtani&listing_type=auction", headers=auth)).json()
    assert [x["listing_type"] for x in body["results"]] == ["auction"]
    for bad in ("q=a", "q=" + "y" * 301, "q=ohtani&limit=0", "q=ohtani&limit=501", ""):
        assert (await client.get(f"/v1/marketplace/search?{bad}", headers=auth)).status == 400


async def test_synthetic_listings_are_marked_and_matched(sessions):
    await seed_catalog(sessions)
    counts = await listings_synthetic.run(sessions, "5")
    assert counts["listings"] > 0 and counts["synthetic"] == 1
    async with sessions() as s:
        rows = (await s.scalars(select(MarketplaceListing))).all()
    assert all(r.synthetic and r.source.endswith("(synthetic)") for r in rows)
    # (the API marks such records with "synthetic": true, see test_market_sdk)
    assert sum(1 for r in rows if r.card_id) >= len(rows) * 0.8


@pytest.mark.parametrize("title,expect", [
    ("2024 Topps Chrome Shohei Ohtani #1 Gold Refractor /50 PSA 10", ("ohtani", "gold", "PSA", "10")),
    ("Shohei Ohtani 2024 Topps Chrome #1 Refractor", ("ohtani", "refractor", None, None)),
    ("2024 topps chrome shohei ohtani #1 superfractor 1/1 bgs 9.5", ("ohtani", "superfractor", "BGS", "9.5")),
    ("1999 Pokemon Base Set Charizard #4 1st Edition PSA 9", ("charizard", "first_edition", "PSA", "9")),
    ("Pokemon Base Set Charizard Shadowless Holo CGC 8.5", ("charizard", "shadowless", "CGC", "8.5")),
    ("2024 Topps Chrome Shohei Ohtani #1 Red Lava /5", ("ohtani", "red_partial", None, None)),
])
@pytest.mark.parametrize("indexed", [True, False], ids=["index", "in-memory"])
async def test_matcher_links_card_parallel_grade(sessions, tmp_path, title, expect, indexed):
    cat = await seed_catalog(sessions)
    m = (await _matcher(sessions, tmp_path, indexed)).match(title)
    card, par, company, grade = expect
    assert m is not None and m.card_id == cat.cards[card].id
    assert m.parallel_id == (cat.parallels[par].id if par else None)
    assert m.grade_id == (ref.grade_id(company, "Card", grade) if company else None)


@pytest.mark.parametrize("title", [
    "Shohei Ohtani card",                                   # name only: no number, no set words
    "2023 Topps Chrome Shohei Ohtani #1",                   # wrong year
    "2024 Topps Chrome Shohei Ohtani #7",                   # wrong number
    "2024 Topps Chrome Shohei Ohtani #1 Gold Refractor /25",  # print run disagrees
    "2024 Topps Chrome Aaron Judge #2 Red Lava /5",         # partial parallel not on this card
    "Mike Trout 2024 Topps Chrome #27",                     # not in the catalog
])
@pytest.mark.parametrize("indexed", [True, False], ids=["index", "in-memory"])
async def test_matcher_leaves_unsure_titles_unmatched(sessions, tmp_path, title, indexed):
    await seed_catalog(sessions)
    assert (await _matcher(sessions, tmp_path, indexed)).match(title) is None


async def _matcher(sessions, tmp_path, indexed: bool) -> TitleMatcher:
    """The matcher asking the catalog's search index for candidates, or holding every card itself."""
    index = await build_index(sessions, tmp_path / "search") if indexed else None
    async with sessions() as s:
        return await TitleMatcher.load(s, index)
