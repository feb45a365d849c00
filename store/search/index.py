"""``CatalogIndex``: typo-tolerant, any-order name and card search over one built index folder."""

from __future__ import annotations

import math
import struct
import uuid
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import tantivy

from store.search.fold import edit_distance, fold, max_edits, number_key, season
from store.search.pages import Pages
from store.search.schema import ENTITIES, NAME_KINDS, NAMES, START_LETTERS, build_schema

Q = tantivy.Query
MUST, SHOULD = tantivy.Occur.Must, tantivy.Occur.Should
# what one query word scores by how it matched; the name's whole-phrase bonuses dwarf them
WORD_SCORES = {"name": 10.0, "name_prefix": 6.0, "name_fuzzy": 3.5, "text": 2.0, "text_prefix": 1.5, "text_fuzzy": 1.0}
EXACT, SAME_WORDS, CONTEXT = 100.0, 80.0, 3.0
MAX_TEXT_WORDS = 24  # words of a card's read text looked at (``cards_in_text``)
KNOWN_WORDS = 1 << 16  # (field, word) answers of ``_known`` remembered per index (typed words repeat)
WORD_QUERIES = 1 << 15  # built word queries remembered per index (names differ, their words recur)
# from this many documents, a search whose matches all fit on the page is weighted here (``_weighed``):
# tantivy's ``weight_by_field`` reads the weight column's block index on every search (55 us at 1M cards)
WEIGH_HERE_FROM = 1 << 18
WEIGH_HERE_UP_TO = 200  # matches weighted here at most (skip + take); more go to tantivy
# completions weighed here are read from the best this many unweighted matches: when no more match, one search
# (at 1M cards a third of the autocomplete prefixes match 11-100 names: they were searched twice, ~240 us); card
# pages read their own matches only (half the cold searches are one word, matching hundreds of cards at 1M: their
# window would be read in vain)
WEIGH_WINDOW = 100
NAME_SLACK = 10  # completions read this many more hits than asked, for those of other kinds they drop
_F32 = struct.Struct("f")


@dataclass(frozen=True)
class NameHit:
    kind: str
    name: str
    score: float
    exact: bool
    distance: int
    count: int
    ids: tuple[str, ...]
    year: str | None = None
    segment: str | None = None


@dataclass(frozen=True)
class CardHit:
    id: str
    score: float
    name: str = ""  # the catalog's spelling of the card's (or entity's) name
    # cards: where their page fields are (read by ``data``, only when asked)
    pages: Pages | None = field(default=None, compare=False, repr=False)
    ord: int = field(default=-1, compare=False, repr=False)

    def data(self) -> dict | None:
        """A card's id, name, number, description, set, release and year, attribute codes, variation_of,
        metadata fields (``[key, value]`` pairs), base prices (``{key: cents}``: raw, grades 9 and 10),
        the partial parallels listing it, its print run and whether a real release stands in for it."""
        return self.pages.card(self.ord) if self.pages is not None else None


@dataclass(frozen=True)
class CardFilters:
    year: str | None = None
    min_year: int | None = None
    max_year: int | None = None
    number: str | None = None
    segment: str | None = None
    manufacturer: str | None = None
    release_id: str | None = None
    set_id: str | None = None
    base_only: bool = False


_NO_FILTERS = CardFilters()


def _entity_key(value: str) -> str:
    try:
        return str(uuid.UUID(value.strip()))
    except ValueError:
        return fold(value)


class CatalogIndex:
    """A read-only view of one index folder (built by ``store.search.build``)."""

    def __init__(self, path: Path, *, version: str = "") -> None:
        self.path = Path(path)
        self.version = version
        self.schema = build_schema()
        self._index = tantivy.Index.open(str(self.path))
        self._searcher = self._index.searcher()
        # the distinct names apart: autocomplete walks their postings, not the cards' (same fields)
        self._names = tantivy.Index.open(str(self.path / NAMES)).searcher()
        self._entities = tantivy.Index.open(str(self.path / ENTITIES)).searcher()  # releases, sets, parallels
        self._all = (self._searcher, self._names, self._entities)
        self._pages = Pages(self.path)
        self._known_words: dict[tuple[str, str, bool], bool] = {}
        self._words: dict[tuple, tuple[tantivy.Query, bool]] = {}
        self._around: frozenset[str] | None = None
        self._ord_of = _ord_table(self._searcher)
        self._names_ord = _ord_table(self._names)  # a completion's label without a call into the bindings
        self._name_docs = _kind_table(self._names, self.schema, "name")
        # each large one-segment index's weights as tantivy applies them (``_weighed``), by searcher
        self._multipliers = {id(s): m for s in self._all if (m := _multiplier_table(s)) is not None}

    @property
    def num_docs(self) -> int:
        return sum(s.num_docs for s in self._all)

    # ------------------------------------------------------------------ queries
    def _const(self, query: tantivy.Query, score: float) -> tantivy.Query:
        return Q.const_score_query(query, score)

    def _word(self, word: str, *, prefix: bool, text: bool, fuzzy: bool = True, typing: bool = False,
              around: frozenset[str] | None = None) -> tuple[tantivy.Query, bool]:
        """``_new_word``, remembered: a query is immutable and the index does not change."""
        key = (word, prefix, text, fuzzy, typing, around)
        got = self._words.get(key)
        if got is None:
            if len(self._words) >= WORD_QUERIES:
                self._words.clear()
            got = self._words[key] = self._new_word(word, prefix=prefix, text=text, fuzzy=fuzzy, typing=typing,
                                                    around=around)
        return got

    def _new_word(self, word: str, *, prefix: bool, text: bool, fuzzy: bool = True, typing: bool = False,
                  around: frozenset[str] | None = None) -> tuple[tantivy.Query, bool]:
        """One query word: exact, prefix or within its typo budget, in the name (and the card's other words),
        and whether it matches only documents that have it in the name (no index holds it around a name as it
        is, nor gets it a typo variant there; ``around``: the words the searched index holds around its names
        but not in them, when known). ``typing``: the word being typed, whose completions count as much as the
        word itself. A word the field holds as it is gets no typo variants there (it is no typo, and automata
        are the costly part); a word being typed that begins a word of the name gets none at all; typos are
        whole words outside the name."""
        fields = ("name", "text") if text else ("name",)
        alts = []
        name_only = True
        edits = max_edits(word) if fuzzy else 0
        for f in fields:
            known = self._known(f, word)
            if known or f == "name":  # a word no index holds matches nothing: no term query for it
                # the word being typed: its completions, below, hold it at the same score; a word the searched
                # index holds only in names: its name term finds what its text term would, scored higher (the
                # alternative made every word a union, and a union seeked sparsely cost 0.4 ms at 1M names)
                if not ((typing and prefix and f == "name") or (f == "text" and around is not None
                                                                 and word not in around)):
                    alts.append(self._const(Q.term_query(self.schema, f, word), WORD_SCORES[f]))
                name_only = name_only and (f == "name" or (around is not None and word not in around))
            if prefix and f == "name":  # "base" completes a name, but would match every "baseball" card's text
                started = (Q.term_query(self.schema, "name_start", word) if len(word) <= START_LETTERS
                           else Q.fuzzy_term_query(self.schema, f, word, 0, True, True))
                alts.append(self._const(started, WORD_SCORES["name" if typing else "name_prefix"]))
            started_here = prefix and f == "name"
            if not edits:
                continue
            if known or (started_here and self._known(f, word, True)):
                edits = 0 if started_here else edits  # begins a name word: not a typo around the name either
            else:
                alts.append(self._const(Q.fuzzy_term_query(self.schema, f, word, edits, True, started_here),
                                        WORD_SCORES[f + "_fuzzy"]))
                name_only = name_only and (f == "name" or (around is not None and not any(
                    abs(len(a) - len(word)) <= edits for a in around)))
        return (Q.disjunction_max_query(alts) if len(alts) > 1 else alts[0]), name_only

    def _known(self, field: str, word: str, prefix: bool = False) -> bool:
        """Whether the field holds the word (``prefix``: or begins one of its words) in any of the indexes
        (remembered: the index does not change)."""
        key = (field, word, prefix)
        got = self._known_words.get(key)
        if got is None:
            got = (self._known(field, word) if prefix else any(s.doc_freq(field, word) > 0 for s in self._all)) or (
                prefix and any(s.terms_with_prefix(field, word, limit=1) for s in self._all))  # (whole: asked once)
            if len(self._known_words) >= KNOWN_WORDS:
                self._known_words.clear()
            self._known_words[key] = got
        return got

    def _text_query(self, words: list[str], *, prefix: bool, text: bool, fuzzy: bool = True, need_name: bool = False,
                    context: bool = True, around: frozenset[str] | None = None
                    ) -> list[tuple[tantivy.Occur, tantivy.Query]]:
        clauses: list[tuple[tantivy.Occur, tantivy.Query]] = []
        if need_name and len(words) == 1:  # the one word must be in the name: what is around it can add nothing
            text = need_name = False  # (a name match scores 3.5 or more, above any match around it: same scores)
        each = [self._word(w, prefix=prefix and i == len(words) - 1, text=text, fuzzy=fuzzy,
                           typing=prefix and i == len(words) - 1, around=around) for i, w in enumerate(words)]
        # one word at least must be in the name itself, not only around it; a word that can match only
        # in the name sees to that (a word being typed that begins a name word, most often)
        if text and need_name and not any(name_only for _, name_only in each):
            clauses.append((MUST, self._const(Q.boolean_query(
                [(SHOULD, self._word(w, prefix=prefix and i == len(words) - 1, text=False, fuzzy=fuzzy)[0])
                 for i, w in enumerate(words)]), 0.0)))
        # the word being typed may be a prefix; the others are whole
        clauses += [(MUST, q) for q, _ in each]
        if context and text and len(words) > 1:  # "charizard base set": the card of the release named that, whole
            spans = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, min(len(words), i + 6) + 1)}
            clauses.append((SHOULD, Q.boolean_query([(SHOULD, self._const(Q.term_query(self.schema, "context", p),
                                                                          CONTEXT)) for p in sorted(spans)])))
        phrase = " ".join(words)
        clauses.append((SHOULD, self._const(Q.term_query(self.schema, "name_key", phrase), EXACT)))
        clauses.append((SHOULD, self._const(Q.term_query(self.schema, "name_bag", " ".join(sorted(words))),
                                            SAME_WORDS)))
        return clauses

    def warm(self) -> None:
        """Read now what the first autocomplete would otherwise read (every term of the names' index)."""
        self._names_around()

    def _names_around(self) -> frozenset[str]:
        """The words the names' index holds around its names but in none of them (years, segments, "opc"),
        read once: a word outside them matches a distinct name only by its name."""
        if self._around is None:
            text = self._names.terms_with_prefix("text", "")
            names = dict(self._names.terms_with_prefix("name", ""))
            self._around = frozenset(w for w, n in text if n > names.get(w, 0))  # each name's text holds its name
        return self._around

    def _search(self, query: tantivy.Query, limit: int, offset: int = 0, count: bool = True,
                searcher: tantivy.Searcher | None = None, window: int = 0) -> tuple[list[tuple[float, object]], int]:
        searcher = searcher or self._searcher
        size = max(searcher.num_docs, 1)
        if limit <= 0 or offset >= size:  # nothing to page: count only (and no giant collector for a huge skip)
            res = searcher.search(query, limit=1, count=True)
            return [], int(res.count or 0)
        multipliers = self._multipliers.get(id(searcher))
        if multipliers is not None and offset + limit <= WEIGH_HERE_UP_TO:
            found = _weighed(searcher, query, multipliers, limit, offset, window)
            if found is not None:
                return found[0], found[1] if count else 0
        res = searcher.search(query, limit=min(limit, size), count=count, offset=offset, weight_by_field="weight")
        return list(res.hits), int(res.count or 0)

    # ------------------------------------------------------------------ names
    def names(self, phrase: str, *, kinds: Iterable[str] | None = None, limit: int = 10, fuzzy: bool = True,
              prefix: bool = False) -> list[NameHit]:
        """Distinct names best first (exact > same words in another order > words > prefixes > typos;
        more common names first on ties)."""
        words = fold(phrase).split()
        query = self._names_query(words, kinds, fuzzy=fuzzy, prefix=prefix)
        if query is None or limit <= 0:
            return []
        hits, _ = self._search(query, limit, count=False, searcher=self._names)
        out = []
        for score, addr in hits:
            doc = self._names.doc(addr)
            label = doc.get_first("label")
            name_words = fold(label).split()
            out.append(NameHit(kind=doc.get_first("kind"), name=label, score=round(float(score), 4),
                               exact=" ".join(name_words) == " ".join(words),
                               distance=_distance(words, name_words, prefix), count=int(doc.get_first("count") or 0),
                               ids=tuple(doc.get_all("ids")), year=doc.get_first("year_label"),
                               segment=doc.get_first("segment_label")))
        return out

    def completions(self, phrase: str, *, kinds: Iterable[str] | None = None, limit: int = 10) -> list[str]:
        """The spellings ``names(phrase, prefix=True)`` finds, best first, and nothing else (autocomplete:
        no distances, ids or counts read per hit)."""
        words = fold(phrase).split()
        hits = self._completion_hits(words, kinds, limit)
        if not hits and (apart := typed_apart(phrase)) != words:
            hits = self._completion_hits(apart, kinds, limit)
        if not hits:
            return []
        label = self._pages.label  # no stored document read
        table = self._names_ord
        if table is None:
            return [label(o) for o in self._names.fast_field_values("ord", [a for _, a in hits])]
        return [label(table[a.doc]) for _, a in hits]

    def _completion_hits(self, words: list[str], kinds: Iterable[str] | None, limit: int) -> list:
        named = self._name_docs
        if named is not None and limit > 0 and list(kinds or ()) == ["name"]:
            # the card names only: the other kinds' few documents dropped from a few more hits, not filtered by
            # the query (its clause on ``kind`` walked the name documents' postings: 30 us a search at 1M cards);
            # the kind clause scores 0, so the names come in the same order
            query = self._names_query(words, None, fuzzy=True, prefix=True)
            if query is None:
                return []
            hits = self._search(query, limit + NAME_SLACK, count=False, searcher=self._names, window=WEIGH_WINDOW)[0]
            names = [h for h in hits if named[h[1].doc]]
            if len(names) >= limit or len(hits) < limit + NAME_SLACK:
                return names[:limit]
        query = self._names_query(words, kinds, fuzzy=True, prefix=True)
        if query is None or limit <= 0:
            return []
        return self._search(query, limit, count=False, searcher=self._names, window=WEIGH_WINDOW)[0]

    def _names_query(self, words: list[str], kinds: Iterable[str] | None, *, fuzzy: bool, prefix: bool
                     ) -> tantivy.Query | None:
        wanted = [k for k in (kinds or NAME_KINDS) if k in NAME_KINDS]
        if not words or not wanted:
            return None
        # (distinct names have no release or set around them: no context clause)
        clauses = self._text_query(words, prefix=prefix, text=True, fuzzy=fuzzy, need_name=True, context=False,
                                   around=self._names_around())
        if len(wanted) < len(NAME_KINDS):  # the names' own index holds nothing else
            clauses.append((MUST, self._const(Q.term_set_query(self.schema, "kind", wanted) if len(wanted) > 1
                                              else Q.term_query(self.schema, "kind", wanted[0]), 0.0)))
        return Q.boolean_query(clauses)

    # ------------------------------------------------------------------ cards
    def cards(self, text: str, *, filters: CardFilters | None = None, limit: int = 20, offset: int = 0,
              prefix: bool = False) -> tuple[list[CardHit], int]:
        """Cards best first (exact name > prefix > typos; newer and base cards first on ties) and the exact total."""
        return self.entities("card", text, filters=filters, limit=limit, offset=offset, prefix=prefix)

    def entities(self, kind: str, text: str, *, filters: CardFilters | None = None, limit: int = 20, offset: int = 0,
                 prefix: bool = False, need_name: bool = False, in_text: bool = True) -> tuple[list[CardHit], int]:
        """``cards`` for one kind of catalog entity: "card", "set", "release" or "parallel" (their ids). Words
        match the name or what surrounds it (number, set, release, year, maker, segment, attributes);
        ``need_name``: one of them at least must be in the name; ``in_text=False``: all of them (autocomplete)."""
        searcher = self._searcher if kind == "card" else self._entities
        hits, total = self._search(self._entity_query(kind, text, filters, prefix, need_name, in_text), limit, offset,
                                   searcher=searcher)
        if kind == "card":
            return self._card_hits(hits), total
        docs = [(s, searcher.doc(a)) for s, a in hits]
        return [CardHit(id=d.get_first("id"), score=round(float(s), 4), name=d.get_first("label") or "")
                for s, d in docs], total

    def _card_hits(self, hits: list[tuple[float, object]]) -> list[CardHit]:
        """Hits of the cards' index as ``CardHit``s (their page fields read by ``data()`` from the pages)."""
        if not hits:
            return []
        out = []
        for (s, _), o in zip(hits, self._ords(hits), strict=True):
            card_id, name = self._pages.head(o)
            out.append(CardHit(id=card_id, score=round(float(s), 4), name=name, pages=self._pages, ord=o))
        return out

    def card_page(self, text: str, *, filters: CardFilters | None = None, limit: int = 20, offset: int = 0,
                  prefix: bool = False, in_text: bool = True) -> tuple[list[bytes], int]:
        """``entities("card", ...)`` as each card's entry on a result page, JSON (``store/search/pages.py``):
        no stored document read."""
        hits, total = self._search(self._entity_query("card", text, filters, prefix, False, in_text), limit, offset)
        if not hits:
            return [], total
        item = self._pages.item
        return [item(o) for o in self._ords(hits)], total

    def _ords(self, hits: list[tuple[float, object]]) -> list[int]:
        """The ``ord`` of each card hit's document: from the column read at open (one segment), else the fast
        field (a call into the bindings: 10 us a page)."""
        table = self._ord_of
        if table is None:
            return self._searcher.fast_field_values("ord", [a for _, a in hits])
        return [table[a.doc] for _, a in hits]

    def _entity_query(self, kind: str, text: str, filters: CardFilters | None, prefix: bool, need_name: bool,
                      in_text: bool) -> tantivy.Query:
        words = fold(text).split()
        clauses = self._text_query(words, prefix=prefix, text=in_text, need_name=need_name) if words else []
        if kind != "card":  # the cards' index holds nothing else
            clauses.append((MUST, self._const(Q.term_query(self.schema, "kind", "e_" + kind), 0.0)))
        clauses += self._filter_clauses(filters or _NO_FILTERS)
        return Q.boolean_query(clauses) if clauses else Q.all_query()

    def cards_named(self, phrases: Iterable[str], *, limit: int = 2000) -> list[CardHit]:
        """Base cards (not variations) whose whole name, folded, is one of ``phrases``: the listing-title
        matcher's candidates for the runs of a title's words (one term lookup each)."""
        keys = sorted({k for k in map(fold, phrases) if k})
        if not keys or limit <= 0:
            return []
        query = Q.boolean_query([(MUST, Q.term_set_query(self.schema, "name_key", keys)),
                                 (MUST, Q.term_query(self.schema, "base", 1))])
        return self._card_hits(self._search(query, limit, count=False)[0])

    # ------------------------------------------------------------------ names read off a card
    def cards_in_text(self, text: str, *, number: str | None = None, year: str | None = None,
                      segment: str | None = None, limit: int = 20, min_share: float = 0.5) -> list[CardHit]:
        """Cards whose name is in text read off a card (OCR), best first with scores: the text may hold other
        words (team, position) and misread letters. Each of its words matches a name word whole or within its
        typo budget; a card needs ``min_share`` of its name's words matched, and scores its tantivy score
        times that share (a name equal to a run of the text's words gets +100). ``number`` (card number),
        ``year`` (year or season) and ``segment`` (name or id) filter as in ``cards``."""
        words = [w for w in fold(text).split() if len(w) > 1][:MAX_TEXT_WORDS]
        if not words or limit <= 0:
            return []
        distinct = list(dict.fromkeys(words))
        spans = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, min(len(words), i + 6) + 1)}
        clauses = [
            (MUST, Q.boolean_query([(SHOULD, self._word(w, prefix=False, text=False)[0]) for w in distinct])),
            (SHOULD, Q.boolean_query([(SHOULD, self._const(Q.term_query(self.schema, "name_key", p), EXACT))
                                      for p in sorted(spans)])),
            *self._filter_clauses(CardFilters(number=number, year=year, segment=segment)),
        ]
        hits, _ = self._search(Q.boolean_query(clauses), limit * 5, count=False)
        out = []
        for (score, _), hit in zip(hits, self._card_hits(hits), strict=True):
            name_words = fold(hit.name).split()
            share = sum(1 for n in name_words if _near(n, distinct)) / max(len(name_words), 1)
            if share >= min_share:
                out.append(replace(hit, score=round(float(score) * share, 4)))
        out.sort(key=lambda h: -h.score)
        return out[:limit]

    def _filter_clauses(self, f: CardFilters) -> list[tuple[tantivy.Occur, tantivy.Query]]:
        s = self.schema
        out = []
        if f.year:
            span = season(f.year)
            if span and "-" not in f.year and "/" not in f.year:
                out.append(Q.range_query(s, "year", tantivy.FieldType.Integer, span[0], span[0]))
            else:
                out.append(Q.term_query(s, "season", f.year.strip()))
        else:
            lo, hi = f.min_year, f.max_year
            if lo is not None or hi is not None:
                out.append(Q.range_query(s, "year", tantivy.FieldType.Integer, lo, hi))
        if f.number:
            out.append(Q.term_query(s, "number", number_key(f.number)))
        if f.segment:
            out.append(Q.term_query(s, "segment", _entity_key(f.segment)))
        if f.manufacturer:
            out.append(Q.term_query(s, "manufacturer", _entity_key(f.manufacturer)))
        if f.release_id:
            out.append(Q.term_query(s, "release_id", _entity_key(f.release_id)))
        if f.set_id:
            out.append(Q.term_query(s, "set_id", _entity_key(f.set_id)))
        if f.base_only:
            out.append(Q.term_query(s, "base", 1))
        return [(MUST, Q.const_score_query(q, 0.0)) for q in out]


def _ord_table(searcher: tantivy.Searcher) -> Sequence[int] | None:
    """The ``ord`` column by document, when the index is one segment (as built: 30 ms to read at 172k cards);
    ``range`` when each document's ord is its number plus one offset, as the build adds the cards (and the names
    after them)."""
    if searcher.num_segments != 1 or not searcher.num_docs:
        return None
    ords, steady = array("Q"), True
    for start in range(0, searcher.num_docs, 1 << 16):  # in chunks: 1M addresses at once held 100 MB
        chunk = searcher.fast_field_values("ord", [tantivy.DocAddress(0, d) for d in
                                                   range(start, min(start + (1 << 16), searcher.num_docs))])
        if steady:
            first = ords[0] if ords else chunk[0]
            steady = all(o == first + d for d, o in enumerate(chunk, start))
        ords.extend(chunk)
    return range(ords[0], ords[0] + len(ords)) if steady else ords


def _kind_table(searcher: tantivy.Searcher, schema: tantivy.Schema, kind: str) -> bytearray | None:
    """1 for each document of ``kind``, 0 for the others, when the index is one segment; read once by searching
    the other kinds (a few thousand documents among the names)."""
    if searcher.num_segments != 1 or not searcher.num_docs:
        return None
    table = bytearray(b"\x01") * searcher.num_docs
    others = [k for k in NAME_KINDS if k != kind]
    query = Q.term_set_query(schema, "kind", others)
    count = searcher.search(query, limit=1, count=True).count or 0
    if count:
        for _, a in searcher.search(query, limit=count, count=False).hits:
            table[a.doc] = 0
    return table


def _multiplier_table(searcher: tantivy.Searcher) -> Sequence[float] | None:
    """What ``weight_by_field="weight"`` multiplies each document's score by, ``log2(2 + weight)`` in f32 as
    tantivy computes it, for an index of one segment and ``WEIGH_HERE_FROM`` documents or more (read once:
    0.2-0.4 s at 1M cards); None otherwise."""
    if searcher.num_segments != 1 or searcher.num_docs < WEIGH_HERE_FROM:
        return None
    out, seen = array("f"), {}
    for start in range(0, searcher.num_docs, 1 << 16):
        for w in searcher.fast_field_values("weight", [tantivy.DocAddress(0, d) for d in
                                                        range(start, min(start + (1 << 16), searcher.num_docs))]):
            m = seen.get(w)
            if m is None:  # the weight as f32, 2 added in f32, its log2 rounded to f32 (the array's type)
                m = seen[w] = math.log2(_f32(2.0 + _f32(max(w, 0.0))))
            out.append(m)
    return out


def _f32(x: float) -> float:
    return _F32.unpack(_F32.pack(x))[0]


def _weighed(searcher: tantivy.Searcher, query: tantivy.Query, multipliers: Sequence[float], limit: int,
             offset: int, window: int = 0) -> tuple[list[tuple[float, object]], int] | None:
    """The page ``weight_by_field="weight"`` gives, when every match fits on it (or in ``window``): searched
    unweighted, each score times its document's multiplier (in f32, as tantivy does), best first, ties by
    document. None when more match (then tantivy weighs them)."""
    want = offset + limit
    window = max(want, window)
    res = searcher.search(query, limit=window, count=True)
    total = int(res.count or 0)
    if total > window:
        return None
    found = res.hits
    # each product rounded to f32 in one call (an f32 times an f32 is exact in a double: rounded once, as tantivy)
    weighed = array("f", [s * multipliers[a.doc] for s, a in found])
    hits = sorted(zip(weighed, (a for _, a in found)), key=lambda h: (-h[0], h[1].doc))
    return hits[offset:want], total


def typed_apart(phrase: str) -> list[str]:
    """The words of a phrase being typed with its last word folded on its own: a letter typed after
    initials begins the next word ("J.B. T" is "jb t"; folded whole, the initials took it: "jbt")."""
    head, _, last = phrase.rstrip().rpartition(" ")
    return fold(head).split() + fold(last).split()


def _near(name_word: str, words: list[str]) -> bool:
    """A name word one of ``words`` matches: the same, or within the query word's typo budget."""
    return any(w == name_word or (max_edits(w) and abs(len(w) - len(name_word)) <= max_edits(w)
                                  and edit_distance(w, name_word) <= max_edits(w)) for w in words)


def _distance(words: list[str], name_words: list[str], prefix: bool) -> int:
    """Edits between the query's words and their nearest name words (0 for exact or prefix matches)."""
    total = 0
    for w in words:
        if w in name_words:
            continue
        best = len(w)
        for n in name_words:
            if n == w or (prefix and n.startswith(w)):
                best = 0
                break
            if abs(len(n) - len(w)) < best:  # the distance is at least the difference in length
                best = min(best, edit_distance(w, n))
        total += best
    return total
