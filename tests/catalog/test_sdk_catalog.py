"""The official SDK's catalog calls (sdk.catalog.*, autocomplete, release calendar, images) work unchanged."""

from __future__ import annotations

import pytest

from store.models import CardImage

cardsightai = pytest.importorskip("cardsightai")


def _ok(res, cls_name):
    assert type(res).__name__ == cls_name, res
    return res


async def test_sdk_catalog_calls(sdk, cat, sessions):
    from uuid import UUID

    from cardsightai.generated.card_sight_ai_api_client.models import GetCardImageFormat

    cards = _ok(await sdk.catalog.get_cards(name="ohtani"), "PaginatedCardsResponse")
    assert cards.total_count == 2
    cid = UUID(str(cat.cards["ohtani"].id))
    card = _ok(await sdk.catalog.get_card(id=cid), "DetailedCardResponse")
    assert card.parallel_count == 4
    _ok(await sdk.catalog.get_random_cards(count=5, include_parallels=True), "RandomCardsResponse")
    _ok(await sdk.catalog.get_releases(), "PaginatedReleasesResponse")
    rel = _ok(await sdk.catalog.get_release(id=UUID(str(cat.releases["chrome"].id))), "DetailedReleaseResponse")
    assert len(rel.sets) == 2
    _ok(await sdk.catalog.get_release_cards(id=rel.id), "PaginatedCardsResponse")
    _ok(await sdk.catalog.get_random_releases(count=2), "RandomReleasesResponse")
    _ok(await sdk.catalog.get_sets(), "PaginatedSetsResponse")
    st = _ok(await sdk.catalog.get_set(id=UUID(str(cat.sets["chrome"].id))), "DetailedSetResponse")
    assert st.parallel_count == 4
    _ok(await sdk.catalog.get_set_cards(id=st.id), "PaginatedCardsResponse")
    _ok(await sdk.catalog.get_random_sets(count=2), "RandomSetsResponse")
    _ok(await sdk.catalog.get_segments(), "PaginatedSegmentsResponse")
    _ok(await sdk.catalog.get_manufacturers(), "PaginatedManufacturersResponse")
    pars = _ok(await sdk.catalog.get_parallels(), "PaginatedParallelsResponse")
    _ok(await sdk.catalog.get_parallel(id=pars.parallels[0].id), "DetailedParallelResponse")
    attrs = _ok(await sdk.catalog.get_attributes(), "PaginatedAttributesResponse")
    _ok(await sdk.catalog.get_attribute_by_id(id=attrs.attributes[0].id), "DetailedAttributeResponse")
    _ok(await sdk.catalog.get_fields(), "PaginatedFieldsResponse")
    _ok(await sdk.catalog.search_catalog(q="refractor"), "CatalogSearchResponse")
    _ok(await sdk.catalog.get_statistics(), "CatalogStatisticsResponse")
    for kind in ("cards", "sets", "releases", "manufacturers", "years", "segments"):
        res = _ok(await getattr(sdk.autocomplete, f"autocomplete_{kind}")(q="o"), "AutocompleteResponse")
        assert isinstance(res.suggestions, list)
    _ok(await sdk.release_calendar.get_release_calendar(), "PaginatedReleaseCalendarResponse")
    async with sessions() as s, s.begin():
        s.add(CardImage(card_id=cat.cards["ohtani"].id, side="front", content_type="image/jpeg", data=b"\xff\xd8x"))
    img = _ok(await sdk.images.get_card_image(id=cid, format_=GetCardImageFormat.JSON), "ImageJsonResponse")
    assert img.data.startswith("data:image/jpeg;base64,")
