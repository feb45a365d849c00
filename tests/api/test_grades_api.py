"""The grades endpoints return exactly the spec's fields plus the keys the official SDK needs."""

from __future__ import annotations

SPEC_COMPANY = {"id", "name"}
SPEC_TYPE = {"id", "gradingCompanyId", "gradingCompanyName", "name"}
SPEC_GRADE = {"id", "gradingTypeId", "gradingTypeName", "gradingCompanyId", "gradingCompanyName", "grade"}


async def _psa(client, auth):
    body = await (await client.get("/v1/grades/companies", headers=auth)).json()
    return next(c for c in body["companies"] if c["abbreviation"] == "PSA")


async def test_companies_shape_and_order(client, auth):
    resp = await client.get("/v1/grades/companies", headers=auth)
    assert resp.status == 200
    body = await resp.json()
    assert body["total"] == len(body["companies"]) >= 9
    names = [c["name"] for c in body["companies"]]
    assert names == sorted(names)
    for c in body["companies"]:
        assert SPEC_COMPANY <= set(c) and "description" in c  # SDK requires the key
        assert c["name"] == c["abbreviation"]  # the published API's name is the short name
    psa = next(c for c in body["companies"] if c["name"] == "PSA")
    assert psa["fullName"] == "Professional Sports Authenticator"
    assert {c["abbreviation"] for c in body["companies"]} >= {"PSA", "BGS", "SGC", "CGC", "TAG", "HGA", "CSG", "BRCR", "ISA"}


async def test_types_and_grades_shape(client, auth):
    psa = await _psa(client, auth)
    types = await (await client.get(f"/v1/grades/companies/{psa['id']}/types", headers=auth)).json()
    assert types["gradingCompany"]["id"] == psa["id"] and types["total"] == len(types["types"])
    for t in types["types"]:
        assert SPEC_TYPE <= set(t) and "description" in t
        assert t["gradingCompanyId"] == psa["id"] and t["gradingCompanyName"] == psa["name"] == "PSA"
    card = next(t for t in types["types"] if t["name"] == "Card")
    grades = await (await client.get(f"/v1/grades/companies/{psa['id']}/types/{card['id']}/grades", headers=auth)).json()
    assert grades["gradingType"]["id"] == card["id"] and grades["gradingCompany"]["id"] == psa["id"]
    values = [g["grade"] for g in grades["grades"]]
    assert values[0] == "10" and {"9", "8.5", "1.5", "1", "Authentic"} <= set(values)
    assert "9.5" not in values  # PSA has no 9.5
    for g in grades["grades"]:
        assert SPEC_GRADE <= set(g) and "condition" in g
    assert next(g for g in grades["grades"] if g["grade"] == "10")["condition"] == "Gem Mint"


async def test_grades_of_a_type_from_another_company_is_404(client, auth):
    body = await (await client.get("/v1/grades/companies", headers=auth)).json()
    psa = next(c for c in body["companies"] if c["abbreviation"] == "PSA")
    bgs = next(c for c in body["companies"] if c["abbreviation"] == "BGS")
    bgs_types = await (await client.get(f"/v1/grades/companies/{bgs['id']}/types", headers=auth)).json()
    resp = await client.get(f"/v1/grades/companies/{psa['id']}/types/{bgs_types['types'][0]['id']}/grades", headers=auth)
    assert resp.status == 404


async def test_bgs_black_label_and_pristine(client, auth):
    body = await (await client.get("/v1/grades/companies", headers=auth)).json()
    bgs = next(c for c in body["companies"] if c["abbreviation"] == "BGS")
    types = await (await client.get(f"/v1/grades/companies/{bgs['id']}/types", headers=auth)).json()
    card = next(t for t in types["types"] if t["name"] == "Card")
    grades = await (await client.get(f"/v1/grades/companies/{bgs['id']}/types/{card['id']}/grades", headers=auth)).json()
    by_value = {g["grade"]: g["condition"] for g in grades["grades"]}
    assert by_value["10 Black Label"] == "Pristine" and by_value["10"] == "Pristine" and by_value["9.5"] == "Gem Mint"
