"""Collection cards: add one or a batch, list with filters and sorts, get, update (null clears), delete."""

from __future__ import annotations

import pytest

from store.models import CollectionCard
from tests.collections.conftest import count_rows

NIL = "00000000-0000-0000-0000-000000000000"


async def test_add_one_returns_the_entry_with_quantity_and_no_null_ids(api, owned, cat):
    st, body = await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": str(cat.cards["judge"].id)})
    assert st == 201
    assert body["quantity"] == 1 and body["cardId"] == str(cat.cards["judge"].id)
    assert body["collectionId"] == owned.cid
    assert "parallelId" not in body and "gradeId" not in body and "buyPrice" not in body
    st, got = await api.get(f"/v1/collection/{owned.cid}/cards/{body['id']}")
    assert st == 200 and got == body


async def test_add_one_with_every_field(api, owned, cat):
    item = {"cardId": str(cat.cards["ohtani"].id), "parallelId": str(cat.parallels["gold"].id),
            "gradeId": str(cat.grades["psa-10"]), "quantity": 2, "buyPrice": "12.5", "buyDate": "2024-02-29",
            "sellPrice": "40", "soldPrice": "35.99", "soldDate": "2024-06-01"}
    st, body = await api.post(f"/v1/collection/{owned.cid}/cards", item)
    assert st == 201, body
    assert body["buyPrice"] == "12.50" and body["sellPrice"] == "40.00" and body["soldPrice"] == "35.99"
    assert body["buyDate"] == "2024-02-29" and body["soldDate"] == "2024-06-01"
    assert body["parallelId"] == item["parallelId"] and body["gradeId"] == item["gradeId"] and body["quantity"] == 2


async def test_batch_adds_good_items_and_reports_bad_ones(api, owned, cat):
    items = [
        {"cardId": str(cat.cards["judge"].id)},
        {"cardId": NIL},
        {"cardId": str(cat.cards["charizard"].id), "parallelId": str(cat.parallels["gold"].id)},
        {"cardId": str(cat.cards["judge"].id), "parallelId": str(cat.parallels["red_partial"].id)},
        {"cardId": str(cat.cards["ohtani"].id), "parallelId": str(cat.parallels["red_partial"].id)},
    ]
    st, body = await api.post(f"/v1/collection/{owned.cid}/cards", items)
    assert st == 201, body
    assert [c["cardId"] for c in body["cards"]] == [items[0]["cardId"], items[4]["cardId"]]
    assert [(e["index"], e["cardId"]) for e in body["errors"]] == [(1, NIL), (2, items[2]["cardId"]),
                                                                   (3, items[3]["cardId"])]
    assert all(e["error"] for e in body["errors"])
    st, page = await api.get(f"/v1/collection/{owned.cid}/cards")
    assert page["total_count"] == 2


async def test_batch_without_errors_omits_errors(api, owned, cat):
    st, body = await api.post(f"/v1/collection/{owned.cid}/cards", [{"cardId": str(cat.cards["judge"].id)}])
    assert st == 201 and "errors" not in body and len(body["cards"]) == 1


@pytest.mark.parametrize("body", [
    [],
    [{"cardId": "x"}] * 101,
    {"cardId": "not-a-uuid"},
    {"quantity": 1},
    {"cardId": "{judge}", "quantity": 0},
    {"cardId": "{judge}", "quantity": -3},
    {"cardId": "{judge}", "quantity": 1.5},
    {"cardId": "{judge}", "quantity": True},
    {"cardId": "{judge}", "quantity": 100_001},
    {"cardId": "{judge}", "buyPrice": "1.234"},
    {"cardId": "{judge}", "buyPrice": "-1"},
    {"cardId": "{judge}", "buyPrice": "abc"},
    {"cardId": "{judge}", "buyPrice": "99999999.00"},
    {"cardId": "{judge}", "buyDate": "2024-2-01"},
    {"cardId": "{judge}", "buyDate": "2023-02-29"},
    {"cardId": "{judge}", "soldDate": "yesterday"},
    {"cardId": "{judge}", "parallelId": "123"},
    {"cardId": "{judge}", "extra": 1},
    [{"cardId": "{judge}"}, {"cardId": "{judge}", "quantity": 0}],
])
async def test_invalid_input_is_400_and_adds_nothing(api, owned, cat, sessions, body):
    def fill(v):
        if isinstance(v, list):
            return [fill(x) for x in v]
        if isinstance(v, dict):
            return {k: (str(cat.cards["judge"].id) if x == "{judge}" else x) for k, x in v.items()}
        return v
    st, err = await api.post(f"/v1/collection/{owned.cid}/cards", fill(body))
    assert st == 400, err
    assert err["code"] == "VALIDATION_ERROR" and err["error"]
    assert await count_rows(sessions, CollectionCard) == 0


async def test_uuid_rules_for_collection_inputs(api, owned, cat):
    # versions 1-8, upper case, nil and max are accepted as identifiers (then looked up)
    upper = str(cat.cards["judge"].id).upper()
    st, body = await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": upper})
    assert st == 201 and body["cardId"] == upper.lower()
    for ident in (NIL, "ffffffff-ffff-ffff-ffff-ffffffffffff", "01890a5d-ac96-7abc-8def-0123456789ab",
                  "01890a5d-ac96-8abc-8def-0123456789ab"):
        st, err = await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": ident})
        assert (st, err["code"]) == (404, "NOT_FOUND")
    st, _ = await api.post(f"/v1/collection/{owned.cid}/cards", {"cardId": "01890a5d-ac96-9abc-8def-0123456789ab"})
    assert st == 400
    st, _ = await api.get(f"/v1/collection/{owned.cid.upper()}")
    assert st == 200


@pytest.mark.parametrize("case,status", [
    ("unknown_card", 404), ("unknown_parallel", 404), ("unknown_grade", 404),
    ("parallel_of_other_set", 400), ("partial_without_card", 400),
])
async def test_single_add_reference_errors(api, owned, cat, sessions, case, status):
    judge = str(cat.cards["judge"].id)
    body = {
        "unknown_card": {"cardId": NIL},
        "unknown_parallel": {"cardId": judge, "parallelId": NIL},
        "unknown_grade": {"cardId": judge, "gradeId": NIL},
        "parallel_of_other_set": {"cardId": judge, "parallelId": str(cat.parallels["shadowless"].id)},
        "partial_without_card": {"cardId": judge, "parallelId": str(cat.parallels["red_partial"].id)},
    }[case]
    st, err = await api.post(f"/v1/collection/{owned.cid}/cards", body)
    assert st == status and set(err) == {"error", "code"}
    assert await count_rows(sessions, CollectionCard) == 0


async def _add(api, cid, **fields):
    st, body = await api.post(f"/v1/collection/{cid}/cards", fields)
    assert st == 201, body
    return body


async def test_list_filters_and_sorts(api, owned, cat):
    cid = owned.cid
    a = await _add(api, cid, cardId=str(cat.cards["judge"].id), buyPrice="5.00", buyDate="2024-01-05")
    b = await _add(api, cid, cardId=str(cat.cards["judge"].id), parallelId=str(cat.parallels["gold"].id),
                   buyPrice="50.00", buyDate="2024-03-01", soldPrice="80.00", soldDate="2024-05-01")
    c = await _add(api, cid, cardId=str(cat.cards["charizard"].id), gradeId=str(cat.grades["psa-10"]),
                   buyPrice="500.00")
    d = await _add(api, cid, cardId=str(cat.cards["pikachu"].id), soldPrice="3.00")  # no sold date: not sold

    async def ids(**params):
        st, page = await api.get(f"/v1/collection/{cid}/cards", **params)
        assert st == 200, page
        return [x["id"] for x in page["cards"]]

    assert set(await ids()) == {a["id"], b["id"], c["id"], d["id"]}
    assert await ids(cardId=cat.cards["judge"].id, sort="buyDate") == [b["id"], a["id"]]
    assert await ids(parallelId=cat.parallels["gold"].id) == [b["id"]]
    assert await ids(gradeId=cat.grades["psa-10"]) == [c["id"]]
    assert await ids(hasSold="true") == [b["id"]]
    assert set(await ids(hasSold="false")) == {a["id"], c["id"], d["id"]}
    assert await ids(sort="buyPrice") == [c["id"], b["id"], a["id"], d["id"]]  # default desc, unset last
    assert await ids(sort="buyPrice", order="asc") == [a["id"], b["id"], c["id"], d["id"]]
    assert (await ids(sort="soldPrice"))[:2] == [b["id"], d["id"]]
    assert (await ids(sort="soldDate"))[0] == b["id"]
    st, page = await api.get(f"/v1/collection/{cid}/cards", take=2, skip=1, sort="buyPrice")
    assert [x["id"] for x in page["cards"]] == [b["id"], a["id"]] and page["total_count"] == 4
    assert (page["skip"], page["take"]) == (1, 2)
    for bad in ({"sort": "price"}, {"order": "up"}, {"hasSold": "yes"}, {"take": 0}, {"take": 101},
                {"cardId": "zz"}, {"skip": -1}):
        st, err = await api.get(f"/v1/collection/{cid}/cards", **bad)
        assert st == 400, bad


async def test_update_sets_and_clears_fields(api, owned, cat, sessions):
    e = await _add(api, owned.cid, cardId=str(cat.cards["ohtani"].id), parallelId=str(cat.parallels["gold"].id),
                   gradeId=str(cat.grades["psa-10"]), buyPrice="10.00", buyDate="2024-01-01", quantity=3)
    url = f"/v1/collection/{owned.cid}/cards/{e['id']}"
    st, body = await api.put(url, {"quantity": 5, "soldPrice": "20.10", "soldDate": "2024-08-08"})
    assert st == 200 and body["quantity"] == 5 and body["soldPrice"] == "20.10" and body["buyPrice"] == "10.00"
    st, body = await api.put(url, {"parallelId": None, "gradeId": None, "buyPrice": None, "buyDate": None})
    assert st == 200, body
    assert "parallelId" not in body and "gradeId" not in body and "buyPrice" not in body and "buyDate" not in body
    assert body["quantity"] == 5 and body["soldDate"] == "2024-08-08"
    st, body = await api.put(url, {"parallelId": str(cat.parallels["red_partial"].id)})
    assert st == 200 and body["parallelId"] == str(cat.parallels["red_partial"].id)
    assert (await api.get(url))[1] == body


@pytest.mark.parametrize("change,status", [
    ({"quantity": 0}, 400), ({"quantity": None}, 400), ({"buyPrice": "1.001"}, 400), ({"soldDate": "2024-13-01"}, 400),
    ({"parallelId": str("00000000-0000-0000-0000-000000000000")}, 404), ({"gradeId": "not-uuid"}, 400),
    ({"cardId": "00000000-0000-0000-0000-000000000000", "foo": 1}, 400),
])
async def test_rejected_update_changes_nothing(api, owned, cat, change, status):
    e = await _add(api, owned.cid, cardId=str(cat.cards["judge"].id), buyPrice="1.00", quantity=2)
    url = f"/v1/collection/{owned.cid}/cards/{e['id']}"
    st, err = await api.put(url, change)
    assert st == status, err
    assert (await api.get(url))[1] == e


async def test_update_parallel_must_fit_the_card(api, owned, cat):
    e = await _add(api, owned.cid, cardId=str(cat.cards["judge"].id))
    url = f"/v1/collection/{owned.cid}/cards/{e['id']}"
    for par in ("shadowless", "red_partial"):
        st, err = await api.put(url, {"parallelId": str(cat.parallels[par].id)})
        assert st == 400 and err["code"] == "VALIDATION_ERROR"
    assert (await api.get(url))[1] == e


async def test_delete_entry(api, owned, cat):
    e = await _add(api, owned.cid, cardId=str(cat.cards["judge"].id))
    url = f"/v1/collection/{owned.cid}/cards/{e['id']}"
    resp = await api.client.delete(url, headers=api.headers)
    assert resp.status == 204 and await resp.read() == b""
    assert (await api.get(url))[0] == 404
    assert (await api.delete(url))[0] == 404


async def test_entry_of_another_collection_is_404(api, owned, cat):
    st, other = await api.post("/v1/collection/", {"collectorId": owned.collector["id"]})
    e = await _add(api, owned.cid, cardId=str(cat.cards["judge"].id))
    assert (await api.get(f"/v1/collection/{other['id']}/cards/{e['id']}"))[0] == 404
    assert (await api.put(f"/v1/collection/{other['id']}/cards/{e['id']}", {"quantity": 3}))[0] == 404
