"""One source of price truth: the catalog's prices, /v1/pricing, the timeseries and the collection
analytics all come from the same price records (real PSA sales of the real Base Set Charizard)."""

from __future__ import annotations

import statistics
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from store.importers import demo, psa_sales, tcgdex
from store.models import Card, CardSet
from store.reference import grades as ref
from tests.conftest import shared_data
from tests.realdata import tcgdex_subset

PSA10, PSA9 = ref.grade_id("PSA", "Card", "10"), ref.grade_id("PSA", "Card", "9")


def documented_price(records: list[dict]) -> float:
    """The README's method over API records: median of the newest 10 completed sales within 365 days."""
    sales = sorted((r for r in records if r["listing_type"] == "auction"), key=lambda r: r["date"], reverse=True)
    newest = date.fromisoformat(sales[0]["date"])
    recent = [r for r in sales if date.fromisoformat(r["date"]) > newest - timedelta(days=365)][:10]
    return statistics.median(r["price"] for r in recent)


@pytest.mark.parametrize("with_demo", [False, True], ids=["real-only", "beside-the-demo"])
async def test_every_figure_comes_from_the_same_records(sessions, client, auth, tmp_path, with_demo):
    if with_demo:  # the demo's own Charizard (with its synthetic prices) changes none of the real card's figures
        await demo.run(sessions, None)
    await tcgdex.run(sessions, str(tcgdex_subset(tmp_path / "tcgdex", ("Base Set",))))
    await psa_sales.run(sessions, str(shared_data("psa-sales")))
    async with sessions() as s:
        zard = (await s.execute(select(Card.id).join(CardSet, CardSet.id == Card.set_id).where(
            Card.name == "Charizard", CardSet.name == "Base Set", Card.demo.is_(False)))).scalar_one()
    prices = (await (await client.get(f"/v1/catalog/cards/{zard}", headers=auth)).json())["prices"]
    assert prices["psa-10"] == "36110.54" and prices["psa-9"] == "7000.00"

    for grade, key in ((PSA10, "psa-10"), (PSA9, "psa-9")):
        body = await (await client.get(f"/v1/pricing/{zard}?grade_id={grade}&as_of_date=2020-07-01",
                                       headers=auth)).json()
        records = body["graded"][0]["grades"][0]["records"]
        assert f"{documented_price(records):.2f}" == prices[key]
        series = await (await client.get(f"/v1/pricing/{zard}/timeseries?interval=monthly&periods=120&grade_id={grade}"
                                         f"&as_of_date=2020-07-01", headers=auth)).json()
        totals = series["graded"][0]["grades"][0]["totals"]
        assert sum(t["total_count"] for t in totals.values()) == len(records)  # the same records, bucketed

    collector = await (await client.post("/v1/collectors/", json={"name": "me"}, headers=auth)).json()
    coll = await (await client.post("/v1/collection/", json={"collectorId": collector["id"], "name": "Main"},
                                     headers=auth)).json()
    r = await client.post(f"/v1/collection/{coll['id']}/cards", headers=auth, json=[
        {"cardId": str(zard), "gradeId": str(PSA10)}, {"cardId": str(zard), "gradeId": str(PSA9)}])
    assert r.status == 201, await r.text()
    analytics = await (await client.get(f"/v1/collection/{coll['id']}/analytics", headers=auth)).json()
    assert analytics["financials"]["currentMarketValue"] == "43110.54"  # 36,110.54 + 7,000.00
    assert analytics["performance"]["topValue"]["currentValue"] == "36110.54"
