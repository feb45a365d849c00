"""The official Python SDK (cardsightai) works against Cardwise unchanged."""

from __future__ import annotations

import pytest

cardsightai = pytest.importorskip("cardsightai")


async def test_sdk_reads_health_and_grades(sdk):
    health = await sdk.health.get_health()
    assert health.status == "ok"
    auth = await sdk.health.get_health_authenticated()
    assert auth.status == "ok"
    companies = await sdk.grades.get_grading_companies()
    names = {c.name for c in companies.companies}
    assert {"PSA", "BGS", "SGC", "CGC"} <= names
    psa = next(c for c in companies.companies if c.name == "PSA")
    types = await sdk.grades.get_grading_types(company_id=psa.id)
    card = next(t for t in types.types if t.name == "Card")
    grades = await sdk.grades.get_grades(company_id=psa.id, type_id=card.id)
    assert "10" in {g.grade for g in grades.grades}


async def test_sdk_reads_this_months_usage(sdk, client, auth):
    for _ in range(3):
        assert (await client.get("/v1/grades/companies", headers=auth)).status == 200
    usage = await sdk.subscription.get_subscription()
    assert type(usage).__name__ == "SubscriptionInfo", usage
    assert usage.calls == 4  # three reads and this call
    assert len(usage.api_keys) == 1 and usage.api_keys[0].calls == 4 and usage.api_keys[0].key.startswith("cw_")
