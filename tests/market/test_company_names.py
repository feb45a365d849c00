"""Every answer names a grading company as the published API does: the short name ("PSA") in ``name`` /
``company_name`` / ``gradingCompanyName``, the full name only in a field of its own."""

from __future__ import annotations

import json
import uuid
from datetime import date, timedelta

import pytest

from store.importers import listings
from store.importers import population as pop
from store.models import PriceRecord
from store.reference import grades as ref
from tests.factories import seed_catalog

SHORT = {c.abbreviation for c in ref.COMPANIES}
FULL = {c.abbreviation: c.name for c in ref.COMPANIES}


@pytest.fixture
async def graded(sessions, tmp_path):
    cat = await seed_catalog(sessions)
    ohtani, psa10 = cat.cards["ohtani"].id, ref.grade_id("PSA", "Card", "10")
    async with sessions() as s, s.begin():
        s.add(PriceRecord(id=uuid.uuid4(), card_id=ohtani, grade_id=psa10, title="2024 Topps Chrome Ohtani #1 PSA 10",
                          price_cents=25000, date=date.today() - timedelta(days=3), listing_type="auction", source="eBay"))
        await pop.upsert_count(s, ohtani, None, psa10, 5, 0, synthetic=False)
        await pop.upsert_count(s, ohtani, None, ref.grade_id("BGS", "Card", "9.5"), 2, 0, synthetic=False)
        for company in ("PSA", "BGS"):
            await pop.upsert_link(s, ref.company_id(company), cat.sets["chrome"].id, "2024 Topps Chrome", True)
    path = tmp_path / "listings.json"
    path.write_text(json.dumps({"listings": [
        {"title": "2024 Topps Chrome Shohei Ohtani #1 PSA 10", "source": "eBay", "price": 300, "listing_type": "fixed",
         "external_id": "l1"}]}))
    await listings.run(sessions, str(path))
    return cat


def company_names(node, inside_company: bool = False):
    """(field, value, full name or None) for every place an answer names a grading company."""
    if isinstance(node, list):
        for item in node:
            yield from company_names(item, inside_company)
    elif isinstance(node, dict):
        for key in ("company_name", "gradingCompanyName"):
            if key in node:
                yield key, node[key], node.get("company_full_name")
        if inside_company and "name" in node:
            yield "name", node["name"], node.get("full_name", node.get("fullName"))
        for key, value in node.items():
            yield from company_names(value, key in ("grading_companies", "companies", "gradingCompany", "company"))


async def test_every_answer_names_companies_by_their_short_name(client, auth, graded):
    card, cset, rel = graded.cards["ohtani"].id, graded.sets["chrome"], graded.sets["chrome"].release_id
    psa = ref.company_id("PSA")
    seen: dict[str, int] = {}
    for path in (f"/v1/pricing/{card}", "/v1/pricing/search?q=ohtani", f"/v1/pricing/{card}/timeseries?interval=daily&periods=30",
                 f"/v1/marketplace/{card}", "/v1/marketplace/search?q=ohtani psa 10",
                 f"/v1/population/card/{card}", f"/v1/population/set/{cset.id}", f"/v1/population/release/{rel}",
                 "/v1/grades/companies", f"/v1/grades/companies/{psa}/types"):
        resp = await client.get(path, headers=auth)
        assert resp.status == 200, path
        found = list(company_names(await resp.json()))
        seen[path] = len(found)
        for field, short, full in found:
            assert short in SHORT, f"{path}: {field} is {short!r}"
            assert full in (None, FULL[short]), f"{path}: the full name beside {short} is {full!r}"
    assert all(seen.values()), seen  # every answer named at least one company
    body = await (await client.get(f"/v1/population/card/{card}", headers=auth)).json()
    assert [(c["name"], c["full_name"]) for c in body["base"]["grading_companies"]] == [
        ("PSA", "Professional Sports Authenticator"), ("BGS", "Beckett Grading Services")]
