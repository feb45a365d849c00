"""The catalog search index on a small catalog made here: folding, typos, order, seasons, filters, ranking."""

from __future__ import annotations

import uuid

import pytest

from store.models import Card, CardSet, Manufacturer, Parallel, Release, Segment
from store.queries import catalog_version
from store.search import CardFilters, index_root
from store.search.fold import fold
from store.search.index import typed_apart
from tools._search import catalog_index


async def _catalog(sessions) -> dict[str, uuid.UUID]:
    ids: dict[str, uuid.UUID] = {}
    rows = []

    def add(key, row):
        row.id = uuid.uuid4()
        ids[key] = row.id
        rows.append(row)
        return row.id

    base = add("seg_base", Segment(name="Baseball"))
    hoops = add("seg_hoops", Segment(name="Basketball"))
    poke = add("seg_poke", Segment(name="Pokemon"))
    ud = add("ud", Manufacturer(name="Upper Deck"))
    fleer = add("fleer", Manufacturer(name="Fleer"))
    add("ud89", Release(segment_id=base, manufacturer_id=ud, name="1989 Upper Deck", year="1989"))
    add("top18", Release(segment_id=base, name="2018 Topps Update", year="2018"))
    add("fl86", Release(segment_id=hoops, manufacturer_id=fleer, name="1986-87 Fleer", year="1986-87"))
    add("bs", Release(segment_id=poke, name="Base Set", year="1999"))
    add("ev", Release(segment_id=poke, name="Evolving Skies", year="2021"))
    for key, rel, name in (("s_ud89", "ud89", "Base"), ("s_top18", "top18", "Base"), ("s_fl86", "fl86", "Base"),
                           ("s_bs", "bs", "Base Set"), ("s_ev", "ev", "Evolving Skies")):
        add(key, CardSet(release_id=ids[rel], name=name))

    def card(key, set_key, name, number, **kw):
        s = next(r for r in rows if getattr(r, "id", None) == ids[set_key])
        add(key, Card(set_id=s.id, release_id=s.release_id, name=name, number=number, **kw))

    card("griffey", "s_ud89", "Ken Griffey Jr.", "1")
    card("griffey_sr", "s_ud89", "Ken Griffey", "2")
    card("acuna", "s_top18", "Ronald Acuña Jr.", "US250")
    card("jordan", "s_fl86", "Michael Jordan", "57")
    card("charizard", "s_bs", "Charizard", "4")
    card("charizard_ev", "s_ev", "Charizard", "11")
    card("charizard_ex", "s_ev", "Charizard ex", "12")
    card("charmander", "s_bs", "Charmander", "46")
    card("farfetchd", "s_bs", "Farfetch'd", "27")
    card("acuna_var", "s_top18", "Ronald Acuña Jr.", "US250", variation_of=ids["acuna"])
    add("gold", Parallel(set_id=ids["s_top18"], name="Gold", numbered_to=2018))
    async with sessions() as s, s.begin():
        for cls in (Segment, Manufacturer, Release, CardSet, Card, Parallel):
            s.add_all([r for r in rows if isinstance(r, cls) and not getattr(r, "variation_of", None)])
            await s.flush()
        s.add_all([r for r in rows if getattr(r, "variation_of", None)])
    return ids


@pytest.fixture
async def catalog(sessions):
    return await _catalog(sessions)


def _ids(hits, ids):
    names = {v: k for k, v in ids.items()}
    return [names[uuid.UUID(h.id)] for h in hits]


async def test_names_fold_diacritics_punctuation_and_order(ctx, catalog):
    index = await catalog_index(ctx)
    hit = index.names("Ronald Acuna Jr")[0]
    assert (hit.kind, hit.name, hit.exact, hit.distance, hit.count) == ("name", "Ronald Acuña Jr.", True, 0, 2)
    assert index.names("griffey jr ken", kinds=["name"])[0].name == "Ken Griffey Jr."
    assert index.names("Griffey, Jr.")[0].name == "Ken Griffey Jr."
    assert index.names("farfetchd")[0].name == "Farfetch'd"
    exact = index.names("Ken Griffey", kinds=["name"])
    assert [h.name for h in exact[:2]] == ["Ken Griffey", "Ken Griffey Jr."] and exact[0].exact


async def test_names_tolerate_typos_by_length_and_complete_prefixes(ctx, catalog):
    index = await catalog_index(ctx)
    assert index.names("charzard")[0].name == "Charizard"  # 1 edit, 8 letters
    hit = index.names("chrizzard")[0]  # 2 edits, 9 letters
    assert hit.name == "Charizard" and hit.distance == 2 and not hit.exact
    assert index.names("jordn")[0].name == "Michael Jordan"
    assert index.names("jrdn") == []  # 2 edits are too many for 4 letters
    assert index.names("griffey", fuzzy=False)[0].name.startswith("Ken Griffey")
    assert index.names("grifey", fuzzy=False) == []
    assert index.names("charm", prefix=True)[0].name == "Charmander"
    assert index.names("charm") == []
    # autocomplete's light path: the same spellings in the same order, nothing else read
    for typed in ("charm", "ken gri", "griffey j", "chrizz", "mich"):
        assert index.completions(typed, kinds=["name"]) == [h.name for h in index.names(typed, kinds=["name"],
                                                                                         prefix=True)]
    assert index.completions("charm")[0] == "Charmander" and index.completions("zzzzqx") == []


async def test_a_letter_typed_after_initials_begins_the_next_word(ctx, catalog, sessions):
    async with sessions() as s, s.begin():
        s.add(Card(set_id=catalog["s_ud89"], release_id=catalog["ud89"], name="J.B. Thurmond", number="3"))
    index = await catalog_index(ctx)
    assert fold("J.B. T") == "jbt" and typed_apart("J.B. T") == ["jb", "t"]  # whole, the initials take the letter
    assert index.completions("J.B. T", kinds=["name"]) == ["J.B. Thurmond"]  # was [] (then SQL's substring match)
    assert index.completions("jb thu", kinds=["name"]) == ["J.B. Thurmond"]


async def test_names_of_releases_sets_parallels_and_makers(ctx, catalog):
    index = await catalog_index(ctx)
    rel = index.names("upper deck 1989", kinds=["release"])[0]
    assert (rel.name, rel.year, rel.segment, rel.count, rel.ids) == ("1989 Upper Deck", "1989", "Baseball", 2,
                                                                      (str(catalog["ud89"]),))
    assert index.names("evolvng skies", kinds=["set"])[0].name == "Evolving Skies"
    assert index.names("gold", kinds=["parallel"])[0].count == 2  # a full-set parallel: both cards of its set
    maker = index.names("upper", kinds=["manufacturer"], prefix=True)[0]
    assert (maker.name, maker.ids) == ("Upper Deck", (str(catalog["ud"]),))


async def test_cards_rank_exact_then_prefix_then_typos_newer_first(ctx, catalog):
    index = await catalog_index(ctx)
    hits, total = index.cards("charizard")
    assert total == 3
    # exact names first, the newer of the two before the older, then the longer name
    assert _ids(hits, catalog) == ["charizard_ev", "charizard", "charizard_ex"]
    hits, total = index.cards("char", prefix=True)
    assert total == 4 and set(_ids(hits, catalog)) == {"charizard", "charizard_ev", "charizard_ex", "charmander"}
    hits, _ = index.cards("acuna")
    assert _ids(hits, catalog) == ["acuna", "acuna_var"]  # the base card before its variation


async def test_cards_any_order_seasons_and_filters(ctx, catalog):
    index = await catalog_index(ctx)
    hits, total = index.cards("griffey 1989 upper deck")
    assert total == 2 and set(_ids(hits, catalog)) == {"griffey", "griffey_sr"}  # every word, in any order
    hits, total = index.cards("jordan 1986")
    assert _ids(hits, catalog) == ["jordan"]
    hits, total = index.cards("jordan 87 fleer")
    assert total == 1
    assert index.cards("", filters=CardFilters(year="1986"))[1] == 1  # the 1986-87 season
    assert index.cards("", filters=CardFilters(year="1987"))[1] == 0
    assert index.cards("", filters=CardFilters(year="1986-87"))[1] == 1
    assert index.cards("", filters=CardFilters(min_year=1999, max_year=2018))[1] == 5
    assert _ids(index.cards("", filters=CardFilters(number="#057"))[0], catalog) == ["jordan"]
    assert index.cards("charizard", filters=CardFilters(segment="pokemon"))[1] == 3
    assert index.cards("charizard", filters=CardFilters(segment="Baseball"))[1] == 0
    assert index.cards("", filters=CardFilters(segment=str(catalog["seg_hoops"])))[1] == 1
    assert index.cards("", filters=CardFilters(manufacturer="upper deck"))[1] == 2
    assert index.cards("", filters=CardFilters(release_id=str(catalog["top18"]), base_only=True))[1] == 1
    assert index.cards("charizard", filters=CardFilters(set_id=str(catalog["s_bs"])))[1] == 1
    page, total = index.cards("charizard", limit=1, offset=2)
    assert total == 3 and _ids(page, catalog) == ["charizard_ex"]


async def test_cards_in_read_text_despite_other_words_and_misread_letters(ctx, catalog):
    index = await catalog_index(ctx)
    # the name among a card's other printed words, misread letters and all
    hits = index.cards_in_text("MICHAEL JORDAN GUARD CHICAGO BULLS")
    assert _ids(hits, catalog)[:1] == ["jordan"] and hits[0].score > 100  # the whole name is a run of the text
    assert _ids(index.cards_in_text("KEN GRIFFFY JR. OUTFIELD"), catalog)[0] == "griffey"
    hits = index.cards_in_text("Charizard 120 HP Stage 2", number="4")
    assert _ids(hits, catalog) == ["charizard"]  # the number picks one of the three Charizards
    assert _ids(index.cards_in_text("Charizard", year="2021"), catalog) == ["charizard_ev", "charizard_ex"]
    assert index.cards_in_text("Charizard", segment="baseball") == []
    assert index.cards_in_text("HOLOFOIL TRAINER ENERGY") == []  # no name in it
    # half of a two-word name is enough; one word of a three-word name is not
    assert "griffey_sr" in _ids(index.cards_in_text("GRIFFEY"), catalog)
    assert index.cards_in_text("RONALD", min_share=0.5) == []


async def test_remembered_word_queries_the_ord_column_and_weights_give_the_same_answers(ctx, catalog, monkeypatch):
    """The index keeps each word's built query, reads the cards' and names' ``ord`` columns once, (large indexes)
    weighs a page whose matches all fit in its window itself, drops the other kinds from card names' completions
    itself and leaves out a name word's text term where only names hold it: every page, hit, score and name is what
    building each query anew, reading the ``ord`` fast field per page, tantivy's ``weight_by_field``, the query's
    own kind clause and the text terms give."""
    from store.search import index as index_module
    from store.search.index import CatalogIndex

    built = await catalog_index(ctx)
    monkeypatch.setattr(index_module, "WEIGH_HERE_FROM", 0)  # as a large index does
    index = CatalogIndex(built.path, version=built.version)
    plain = CatalogIndex(built.path, version=built.version)
    plain._ord_of = None  # the fast field, per page
    plain._word = plain._new_word  # type: ignore[method-assign]  # each word's query built anew
    plain._multipliers = {}  # tantivy weighs every search
    plain._names_ord = plain._name_docs = None  # the names' ord per hit; the kind in the query
    # every word of the names' text taken as one that may stand around a name: each name query keeps its text terms
    plain._around = frozenset(w for w, _ in plain._names.terms_with_prefix("text", ""))
    assert index._ord_of is not None and plain._ord_of is None
    assert index._names_ord is not None and index._name_docs is not None
    assert len(index._multipliers) == 3
    names = ["Ken Griffey Jr.", "Ronald Acuña Jr.", "Michael Jordan", "Charizard ex", "Farfetch'd", "Base Set"]
    phrases = {p for n in names for w in [fold(n)] for p in (
        w, *w.split(), *(w[:i] for i in range(1, len(w) + 1)), " ".join(reversed(w.split())),
        w.replace("i", "y"), w[1:], w[:-2] + w[-1:])} | {"1989", "griffey 1989", "charizard base", "jr 57",
                                                  "charizard pokemon", "pokemon char", "griffey baseball"}
    filters = [CardFilters(), CardFilters(year="1989"), CardFilters(segment="pokemon"), CardFilters(number="4")]
    for slack in (index_module.NAME_SLACK, 0):  # the second time from the remembered queries; no hits to spare
        monkeypatch.setattr(index_module, "NAME_SLACK", slack)
        for phrase in sorted(phrases):
            for f in filters:
                for prefix, in_text in ((True, False), (False, True)):
                    got = index.card_page(phrase, filters=f, limit=3, offset=1, prefix=prefix, in_text=in_text)
                    assert got == plain.card_page(phrase, filters=f, limit=3, offset=1, prefix=prefix, in_text=in_text)
            assert index.cards(phrase) == plain.cards(phrase)
            assert index.names(phrase, prefix=True) == plain.names(phrase, prefix=True)
            assert index.entities("set", phrase, prefix=True) == plain.entities("set", phrase, prefix=True)
            assert index.completions(phrase) == plain.completions(phrase)
            for limit in (1, 3, 10):
                assert index.completions(phrase, kinds=["name"], limit=limit) == plain.completions(
                    phrase, kinds=["name"], limit=limit)
            assert index.cards_in_text(phrase) == plain.cards_in_text(phrase)


def test_the_ord_column_is_read_whole_in_one_segment_only():
    from store.search.index import _ord_table

    class Searcher:
        def __init__(self, ords, segments=1):
            self.ords, self.num_segments, self.num_docs = ords, segments, len(ords)

        def fast_field_values(self, field, addresses):
            assert field == "ord"
            return [self.ords[a.doc] for a in addresses]

    assert _ord_table(Searcher([0, 1, 2])) == range(3)  # each ord its document's number: nothing held
    assert _ord_table(Searcher([7, 8, 9])) == range(7, 10)  # the names: their number after the cards'
    assert list(_ord_table(Searcher([7, 9, 8]))) == [7, 9, 8]
    assert list(_ord_table(Searcher([2, 0, 1]))) == [2, 0, 1]
    assert _ord_table(Searcher([0, 1], segments=2)) is None and _ord_table(Searcher([])) is None


async def test_a_catalog_change_is_seen_and_the_index_follows_its_database(ctx, catalog, sessions):
    index = await catalog_index(ctx)
    assert index.names("pikachu") == []
    async with sessions() as s, s.begin():
        s.add(Card(id=uuid.uuid4(), set_id=catalog["s_bs"], release_id=catalog["bs"], name="Pikachu", number="58"))
        await catalog_version.bump(session=s)
    ctx.services["catalog_index.state"].checked = 0.0  # as after CARDWISE_CATALOG_VERSION_CHECK_S
    fresh = await catalog_index(ctx)
    assert fresh is not index and fresh.names("pikachu")[0].count == 1
    root = index_root(ctx.settings.database_url, ctx.settings.search_dir)
    assert fresh.path.parent == root and str(root).startswith(ctx.settings.search_dir)


async def test_a_large_catalog_change_is_built_behind_the_open_index(ctx, catalog, sessions, monkeypatch, caplog):
    import logging

    import tools._search as search

    caplog.set_level(logging.WARNING, logger="cardwise.search")

    monkeypatch.setattr(search, "BUILD_BEHIND_FROM", 1)  # this catalog counts as large
    index = await catalog_index(ctx)
    async with sessions() as s, s.begin():
        s.add(Card(id=uuid.uuid4(), set_id=catalog["s_bs"], release_id=catalog["bs"], name="Pikachu", number="58"))
        await catalog_version.bump(session=s)
    state = ctx.services["catalog_index.state"]
    state.checked = 0.0
    assert await catalog_index(ctx) is index  # answered at once, by the index open, while the new one is built
    before = await search.served_fingerprint(ctx)  # what a cached answer is held under meanwhile: the open index's
    assert before == index.version != await search.catalog_fingerprint(ctx)
    await state.task
    assert not caplog.records  # built by the child process (python -m store.search), not here after it failed
    fresh = await catalog_index(ctx)
    assert fresh is not index and fresh.names("pikachu")[0].count == 1
    assert await search.served_fingerprint(ctx) == await search.catalog_fingerprint(ctx) != before


async def test_a_card_hit_reads_its_fields_back_from_the_pages(ctx, sessions, catalog):
    from store.models import CardPrice, FieldValue, MetadataField, ParallelCard

    red = uuid.uuid4()
    async with sessions() as s, s.begin():
        s.add(Parallel(id=red, set_id=catalog["s_ud89"], name="Red", is_partial=True))
        field = MetadataField(key="TEAM", name="Team")
        s.add(field)
        await s.flush()
        s.add_all([ParallelCard(parallel_id=red, card_id=catalog["griffey"]),
                   FieldValue(field_id=field.id, entity_type="card", entity_id=catalog["griffey"], value="Mariners"),
                   CardPrice(card_id=catalog["griffey"], price_key="raw", value_cents=1250),
                   CardPrice(card_id=catalog["griffey"], price_key="psa-10", value_cents=99000)])
        griffey = await s.get(Card, catalog["griffey"])
        griffey.numbered_to = 99
        await catalog_version.bump(session=s)
    index = await catalog_index(ctx)
    hit = next(h for h in index.cards_named(["ken griffey jr"]) if h.id == str(catalog["griffey"]))
    data = hit.data()
    assert (data["name"], data["number"], data["set_name"], data["release_name"], data["release_year"]) == (
        "Ken Griffey Jr.", "1", "Base", "1989 Upper Deck", "1989")
    assert data["prices"] == {"raw": 1250, "psa-10": 99000} and data["fields"] == [["TEAM", "Mariners"]]
    assert (data["partials"], data["numbered_to"]) == ([str(red)], 99)
    other = next(h for h in index.cards("charizard")[0])
    assert "prices" not in other.data() and "partials" not in other.data()
