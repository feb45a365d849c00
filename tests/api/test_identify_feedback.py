"""Feedback on an identification: the requestId of POST /v1/identify/card is a feedback entity of
the key that made the request, and of no other key."""

from __future__ import annotations

import pytest

from tests.factories import seed_catalog
from tests.vision.helpers import photo


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)


async def test_feedback_on_an_identification_request(client, auth, other_auth, cat):
    resp = await client.post("/v1/identify/card", data=photo(cat, ["judge"], seed=3),
                             headers={**auth, "Content-Type": "image/jpeg"})
    assert resp.status == 200
    request_id = (await resp.json())["requestId"]

    fb = await client.post(f"/v1/feedback/identify/{request_id}", headers=auth,
                           json={"feedback_type": "data_error", "message": "That is not Aaron Judge"})
    assert fb.status == 201
    body = await fb.json()
    assert body["success"] is True
    assert body["data"]["entity_type"] == "identify" and body["data"]["entity_id"] == request_id

    # another key cannot attach feedback to this request: it does not exist for them
    other = await client.post(f"/v1/feedback/identify/{request_id}", headers=other_auth,
                              json={"message": "Not mine"})
    assert other.status == 404
    unknown = await client.post("/v1/feedback/identify/5f0c7a3e-1b2c-4d5e-8f90-1a2b3c4d5e6f", headers=auth,
                                json={"message": "Nothing"})
    assert unknown.status == 404
