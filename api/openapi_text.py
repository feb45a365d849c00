"""The words of the OpenAPI document that no model carries: tags and common parameter descriptions.

Tags are the published API's (Title Case, as its SDKs group operations), chosen by path prefix;
a parameter a model leaves undescribed takes the description of its name here.
"""

from __future__ import annotations

# (tag, description, path prefixes); the longest matching prefix wins
TAGS: list[tuple[str, str, tuple[str, ...]]] = [
    ("Catalog", "Browse and search the card catalog", ("/v1/catalog",)),
    ("Card Identification", "Identify cards from photos", ("/v1/identify",)),
    ("Card Detection", "Detect trading cards in images", ("/v1/detect",)),
    ("Card Magic", "Crop, straighten and clean up card photos", ("/v1/cardmagic",)),
    ("Images", "Card images from the catalog", ("/v1/images",)),
    ("Collection Management", "Collections, their cards, binders, analytics and set progress", ("/v1/collection",)),
    ("Collection Card Images", "Photos of the cards in a collection", ("/v1/collection/{collectionId}/cards/{cardId}/image",)),
    ("Collectors", "The people collections belong to", ("/v1/collectors",)),
    ("Lists", "Want and trade lists", ("/v1/lists",)),
    ("Pricing", "Recorded sales, price summaries and time series", ("/v1/pricing",)),
    ("Marketplace", "Active marketplace listings", ("/v1/marketplace",)),
    ("Grades", "Grading companies, grading types and grades", ("/v1/grades",)),
    ("Population", "Graded population reports for cards, sets and releases", ("/v1/population",)),
    ("Release Calendar", "Releases by release date", ("/v1/release-calendar",)),
    ("Autocomplete", "Suggestions for catalog fields as a user types", ("/v1/autocomplete",)),
    ("Feedback", "Corrections and suggestions about catalog entries and identifications", ("/v1/feedback",)),
    ("Subscription", "This API key's usage", ("/v1/subscription",)),
    ("AI", "Questions in plain language, answered with the catalog, market and collection tools", ("/v1/ai",)),
    ("Health", "Service health, key check and metrics", ("/health", "/metrics")),
]


def tag_for(path: str) -> str:
    best, length = "", -1
    for name, _, prefixes in TAGS:
        for prefix in prefixes:
            if (path == prefix or path.startswith(prefix.rstrip("/") + "/")) and len(prefix) > length:
                best, length = name, len(prefix)
    if not best:
        raise LookupError(f"no OpenAPI tag for {path}; add its prefix to api/openapi_text.TAGS")
    return best


# descriptions of query and path parameters by name, where the input model has none
PARAMETERS: dict[str, str] = {
    "id": "The entity's id (UUID)",
    "set_id": "The set's id (UUID)",
    "card_id": "The catalog card's id (UUID)",
    "setId": "Only entries of this set (id)",
    "releaseId": "Only entries of this release (id)",
    "segmentId": "Only entries of this segment (id)",
    "manufacturerId": "Only entries of this manufacturer (id)",
    "attributeId": "Only cards with this attribute (id)",
    "parallelId": "Only entries of this parallel (id)",
    "gradeId": "Only entries with this grade (id)",
    "year": "Only entries of this year (e.g. 2024)",
    "min_year": "Earliest release year, inclusive",
    "max_year": "Latest release year, inclusive",
    "name": "Only entries whose name contains this text (case-insensitive)",
    "shortName": "Only entries whose short name contains this text (case-insensitive)",
    "releaseName": "Only entries whose release name contains this text (case-insensitive)",
    "sort": "Field to sort by",
    "sortBy": "Field to sort by",
    "order": "Sort direction: asc or desc",
    "is_identifiable": '"true": only sets photo identification matches; "false": only the others',
    "listing_type": "Only sales or listings of this kind (auction, fixed price ...)",
    "format": '"raw": the image bytes; "json": a base64 data URI in JSON',
    "mode": '"process": straightened, padded and levelled; "crop": only cut out and straightened',
    "paddingPercent": "Margin around the card, in percent of its size (0-50)",
    "paddingFill": '"background" (the photo around the card) or a colour such as #ffffff',
    "autoLevels": '"true": stretch the levels (contrast) of the result',
    "outputFormat": "Image format of the result: jpeg or png",
    "longEdge": "Length in pixels of the result's long edge (default: as found)",
    "corners": '"true": a zip with each card and the corners where it was found',
}
