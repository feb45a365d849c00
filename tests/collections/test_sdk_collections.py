"""The official SDK (cardsightai) drives the whole collection area unchanged."""

from __future__ import annotations

import pytest

from store.models import Collection, CollectionCard, WantList, WantListCard
from tests.collections.conftest import add_price, count_rows

cardsightai = pytest.importorskip("cardsightai")
from cardsightai.generated.card_sight_ai_api_client import models as m  # noqa: E402


async def test_sdk_collection_journey(sdk, cat, sessions):
    await add_price(sessions, cat.cards["judge"].id, 1500)
    await add_price(sessions, cat.cards["charizard"].id, 30000)
    collector = await sdk.collectors.create_collector(body=m.CreateCollectorInput(name="Ana"))
    assert isinstance(collector, m.Collector), collector
    coll = await sdk.collections.create_collection(body=m.CreateCollectionInput(collector_id=collector.id, name="Main"))
    assert isinstance(coll, m.Collection), coll

    items = [m.CollectionCardItemInput(card_id=cat.cards["judge"].id, quantity=2, buy_price="10.00"),
             m.CollectionCardItemInput(card_id=cat.cards["ohtani"].id, parallel_id=cat.parallels["gold"].id,
                                       grade_id=cat.grades["psa-10"]),
             m.CollectionCardItemInput(card_id=cat.cards["charizard"].id, buy_price="100")]
    batch = await sdk.collections.add_collection_cards(collection_id=coll.id, body=items)
    assert isinstance(batch, m.BatchCollectionCardsResponse), batch
    assert len(batch.cards) == 3 and all(c.quantity >= 1 for c in batch.cards)
    judge = batch.cards[0]
    single = await sdk.collections.add_collection_cards(
        collection_id=coll.id, body=m.CollectionCardItemInput(card_id=cat.cards["pikachu"].id))
    assert isinstance(single, m.CollectionCard) and single.quantity == 1

    upd = await sdk.collections.update_collection_card(
        collection_id=coll.id, card_id=judge.id, body=m.UpdateCollectionCardInput(quantity=3, sell_price="30.00"))
    assert isinstance(upd, m.CollectionCard) and upd.quantity == 3 and upd.sell_price == "30.00"
    page = await sdk.collections.get_collection_cards(collection_id=coll.id)
    assert isinstance(page, m.PaginatedCollectionCardsResponse) and page.total_count == 4
    got = await sdk.collections.get_collection_card(collection_id=coll.id, card_id=judge.id)
    assert isinstance(got, m.CollectionCard) and got.quantity == 3

    analytics = await sdk.collections.get_collection_analytics(collection_id=coll.id)
    assert isinstance(analytics, m.CollectionAnalyticsResponse), analytics
    assert analytics.overview.total_quantity == 6 and analytics.financials.total_invested == "130.00"

    for group_by in ("release", "year", "grade", "player", "manufacturer"):
        bd = await sdk.collections.get_collection_breakdown(
            collection_id=coll.id, group_by=m.GetCollectionBreakdownGroupBy(group_by))
        assert isinstance(bd, m.CollectionBreakdownResponse), (group_by, bd)
        assert bd.summary.total_cards == 4 and bd.groups and bd.groups[0].top_cards
    progress = await sdk.collections.get_collection_set_progress(collection_id=coll.id)
    assert isinstance(progress, m.SetProgressListResponse), progress
    assert [s.set_name for s in progress.sets] == ["Base Set", "Base"]  # 100% then 66.67%
    assert progress.summary.fully_complete_sets == 1
    progress = await sdk.collections.get_collection_set_progress(collection_id=coll.id, near_complete=False)
    assert [s.set_name for s in progress.sets] == ["Base"]
    one = await sdk.collections.get_set_progress(collection_id=coll.id, set_id=cat.sets["chrome"].id)
    assert isinstance(one, m.SetProgress) and one.owned_cards == 2 and one.missing_cards == [str(cat.cards["skenes"].id)]
    par = await sdk.collections.get_parallel_set_progress(
        collection_id=coll.id, set_id=cat.sets["chrome"].id, parallel_id=cat.parallels["gold"].id)
    assert isinstance(par, m.ParallelSetProgress) and par.owned_cards == 1

    binder = await sdk.collections.create_binder(collection_id=coll.id, body=m.CreateBinderInput(name="Best"))
    assert isinstance(binder, m.Binder), binder
    link = await sdk.collections.add_card_to_binder(collection_id=coll.id, binder_id=binder.id,
                                                    body=m.AddCardToBinderInput(collection_card_id=judge.id))
    assert isinstance(link, m.BinderCard), link

    wl = await sdk.lists.create_list(body=m.CreateListInput(collector_id=collector.id, name="Wants"))
    assert isinstance(wl, m.List), wl
    res = await sdk.lists.add_cards_to_list(list_id=str(wl.id), body=[
        m.ListCardItemInput(card_id=str(cat.cards["skenes"].id)),
        m.ListCardItemInput(card_id="00000000-0000-0000-0000-000000000000"),
        m.ListCardItemInput(card_id=str(cat.cards["skenes"].id))])
    assert isinstance(res, m.BatchListCardsResponse), res
    assert len(res.cards) == 1 and [e.index for e in res.errors] == [1, 2]
    cards = await sdk.lists.get_list_cards(list_id=str(wl.id))
    assert cards.total_count == 1

    await sdk.collectors.delete_collector(collector_id=collector.id)
    missing = await sdk.collections.get_collection(collection_id=coll.id)
    assert isinstance(missing, m.ErrorResponse) and missing.code == "NOT_FOUND"
    for model in (Collection, CollectionCard, WantList, WantListCard):
        assert await count_rows(sessions, model) == 0
