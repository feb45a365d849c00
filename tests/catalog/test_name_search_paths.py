"""A name-only search (SQLite's fast path: FTS count, then an index walk or a sort of the matches)
returns exactly the page and total the general query returns, for common and rare terms alike."""

from __future__ import annotations

import random
import uuid

import pytest

from store.models import Card
from store.queries import card_name_search
from store.queries import catalog_cards as q
from store.queries.catalog_filters import CardFilter

SYL = ["ka", "ro", "mi", "tan", "del", "ster", "an", "ith", "ox"]


@pytest.fixture
async def many(sessions, cat):
    rnd = random.Random(7)
    chrome = cat.sets["chrome"]
    async with sessions() as s, s.begin():
        for i in range(1500):
            name = " ".join("".join(rnd.choice(SYL) for _ in range(rnd.randint(2, 3))).capitalize() for _ in range(2))
            number = str(rnd.randint(1, 40)) if i % 7 else None
            s.add(Card(id=uuid.uuid4(), set_id=chrome.id, release_id=chrome.release_id, name=name,
                       number=number or f"X-{i}", number_sort=int(number) if number else None))
    return cat


async def _both(sessions, term: str, skip: int, take: int):
    async with sessions() as s:
        fast = await q.search_cards(session=s, f=CardFilter(name=term), sort=None, order="asc", skip=skip, take=take)
        # a filter every card passes sends the same search down the general query
        general = await q.search_cards(session=s, f=CardFilter(name=term, min_year="0000"), sort=None, order="asc",
                                       skip=skip, take=take)
    return ([r.id for r in fast[0]], fast[1]), ([r.id for r in general[0]], general[1])


@pytest.mark.parametrize("walk", [False, True], ids=["sort-matches", "walk-index"])
async def test_fast_name_search_pages_equal_the_general_query(sessions, many, monkeypatch, walk):
    # force one strategy or the other whatever the counts
    monkeypatch.setattr(card_name_search, "MIN_WALK_MATCHES", 0 if walk else 10**9)
    monkeypatch.setattr(card_name_search, "WALK_FACTOR", 10**9)
    seen_total = set()
    for term in ("ster", "Ster", "kaan", "oxith", "tanro", "zzzz", "ka ro"):
        for skip, take in ((0, 20), (20, 20), (5, 1), (100, 100)):
            fast, general = await _both(sessions, term, skip, take)
            assert fast == general, (term, skip, take)
            seen_total.add(fast[1])
    assert max(seen_total) > 200 and 0 in seen_total  # common, rare and absent terms were all exercised


async def test_the_fast_path_answers_only_what_it_answers_exactly():
    assert card_name_search.name_only_term(CardFilter(name="ster"), None, "asc", "sqlite") == "ster"
    for f, sort, order, dialect in ((CardFilter(name="st"), None, "asc", "sqlite"),
                                    (CardFilter(name="ster"), None, "desc", "sqlite"),
                                    (CardFilter(name="ster"), "year", "asc", "sqlite"),
                                    (CardFilter(name="pokémon"), None, "asc", "sqlite"),
                                    (CardFilter(name="ster", year="2024"), None, "asc", "sqlite"),
                                    (CardFilter(name="ster"), None, "asc", "postgresql")):
        assert card_name_search.name_only_term(f, sort, order, dialect) is None


async def test_a_name_search_over_http_counts_and_pages_every_match(client, auth, many):
    # sort=name keeps the substring search in name order (without sort, the search index ranks words)
    pages, total = [], None
    for skip in range(0, 2000, 100):
        body = await (await client.get("/v1/catalog/cards", params={"name": "ster", "take": "100", "sort": "name",
                                                                    "skip": str(skip)}, headers=auth)).json()
        total = body["total_count"]
        pages += body["cards"]
        if skip + 100 >= total:
            break
    assert len(pages) == total > 100 and len({c["id"] for c in pages}) == total
    assert all("ster" in c["name"].lower() for c in pages)
    keys = [c["name"].lower() for c in pages]
    assert keys == sorted(keys)
