"""Analytics, breakdown and set progress against hand-computed examples (formulas: README)."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import pytest

from store.models import Card, CardSet
from tests.collections.conftest import add_price


@pytest.fixture
async def portfolio(api, owned, cat, sessions) -> SimpleNamespace:
    """Seven entries, hand-valued in the comments (unit prices per copy)."""
    c, p, g = cat.cards, cat.parallels, cat.grades
    await add_price(sessions, c["judge"].id, 1000)                                     # judge raw $10
    await add_price(sessions, c["judge"].id, 10000, parallel_id=p["gold"].id)          # judge gold raw $100
    await add_price(sessions, c["ohtani"].id, 25000, grade_id=g["psa-10"], key="psa-10")  # ohtani PSA 10 $250
    await add_price(sessions, c["ohtani"].id, 4000)                                    # ohtani raw $40
    await add_price(sessions, c["charizard"].id, 30000)                                # charizard raw $300
    await add_price(sessions, c["skenes"].id, 2000)                                    # skenes raw $20 (held as PSA 9)
    items = [
        {"cardId": str(c["judge"].id), "quantity": 2, "buyPrice": "4.00"},                      # e1 value 20
        {"cardId": str(c["judge"].id), "parallelId": str(p["gold"].id), "buyPrice": "60"},     # e2 value 100
        {"cardId": str(c["ohtani"].id), "gradeId": str(g["psa-10"]), "buyPrice": "200.00"},    # e3 value 250
        {"cardId": str(c["ohtani"].id)},                                                        # e4 value 40
        {"cardId": str(c["pikachu"].id), "quantity": 3, "buyPrice": "1.00", "sellPrice": "2.00"},  # e5 no price
        {"cardId": str(c["charizard"].id), "buyPrice": "100.00", "soldPrice": "150.00",
         "soldDate": "2024-05-01"},                                                             # e6 sold +50
        {"cardId": str(c["skenes"].id), "gradeId": str(g["psa-9"]), "buyPrice": "30.00"},      # e7 no PSA 9 price
    ]
    st, body = await api.post(f"/v1/collection/{owned.cid}/cards", items)
    assert st == 201 and "errors" not in body, body
    return SimpleNamespace(cid=owned.cid, entries=body["cards"])


async def test_analytics_matches_hand_computation(api, portfolio, cat):
    st, a = await api.get(f"/v1/collection/{portfolio.cid}/analytics")
    assert st == 200, a
    assert a["overview"] == {"totalCards": 7, "uniqueCards": 5, "totalQuantity": 10}
    assert a["financials"] == {
        "totalInvested": "401.00",           # 8 + 60 + 200 + 3 + 100 + 30
        "currentMarketValue": "410.00",      # 20 + 100 + 250 + 40 (held, priced)
        "totalRealizedGains": "50.00",       # charizard 150 - 100
        "totalUnrealizedGains": "102.00",    # (10-4)*2 + (100-60) + (250-200)
        "overallROI": 41.3,                  # 152 / 368
        "realizedROI": 50.0,
    }
    assert a["composition"] == {"gradedCount": 2, "rawCount": 5, "gradedPercentage": 28.57, "forSaleCount": 1,
                                "soldCount": 1}
    perf = a["performance"]
    assert perf["averageCardValue"] == "82.00"  # 410 / 5 priced held copies
    assert perf["averageROI"] == 72.92          # (150 + 66.67 + 25 + 50) / 4
    assert perf["topGainer"] == {"cardId": str(cat.cards["ohtani"].id), "cardName": "Shohei Ohtani",
                                 "releaseName": "2024 Topps Chrome", "releaseYear": "2024", "buyPrice": "200.00",
                                 "currentValue": "250.00", "gain": "50.00", "gainPercentage": 25.0}
    assert perf["topValue"] == {"cardId": str(cat.cards["ohtani"].id), "cardName": "Shohei Ohtani",
                                "releaseName": "2024 Topps Chrome", "releaseYear": "2024", "currentValue": "250.00",
                                "quantity": 1}


async def test_analytics_without_prices_or_cards(api, owned, cat):
    st, a = await api.get(f"/v1/collection/{owned.cid}/analytics")
    assert st == 200
    assert a["overview"] == {"totalCards": 0, "uniqueCards": 0, "totalQuantity": 0}
    assert set(a["financials"].values()) == {None}
    assert a["performance"] == {"averageCardValue": None, "averageROI": None, "topGainer": None, "topValue": None}
    assert a["composition"]["gradedPercentage"] == 0
    await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": str(cat.cards["pikachu"].id), "buyPrice": "2"})
    st, a = await api.get(f"/v1/collection/{owned.cid}/analytics")
    assert a["financials"]["totalInvested"] == "2.00" and a["financials"]["currentMarketValue"] is None
    assert a["financials"]["overallROI"] is None and a["performance"]["topValue"] is None


async def test_breakdown_by_release(api, portfolio, cat):
    st, b = await api.get(f"/v1/collection/{portfolio.cid}/breakdown", groupBy="release")
    assert st == 200, b
    assert b["summary"] == {"totalGroups": 2, "totalCards": 7, "totalQuantity": 10, "groupedBy": "release",
                            "totalValue": "410.00", "totalInvested": "401.00", "overallRoi": 41.3,
                            "mostValuableGroup": {"name": "2024 Topps Chrome", "value": "410.00"},
                            "bestPerformingGroup": {"name": "Base Set", "roi": 50.0}}
    chrome, base = b["groups"]  # default: value desc, unvalued last
    assert {k: v for k, v in chrome.items() if k != "topCards"} == {
        "groupKey": "2024 Topps Chrome", "groupId": str(cat.releases["chrome"].id), "cardCount": 5,
        "uniqueCardCount": 3, "totalQuantity": 6, "totalBuyPrice": "298.00", "totalCurrentValue": "410.00",
        "averageBuyPrice": "59.60", "averageCurrentValue": "82.00", "roi": 38.06, "percentageOfCollection": 60.0}
    assert [(t["cardName"], t.get("currentValue")) for t in chrome["topCards"]] == [
        ("Shohei Ohtani", "250.00"), ("Aaron Judge", "100.00"), ("Shohei Ohtani", "40.00"), ("Aaron Judge", "10.00"),
        ("Paul Skenes", None)]
    top = chrome["topCards"][0]
    assert top["setName"] == "Base" and top["releaseName"] == "2024 Topps Chrome" and top["releaseYear"] == "2024"
    assert top["quantity"] == 1 and top["buyPrice"] == "200.00"
    assert base["groupKey"] == "Base Set" and base["totalSoldPrice"] == "150.00" and base["roi"] == 50.0
    assert "totalCurrentValue" not in base and base["percentageOfCollection"] == 40.0
    assert b["pagination"] == {"total_count": 2, "skip": 0, "take": 20, "page": 1, "pages": 1}


@pytest.mark.parametrize("group_by,keys", [
    ("year", ["2024", "1999"]),
    ("grade", ["Raw", "PSA 10", "PSA 9"]),
    ("manufacturer", ["Topps", "Wizards of the Coast"]),
    ("player", ["Shohei Ohtani", "Aaron Judge", "Charizard", "Paul Skenes", "Pikachu"]),
])
async def test_breakdown_dimensions(api, portfolio, group_by, keys):
    st, b = await api.get(f"/v1/collection/{portfolio.cid}/breakdown", groupBy=group_by, sortBy="count")
    assert st == 200, b
    got = [g["groupKey"] for g in b["groups"]]
    assert sorted(got) == sorted(keys)
    assert sum(g["cardCount"] for g in b["groups"]) == 7
    assert sum(g["totalQuantity"] for g in b["groups"]) == 10
    counts = [g["cardCount"] for g in b["groups"]]
    assert counts == sorted(counts, reverse=True)


async def test_breakdown_grade_values(api, portfolio):
    st, b = await api.get(f"/v1/collection/{portfolio.cid}/breakdown", groupBy="grade", sortBy="value", order="asc")
    by_key = {g["groupKey"]: g for g in b["groups"]}
    assert by_key["Raw"]["totalCurrentValue"] == "160.00" and "groupId" not in by_key["Raw"]
    assert by_key["PSA 10"]["totalCurrentValue"] == "250.00" and by_key["PSA 10"]["roi"] == 25.0
    assert "totalCurrentValue" not in by_key["PSA 9"]
    assert [g["groupKey"] for g in b["groups"]] == ["Raw", "PSA 10", "PSA 9"]  # asc, unvalued still last


async def test_breakdown_sorting_paging_and_min_count(api, portfolio):
    url = f"/v1/collection/{portfolio.cid}/breakdown"
    st, b = await api.get(url, groupBy="release", sortBy="roi")
    assert [g["groupKey"] for g in b["groups"]] == ["Base Set", "2024 Topps Chrome"]
    st, b = await api.get(url, groupBy="release", sortBy="percentage", order="asc")
    assert [g["groupKey"] for g in b["groups"]] == ["Base Set", "2024 Topps Chrome"]
    st, b = await api.get(url, groupBy="player", sortBy="count", take=2, skip=2)
    assert len(b["groups"]) == 2 and b["pagination"] == {"total_count": 5, "skip": 2, "take": 2, "page": 2, "pages": 3}
    st, b = await api.get(url, groupBy="release", minCount=3)
    assert [g["groupKey"] for g in b["groups"]] == ["2024 Topps Chrome"] and b["summary"]["totalGroups"] == 1


@pytest.mark.parametrize("params", [
    {}, {"groupBy": "color"}, {"groupBy": "release", "sortBy": "name"}, {"groupBy": "release", "order": "up"},
    {"groupBy": "release", "take": 0}, {"groupBy": "release", "take": 101}, {"groupBy": "release", "minCount": -1},
    {"groupBy": "release", "minCount": "many"},
])
async def test_breakdown_rejects_bad_queries(api, owned, params):
    st, err = await api.get(f"/v1/collection/{owned.cid}/breakdown", **params)
    assert st == 400 and err["code"] == "VALIDATION_ERROR"


async def test_set_progress_list(api, portfolio, cat):
    url = f"/v1/collection/{portfolio.cid}/set-progress"
    st, sp = await api.get(url)
    assert st == 200, sp
    assert sp["summary"] == {"totalSets": 2, "nearCompleteSets": 1, "fullyCompleteSets": 1,
                             "totalEstimatedCost": "300.00"}
    chrome, base = sp["sets"]
    assert chrome == {"setId": str(cat.sets["chrome"].id), "setName": "Base", "releaseName": "2024 Topps Chrome",
                      "releaseYear": "2024", "totalCards": 3, "ownedCards": 3, "missingCards": [],
                      "completionPercentage": 100.0, "estimatedCostToComplete": "0.00", "difficultyScore": 0.0,
                      "averageCardValue": "23.33"}
    # Base Set: Pikachu held, Charizard sold -> 1 of 2; missing Charizard $300 -> 0.5*50 + 0.3*100 + 0 = 55
    assert base == {"setId": str(cat.sets["baseset"].id), "setName": "Base Set", "releaseName": "Base Set",
                    "releaseYear": "1999", "totalCards": 2, "ownedCards": 1, "missingCards": [],
                    "completionPercentage": 50.0, "estimatedCostToComplete": "300.00", "difficultyScore": 55.0,
                    "averageCardValue": "300.00"}
    assert sp["total_count"] == 2

    async def order(**params):
        st, page = await api.get(url, **params)
        assert st == 200, page
        return [s["setName"] for s in page["sets"]]

    assert await order(sortBy="missing") == ["Base Set", "Base"]
    assert await order(sortBy="cost") == ["Base Set", "Base"]
    assert await order(sortBy="difficulty", order="asc") == ["Base", "Base Set"]
    assert await order(sortBy="completion", order="asc") == ["Base Set", "Base"]
    assert await order(minCompletion=60) == ["Base"]
    assert await order(nearComplete="true") == ["Base"]
    assert await order(take=1, skip=1) == ["Base Set"]
    for bad in ({"minCompletion": 101}, {"minCompletion": -1}, {"sortBy": "name"}, {"nearComplete": "1"}):
        assert (await api.get(url, **bad))[0] == 400


async def test_set_progress_lists_missing_cards_from_85_percent(api, owned, cat, sessions):
    chrome = cat.sets["chrome"]
    async with sessions() as s, s.begin():
        extra = CardSet(id=uuid.uuid4(), release_id=chrome.release_id, name="Inserts")
        s.add(extra)
        await s.flush()
        cards = [Card(id=uuid.uuid4(), set_id=extra.id, release_id=chrome.release_id, name=f"Insert {i}",
                      number=str(i), number_sort=i, numbered_to=25 if i == 7 else None) for i in range(1, 8)]
        s.add_all(cards)
    await add_price(sessions, cards[6].id, 5000)
    await api.post(f"/v1/collection/{owned.cid}/cards", [{"cardId": str(c.id)} for c in cards[:6]])
    st, sp = await api.get(f"/v1/collection/{owned.cid}/set-progress")
    (row,) = sp["sets"]
    assert row["completionPercentage"] == 85.71 and row["missingCards"] == [str(cards[6].id)]
    # 0.5 * 1/7 + 0.3 * 50/100 + 0.2 * 1/1 = 0.4214 -> 42.1
    assert row["difficultyScore"] == 42.1 and row["estimatedCostToComplete"] == "50.00"


async def test_set_progress_for_one_set_and_parallel(api, portfolio, cat):
    base = f"/v1/collection/{portfolio.cid}/set-progress"
    st, one = await api.get(f"{base}/{cat.sets['baseset'].id}")
    assert st == 200 and one["missingCards"] == [str(cat.cards["charizard"].id)] and one["ownedCards"] == 1
    st, par = await api.get(f"{base}/{cat.sets['chrome'].id}/{cat.parallels['gold'].id}")
    assert st == 200, par
    assert par == {"setId": str(cat.sets["chrome"].id), "setName": "Base", "releaseName": "2024 Topps Chrome",
                   "releaseYear": "2024", "parallelId": str(cat.parallels["gold"].id), "parallelName": "Gold Refractor",
                   "totalCards": 3, "ownedCards": 1,
                   "missingCards": [str(cat.cards["ohtani"].id), str(cat.cards["skenes"].id)],
                   "completionPercentage": 33.33}
    st, red = await api.get(f"{base}/{cat.sets['chrome'].id}/{cat.parallels['red_partial'].id}")
    assert (red["totalCards"], red["ownedCards"], red["missingCards"]) == (1, 0, [str(cat.cards["ohtani"].id)])
    for path in (f"{base}/{cat.sets['series1'].id}", f"{base}/{uuid.uuid4()}",
                 f"{base}/{cat.sets['chrome'].id}/{cat.parallels['shadowless'].id}",
                 f"{base}/{cat.sets['series1'].id}/{cat.parallels['gold'].id}",
                 f"{base}/{cat.sets['chrome'].id}/{uuid.uuid4()}"):
        st, err = await api.get(path)
        assert st == 404 and err["code"] == "NOT_FOUND", path
    assert (await api.get(f"{base}/not-a-uuid"))[0] == 400


@pytest.mark.parametrize("group_by", ["release", "year", "grade", "player", "manufacturer"])
async def test_breakdown_page_carries_the_same_groups_and_top_cards(api, portfolio, group_by):
    """Top cards are ranked only for the listed groups (players, releases): a page shows exactly what
    the whole list shows for those groups."""
    url = f"/v1/collection/{portfolio.cid}/breakdown"
    st, whole = await api.get(url, groupBy=group_by, sortBy="count")
    assert st == 200, whole
    for skip in range(len(whole["groups"])):
        st, page = await api.get(url, groupBy=group_by, sortBy="count", take=1, skip=skip)
        assert st == 200 and page["groups"] == whole["groups"][skip:skip + 1]
        assert page["summary"] == whole["summary"]
