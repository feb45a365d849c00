"""The collection tools work as agent tools (JSON arguments through the registry), scoped to the caller."""

from __future__ import annotations

import pytest

from tools._registry import invoke
from tools.context import Caller
from tools.errors import ServiceError


async def test_agent_builds_and_reads_a_collection(ctx, cat, other_key):
    collector = await invoke("collector_create", {"name": "Agent"}, ctx)
    coll = await invoke("collection_create", {"collectorId": collector["id"], "name": "A"}, ctx)
    added = await invoke("collection_cards_add", {"collectionId": coll["id"], "items": [
        {"cardId": str(cat.cards["judge"].id), "quantity": 2}, {"cardId": "00000000-0000-0000-0000-000000000000"}]},
        ctx)
    assert len(added["cards"]) == 1 and added["errors"][0]["index"] == 1
    ctx.defaults["collectionId"] = coll["id"]  # the agent's query context names the collection
    analytics = await invoke("collection_analytics", "{}", ctx)
    assert analytics["overview"]["totalQuantity"] == 2
    breakdown = await invoke("collection_breakdown", {"groupBy": "player"}, ctx)
    assert breakdown["groups"][0]["groupKey"] == "Aaron Judge"
    with pytest.raises(ServiceError) as err:
        await invoke("collection_breakdown", {}, ctx)
    assert err.value.code == "VALIDATION_ERROR"
    stranger = ctx.with_caller(Caller(key_id=other_key[0]))
    with pytest.raises(ServiceError) as err:
        await invoke("collection_analytics", {"collectionId": coll["id"]}, stranger)
    assert err.value.code == "NOT_FOUND"
    with pytest.raises(ServiceError):
        await invoke("collection_card_image", {"collectionId": coll["id"], "cardId": added["cards"][0]["id"]}, ctx)
