"""The official SDK's population, pricing, marketplace and feedback calls work against Cardwise."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

import pytest

from store.importers import population as pop_imp
from store.models import IdentificationRequest, MarketplaceListing, PriceRecord
from store.reference import grades as ref
from tests.factories import seed_catalog

cardsightai = pytest.importorskip("cardsightai")
from cardsightai.generated.card_sight_ai_api_client import models as m  # noqa: E402

PSA = ref.company_id("PSA")
PSA10 = ref.grade_id("PSA", "Card", "10")


@pytest.fixture
async def data(sessions, api_key):
    cat = await seed_catalog(sessions)
    oh = cat.cards["ohtani"]
    async with sessions() as s, s.begin():
        await pop_imp.upsert_count(s, oh.id, None, PSA10, 5, 1, synthetic=False)
        await pop_imp.upsert_count(s, oh.id, cat.parallels["gold"].id, PSA10, 1, 0, synthetic=False)
        await pop_imp.upsert_link(s, PSA, cat.sets["chrome"].id, "2024 Topps Chrome", True)
        for i, (grade, par) in enumerate([(None, None), (PSA10, None), (PSA10, cat.parallels["gold"].id)]):
            s.add(PriceRecord(id=uuid.uuid4(), card_id=oh.id, parallel_id=par, grade_id=grade,
                              title=f"2024 Topps Chrome Shohei Ohtani #1 sale {i}", price_cents=1000 * (i + 1),
                              date=date.today() - timedelta(days=i + 1), listing_type="auction", source="eBay"))
            s.add(MarketplaceListing(id=uuid.uuid4(), card_id=oh.id, parallel_id=par, grade_id=grade,
                                     title=f"2024 Topps Chrome Shohei Ohtani #1 listing {i}", source="eBay",
                                     price_cents=1500 * (i + 1), listing_type="fixed"))
        s.add(IdentificationRequest(id=uuid.uuid4(), api_key_id=api_key[0]))
        await s.flush()
        cat.request_id = (await s.scalars(__import__("sqlalchemy").select(IdentificationRequest.id))).first()
    return cat


async def test_sdk_population(sdk, data):
    card = await sdk.population.get_card_population(card_id=str(data.cards["ohtani"].id))
    assert isinstance(card, m.CardPopulationResponse), card
    assert card.total_population == 7 and card.base.total_population == 6 and len(card.parallels) == 1
    s = await sdk.population.get_set_population(set_id=str(data.sets["chrome"].id))
    assert isinstance(s, m.SetPopulationResponse), s
    assert s.grading_companies[0].total_population == 7
    r = await sdk.population.get_release_population(release_id=str(data.releases["chrome"].id))
    assert isinstance(r, m.ReleasePopulationResponse), r
    assert r.grading_companies[0].sets[0].set_name == "Base"


async def test_sdk_pricing(sdk, data):
    cid = str(data.cards["ohtani"].id)
    p = await sdk.pricing.get_card_pricing(card_id=cid, period="1y")
    assert isinstance(p, m.PricingResponse), p
    # the base card's records; the parallel's sale is named in an info message (the SDK reads it)
    assert p.raw.count == 1 and p.graded[0].grades[0].count == 1 and p.meta.total_records == 2
    assert "Gold Refractor (1 records)" in p.messages[0].message
    bulk = await sdk.pricing.get_bulk_pricing(body=m.BulkPricingRequestInput(card_ids=[data.cards["ohtani"].id,
                                                                                      uuid.uuid4()]))
    assert isinstance(bulk, m.BulkPricingResponse), bulk
    assert bulk.meta.successful == 1 and bulk.meta.failed == 1
    found = await sdk.pricing.search_pricing_by_title(q="ohtani sale")
    assert isinstance(found, m.PricingSearchResponse), found
    assert len(found.results) == 3
    ts = await sdk.pricing.get_card_pricing_timeseries(card_id=cid, interval=m.GetCardPricingTimeseriesInterval.DAILY)
    assert isinstance(ts, m.TimeseriesResponse), ts
    assert ts.raw.candles and ts.query.periods == 90


async def test_sdk_marketplace(sdk, data):
    mk = await sdk.marketplace.get_card_marketplace(card_id=str(data.cards["ohtani"].id))
    assert isinstance(mk, m.MarketplaceResponse), mk
    assert mk.meta.total_records == 3 and mk.raw.records[-1].listing_type == "search"
    found = await sdk.marketplace.search_marketplace_by_title(q="ohtani listing")
    assert isinstance(found, m.MarketplaceSearchResponse), found
    assert len(found.results) == 3


async def test_sdk_feedback(sdk, data):
    sent = await sdk.feedback.submit_card_feedback(id=data.cards["ohtani"].id,
                                                   body=m.FeedbackInputInput(message="Wrong team"))
    assert isinstance(sent, m.FeedbackSubmitResponse), sent
    assert sent.success and sent.data.entity_type == "card"
    general = await sdk.feedback.submit_general_feedback(body=m.FeedbackInputInput(message="Nice"))
    assert isinstance(general, m.FeedbackSubmitResponse), general
    ident = await sdk.feedback.submit_identify_feedback(id=data.request_id, body=m.FeedbackInputInput(message="Miss"))
    assert isinstance(ident, m.FeedbackSubmitResponse), ident
    for call, ident_ in ((sdk.feedback.submit_set_feedback, data.sets["chrome"].id),
                         (sdk.feedback.submit_release_feedback, data.releases["chrome"].id),
                         (sdk.feedback.submit_manufacturer_feedback, data.manufacturers["topps"].id),
                         (sdk.feedback.submit_segment_feedback, data.segments["baseball"].id)):
        res = await call(id=ident_, body=m.FeedbackInputInput(message="Check this"))
        assert isinstance(res, m.FeedbackSubmitResponse), res
    got = await sdk.feedback.get_feedback(id=uuid.UUID(sent.data.unique_id) if isinstance(sent.data.unique_id, str)
                                          else sent.data.unique_id)
    assert isinstance(got, m.FeedbackSubmitResponse), got
    assert got.data.message == "Wrong team"
    dup = await sdk.feedback.submit_card_feedback(id=data.cards["ohtani"].id,
                                                  body=m.FeedbackInputInput(message="Wrong team"))
    assert isinstance(dup, m.ErrorResponse)
