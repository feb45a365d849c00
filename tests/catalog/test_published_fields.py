"""The published API's catalog fields: ``field`` filters on card lists, ``messages``, list items' fields,
parallels and isParallelOnly, inherited ``fields`` on set and release detail; unknown query keys refused."""

from __future__ import annotations

from store.models import FieldValue, MetadataField


async def _fields(sessions, cat) -> None:
    async with sessions() as s, s.begin():
        rarity, era = MetadataField(key="RARITY", name="Rarity"), MetadataField(key="ERA", name="Era")
        s.add_all([rarity, era])
        await s.flush()
        s.add(FieldValue(field_id=rarity.id, entity_type="card", entity_id=cat.cards["charizard"].id, value="Rare Holo"))
        s.add(FieldValue(field_id=rarity.id, entity_type="card", entity_id=cat.cards["pikachu"].id, value="Common"))
        base = cat.sets["baseset"]
        s.add(FieldValue(field_id=era.id, entity_type="segment", entity_id=cat.segments["pokemon"].id, value="TCG"))
        s.add(FieldValue(field_id=era.id, entity_type="release", entity_id=base.release_id, value="WOTC"))
        s.add(FieldValue(field_id=rarity.id, entity_type="set", entity_id=base.id, value="Mixed"))


async def _get(client, auth, path, **params):
    r = await client.get(path, params=params, headers=auth)
    return r.status, await r.json()


async def test_field_filters_the_card_list(client, auth, cat, sessions):
    await _fields(sessions, cat)
    status, body = await _get(client, auth, "/v1/catalog/cards", field="rarity:RARE HOLO")
    assert status == 200 and [c["name"] for c in body["cards"]] == ["Charizard"]
    r = await client.get("/v1/catalog/cards?field=RARITY:common&field=RARITY:rare%20holo", headers=auth)
    assert (await r.json())["total_count"] == 0  # every pair must match
    status, body = await _get(client, auth, "/v1/catalog/cards", field="RARITY")
    assert status == 400 and "KEY:VALUE" in body["error"]


async def test_unknown_query_keys_are_refused(client, auth, cat):
    status, body = await _get(client, auth, "/v1/catalog/cards", nmae="ohtani")
    assert status == 400 and body["code"] == "VALIDATION_ERROR"
    assert "nmae" in body["error"] and "name" in body["error"]
    status, _ = await _get(client, auth, "/v1/catalog/cards", name="ohtani")
    assert status == 200


async def test_list_items_carry_fields_parallels_and_is_parallel_only(client, auth, cat, sessions):
    await _fields(sessions, cat)
    status, body = await _get(client, auth, "/v1/catalog/cards", name="charizard")
    card = body["cards"][0]
    assert card["fields"] == [{"key": "RARITY", "value": "Rare Holo"}] and card["isParallelOnly"] is False
    status, body = await _get(client, auth, "/v1/catalog/cards", name="ohtani", take="1")
    names = [p["name"] for p in body["cards"][0]["parallels"]]
    assert {"Refractor", "Gold Refractor", "Superfractor"} <= set(names)
    gold = next(p for p in body["cards"][0]["parallels"] if p["name"] == "Gold Refractor")
    assert gold["numberedTo"] == 50 and set(gold) == {"id", "name", "numberedTo"}
    status, body = await _get(client, auth, f"/v1/catalog/sets/{cat.sets['chrome'].id}/cards")
    assert all("parallels" in c for c in body["cards"])
    status, detail = await _get(client, auth, f"/v1/catalog/cards/{cat.cards['ohtani'].id}")
    assert detail["isParallelOnly"] is False and detail["parallelCount"] == len(detail["parallels"])


async def test_set_and_release_detail_inherit_fields(client, auth, cat, sessions):
    await _fields(sessions, cat)
    base = cat.sets["baseset"]
    _, body = await _get(client, auth, f"/v1/catalog/sets/{base.id}")
    assert body["fields"] == [{"key": "ERA", "value": "TCG"}, {"key": "ERA", "value": "WOTC"},
                              {"key": "RARITY", "value": "Mixed"}]
    _, body = await _get(client, auth, f"/v1/catalog/releases/{base.release_id}")
    assert body["fields"] == [{"key": "ERA", "value": "TCG"}, {"key": "ERA", "value": "WOTC"}]
    _, body = await _get(client, auth, f"/v1/catalog/sets/{cat.sets['chrome'].id}")
    assert "fields" not in body


async def test_messages_advise_without_failing(client, auth, cat):
    status, body = await _get(client, auth, "/v1/catalog/cards", name="ohtani", skip="50")
    assert status == 200 and body["cards"] == []
    assert body["messages"] == [{"type": "info", "message": "skip 50 is past the last result (total_count 2)"}]
    _, body = await _get(client, auth, "/v1/catalog/cards", year="1989", min_year="2020")
    assert [m["type"] for m in body["messages"]] == ["warning"] and "min_year" in body["messages"][0]["message"]
    _, body = await _get(client, auth, "/v1/catalog/search", q="ohtani", skip="40")
    assert body["messages"][0]["type"] == "info"
    _, body = await _get(client, auth, "/v1/catalog/cards", name="ohtani")
    assert "messages" not in body
