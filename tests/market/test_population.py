"""Population reports follow the spec's six rules, checked against a hand-built example."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

import pytest

from store.importers import population as imp
from store.importers import population_synthetic
from store.models import PopulationCount
from store.reference import grades as ref
from tests.factories import seed_catalog

PSA, BGS, SGC = ref.company_id("PSA"), ref.company_id("BGS"), ref.company_id("SGC")


def g(company: str, value: str, gtype: str = "Card") -> uuid.UUID:
    return ref.grade_id(company, gtype, value)


@pytest.fixture
async def example(sessions):
    cat = await seed_catalog(sessions)
    oh, ch = cat.cards["ohtani"], cat.cards["charizard"]
    async with sessions() as s, s.begin():
        # Ohtani base: PSA 10 x5 (+1 qualified), PSA 9 x7; BGS 9.5 x2. Gold /50: PSA 10 x1. Refractor: none.
        await imp.upsert_count(s, oh.id, None, g("PSA", "10"), 5, 1, synthetic=False)
        await imp.upsert_count(s, oh.id, None, g("PSA", "9"), 7, 0, synthetic=False)
        await imp.upsert_count(s, oh.id, None, g("BGS", "9.5"), 2, 0, synthetic=False)
        await imp.upsert_count(s, oh.id, cat.parallels["gold"].id, g("PSA", "10"), 1, 0, synthetic=False)
        await imp.upsert_count(s, oh.id, cat.parallels["refractor"].id, g("PSA", "8"), 0, 0, synthetic=False)
        # Judge (same set): SGC 10 x4 but SGC's link to the set is NOT confirmed
        await imp.upsert_count(s, cat.cards["judge"].id, None, g("SGC", "10"), 4, 0, synthetic=False)
        # Charizard: only 1st Edition has data
        await imp.upsert_count(s, ch.id, cat.parallels["first_edition"].id, g("PSA", "9"), 3, 0, synthetic=False)
        await imp.upsert_link(s, PSA, cat.sets["chrome"].id, "2024 Topps Chrome", True)
        await imp.upsert_link(s, BGS, cat.sets["chrome"].id, "2024 Topps Chrome", True)
        await imp.upsert_link(s, SGC, cat.sets["chrome"].id, "Topps Chrome 2024", False)
        await imp.mark_synced(s, PSA, datetime(2026, 11, 1, tzinfo=timezone.utc), synthetic=False)
    return cat


def company(obj, name):
    return next(c for c in obj["grading_companies"] if c["name"] == name)


def grade_entry(comp, value, gtype="Card"):
    t = next(t for t in comp["grading_types"] if t["name"] == gtype)
    return next(e for e in t["grades"] if e["grade"] == value)


async def test_card_report_nests_company_type_grade_and_zero_fills(client, auth, example):
    r = await client.get(f"/v1/population/card/{example.cards['ohtani'].id}", headers=auth)
    assert r.status == 200
    body = await r.json()
    assert body["card_name"] == "Shohei Ohtani"
    base = body["base"]
    # the short name in name, as the published API has it; the full name beside it
    assert [(c["name"], c["full_name"]) for c in base["grading_companies"]] == [
        ("PSA", "Professional Sports Authenticator"), ("BGS", "Beckett Grading Services")]
    psa = company(base, "PSA")
    assert psa["last_synced_at"].startswith("2026-11-01")
    assert grade_entry(psa, "10") == {"id": str(g("PSA", "10")), "grade": "10", "condition": "Gem Mint",
                                      "population": 5, "qualified_population": 1}
    # every grade of every type of a present company, zero-filled
    card_type = next(t for t in psa["grading_types"] if t["name"] == "Card")
    assert len(card_type["grades"]) == len(ref.COMPANIES[0].types[0].grades)
    assert grade_entry(psa, "1") ["population"] == 0 and grade_entry(psa, "1")["qualified_population"] == 0
    assert {t["name"] for t in psa["grading_types"]} == {"Card", "Autograph"}
    # totals: type = pop + qualified; company = sum of types; base = sum of companies
    assert card_type["total_population"] == 13
    assert psa["total_population"] == 13
    assert company(base, "BGS")["total_population"] == 2
    assert base["total_population"] == 15
    # parallels without data omitted (Refractor has only a zero row); Gold listed
    assert [p["parallel_name"] for p in body["parallels"]] == ["Gold Refractor"]
    assert body["parallels"][0]["total_population"] == 1
    assert body["total_population"] == 16
    # snake_case only
    assert "cardName" not in json.dumps(body) and "gradingCompanies" not in json.dumps(body)


async def test_base_card_only_leaves_parallels_out_of_report_and_total(client, auth, example):
    r = await client.get(f"/v1/population/card/{example.cards['ohtani'].id}?include_parallels=false", headers=auth)
    assert r.status == 200
    body = await r.json()
    assert body["parallels"] == [] and body["total_population"] == body["base"]["total_population"] == 15


async def test_base_absent_without_data_and_company_filter(client, auth, example):
    r = await client.get(f"/v1/population/card/{example.cards['charizard'].id}", headers=auth)
    body = await r.json()
    assert "base" not in body
    assert [p["parallel_name"] for p in body["parallels"]] == ["1st Edition"]
    assert body["total_population"] == 3
    r = await client.get(f"/v1/population/card/{example.cards['ohtani'].id}?grading_company_id={BGS}", headers=auth)
    body = await r.json()
    assert [c["name"] for c in body["base"]["grading_companies"]] == ["BGS"]
    assert body["parallels"] == [] and body["total_population"] == 2
    r = await client.get(f"/v1/population/card/{example.cards['pikachu'].id}", headers=auth)
    assert await r.json() == {"card_id": str(example.cards["pikachu"].id), "card_name": "Pikachu",
                              "total_population": 0, "parallels": []}


async def test_set_report_only_confirmed_links_and_no_top_level_total(client, auth, example):
    r = await client.get(f"/v1/population/set/{example.sets['chrome'].id}", headers=auth)
    body = await r.json()
    assert set(body) == {"set_id", "set_name", "grading_companies"}
    names = [c["name"] for c in body["grading_companies"]]
    assert names == ["PSA", "BGS"]  # SGC link unconfirmed
    psa = company(body, "PSA")
    assert grade_entry(psa, "10")["population"] == 6  # Ohtani base 5 + Gold 1
    assert psa["total_population"] == 14
    # a set with data but no confirmed link
    r = await client.get(f"/v1/population/set/{example.sets['baseset'].id}", headers=auth)
    assert (await r.json())["grading_companies"] == []


async def test_release_report_groups_sets_per_company(client, auth, example):
    r = await client.get(f"/v1/population/release/{example.releases['chrome'].id}", headers=auth)
    body = await r.json()
    assert set(body) == {"release_id", "release_name", "grading_companies"}
    psa = company(body, "PSA")
    assert psa["total_population"] == 14
    assert [s["set_name"] for s in psa["sets"]] == ["Base"]  # Rookie Autographs has no data: omitted
    assert psa["sets"][0]["total_population"] == 14
    r = await client.get(f"/v1/population/release/{example.releases['chrome'].id}?grading_company_id={SGC}", headers=auth)
    assert (await r.json())["grading_companies"] == []
    r = await client.get(f"/v1/population/release/{example.releases['baseset'].id}", headers=auth)
    assert (await r.json())["grading_companies"] == []


async def test_unknown_ids_and_bad_filters(client, auth, example):
    for kind in ("card", "set", "release"):
        r = await client.get(f"/v1/population/{kind}/{uuid.uuid4()}", headers=auth)
        assert r.status == 404
        assert (await r.json())["code"] == "NOT_FOUND"
    r = await client.get("/v1/population/card/not-a-uuid", headers=auth)
    assert r.status == 400
    r = await client.get(f"/v1/population/card/{example.cards['ohtani'].id}?grading_company_id=x", headers=auth)
    assert r.status == 400


async def test_file_import_csv_and_json(sessions, tmp_path, client, auth):
    cat = await seed_catalog(sessions)
    oh = cat.cards["ohtani"].id
    csv_path = tmp_path / "pop.csv"
    csv_path.write_text("card_id,parallel_id,company,grading_type,grade,population,qualified_population\n"
                        f"{oh},,PSA,Card,10,3,0\n{oh},{cat.parallels['gold'].id},PSA,,9.0,2,1\n"
                        f"{uuid.uuid4()},,PSA,Card,10,1,0\n{oh},,XYZ,Card,10,1,0\n")
    counts = await imp.run(sessions, str(csv_path))
    assert {k: counts[k] for k in ("counts", "links", "skipped_rows")} == {"counts": 2, "links": 0, "skipped_rows": 2}
    assert [(e["file"], e["row"]) for e in counts["skipped"]] == [("pop.csv", 4), ("pop.csv", 5)]
    assert "unknown card" in counts["skipped"][0]["reason"] and "unknown grade" in counts["skipped"][1]["reason"]
    again = await imp.run(sessions, str(csv_path))
    assert again["counts"] == 2
    body = await (await client.get(f"/v1/population/card/{oh}", headers=auth)).json()
    assert body["total_population"] == 6  # re-import replaced, did not add
    json_path = tmp_path / "pop.json"
    json_path.write_text(json.dumps({"synced_at": {"PSA": "2026-10-01T00:00:00Z"},
                                     "links": [{"set_id": str(cat.sets["chrome"].id), "company": "PSA",
                                                "external_name": "2024 Topps Chrome", "confirmed": True}],
                                     "counts": []}))
    assert (await imp.run(sessions, str(json_path)))["links"] == 1
    body = await (await client.get(f"/v1/population/set/{cat.sets['chrome'].id}", headers=auth)).json()
    psa = body["grading_companies"][0]
    assert psa["total_population"] == 6 and psa["last_synced_at"].startswith("2026-10-01")


async def test_synthetic_generator_is_plausible_and_marked(sessions):
    await seed_catalog(sessions)
    counts = await population_synthetic.run(sessions, "50")
    assert counts["counts"] > 0 and counts["synthetic"] == 1
    from sqlalchemy import select

    async with sessions() as s:
        rows = (await s.scalars(select(PopulationCount))).all()
    assert rows and all(r.synthetic for r in rows)
    by_grade: dict[uuid.UUID, int] = {}
    for r in rows:
        by_grade[r.grade_id] = by_grade.get(r.grade_id, 0) + r.population + r.qualified_population
    gem = by_grade.get(g("PSA", "10"), 0)
    low = sum(by_grade.get(g("PSA", v), 0) for v in ("1", "2", "3", "4", "5", "6", "7"))
    assert low > gem
    base = sum(r.population for r in rows if r.parallel_id is None)
    par = sum(r.population for r in rows if r.parallel_id is not None)
    assert par < base
    again = await population_synthetic.run(sessions, "50")
    assert again["counts"] == counts["counts"]  # seeded: same output


async def test_synthetic_reports_say_so(sessions, client, auth):
    cat = await seed_catalog(sessions)
    await population_synthetic.run(sessions, "20")
    body = await (await client.get(f"/v1/population/set/{cat.sets['chrome'].id}", headers=auth)).json()
    assert body["grading_companies"] and all(c["synthetic"] is True for c in body["grading_companies"])
