"""The catalog as identification sees it: a small interface (``CandidateLookup``) the store implements
(``store.queries.identify.CandidateQueries``), and the lookups a card's text makes through it.

A candidate is a row: ``{"card": <card with id, name, number, set_id, release_id, variation_of ...>,
"release_name", "set_name", "year", "segment_id", "manufacturer"}``, of the identifiable sets only
(one segment's, when the caller bound one).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any, Mapping, Protocol

from identification import names as nm
from identification import scoring as sc
from identification.evidence import Evidence, Spotted, evidence
from identification.numbers import number_forms, prefix_spellings, prefixed_number_read
from identification.thresholds import THRESHOLDS as T

Row = Mapping[str, Any]
Candidates = dict[uuid.UUID, Row]


class CandidateLookup(Protocol):
    async def by_text(self, read: str, *, numbers: Sequence[str] = ()) -> list[Row]:
        """The cards of the names best found in ``read`` (lines read off a card, with other words and
        misread letters; the catalog search index's typo budget), those numbered one of ``numbers`` first."""
        ...

    async def by_trigrams(self, words: Sequence[str]) -> list[Row]:
        """Cards whose name shares the most letter triples with ``words`` (names misread beyond a typo budget)."""
        ...

    async def by_names(self, names: Sequence[str]) -> list[Row]:
        """Cards named exactly one of ``names``."""
        ...

    async def by_names_and_numbers(self, names: Sequence[str], numbers: Sequence[str]) -> list[Row]:
        ...

    async def by_years_and_numbers(self, years: Sequence[str], numbers: Sequence[str]) -> list[Row]:
        """Cards numbered one of ``numbers`` in a release of one of ``years`` (its first four characters)."""
        ...

    async def by_number_prefixes(self, prefixes: Sequence[str]) -> list[Row]:
        """Cards numbered one of ``prefixes`` (lowercase letters) and digits ("McH-05" for "mch")."""
        ...

    async def by_ids(self, ids: Sequence[uuid.UUID]) -> list[Row]:
        ...


async def text_candidates(lookup: CandidateLookup, ev: Evidence, fresh: Sequence[str] | None = None,
                          known: Candidates | None = None, folded: Sequence[str] = (),
                          near: Sequence[str] = ()) -> tuple[Candidates, Evidence]:
    """Catalog cards the text read may show, and the evidence with the names read whole: names read as a
    whole line (also names of short words, "Ho Oh") and the names found in the lines ``fresh`` (default:
    all; a closer read looks up its new lines only) by the catalog search index, those with a number read
    first; if none of these nor of the cards ``known`` already scores as a name read (0.6), the names
    sharing the most letter triples with the words read ("Prwl Slrenes": beyond the index's typo
    budget). The best names' cards (of these and ``known``) numbered as read are added, and so are the cards of a year and number read whose release and set were read too (a header
    read whole over a name that is not: ``scoring.set_and_number_read``). Last, candidates' names read
    whole but for a letter of their suffix ("Maushold es") count as read whole (``names.suffix_misread``).
    ``folded``: names read with OCR-confusable letters (``CatalogNames.folded_in``), looked up too; ``near``:
    names sharing most letter pairs with a name line (``CatalogNames.near_in``), looked up while no name is
    read clearly (``T.clear_name``) as a whole line."""
    t = ev.text
    whole = await lookup.by_names(nm.line_names(ev))
    ev = ev.with_read_whole(nm.names_read_whole(ev, whole))
    cands: Candidates = {c["card"].id: c for c in whole}
    for c in await lookup.by_names(list(folded)) if folded else ():
        cands.setdefault(c["card"].id, c)
    numbers = number_forms(ev)
    read = "\n".join(t.raw if fresh is None else fresh)
    for c in await lookup.by_text(read, numbers=numbers):
        cands.setdefault(c["card"].id, c)
    if near and max(_best_name(ev, cands, whole=True), _best_name(ev, known or {}, whole=True)) < T.clear_name:
        had = {c["card"].name for c in [*cands.values(), *(known or {}).values()]}
        for c in await lookup.by_names(list(near)):
            cands.setdefault(c["card"].id, c)
        ev = ev.with_near(ev.near | ({c["card"].name for c in cands.values()} - had))
    if len(t.words) >= 2 and max(_best_name(ev, cands), _best_name(ev, known or {})) < T.clear_name:
        for c in await lookup.by_names(sorted(sc.NAMELESS)):  # a checklist: no name printed, its set's words read
            if sc.nameless_read(ev, c):
                cands.setdefault(c["card"].id, c)
    new = t.numbers if fresh is None else evidence(list(fresh)).text.numbers  # (a closer read: its own lines')
    prefixes = sorted({p for n in new for p in prefix_spellings(n)})
    if prefixes and max(_best_name(ev, cands), _best_name(ev, known or {})) < T.clear_name:
        # a number's letter prefix read names its set's class of cards: a loose name is sought among them
        for c in await lookup.by_number_prefixes(prefixes):  # (or its digits read too: the number alone)
            if nm.name_similarity(ev, c["card"].name) >= T.class_name or prefixed_number_read(ev, c["card"].number):
                cands.setdefault(c["card"].id, c)
    if t.trigram_words and max(_best(ev, cands), _best(ev, known or {})) < 0.6:
        for c in await lookup.by_trigrams(t.trigram_words):
            cands.setdefault(c["card"].id, c)
    if t.numbers and cands:  # the lookups return some of a name's cards: add those of the number read
        likeliest = sc.likeliest_names(ev, [*cands.values(), *(known or {}).values()])
        for c in await lookup.by_names_and_numbers(likeliest, numbers):
            cands.setdefault(c["card"].id, c)
    if t.numbers and t.years:  # a header read whole names its card when the name is not read
        for c in await lookup.by_years_and_numbers(sorted(t.years), numbers):
            if sc.set_and_number_read(ev, c):
                cands.setdefault(c["card"].id, c)
    misread = nm.names_read_whole(ev, cands.values()) - ev.read_whole  # a suffix misread: "Maushold es"
    if misread:  # (a fresh memo: the names inside them no longer count as read exactly)
        ev = ev.with_read_whole(ev.read_whole | misread)
    return cands, ev


def _best(ev: Evidence, cands: Candidates) -> float:
    return max((sc.text_score(ev, c) for c in cands.values()), default=0.0)


def _best_name(ev: Evidence, cands: Candidates, whole: bool = False) -> float:
    """The best name similarity among ``cands``; ``whole``: of names read as is or fitting a whole line read
    (``names.line_fit``): one matching a word of a longer name line ("Nest Ball" in "Beett Mall") is no name read."""
    sims = (nm.name_similarity(ev, name) for name in {c["card"].name for c in cands.values()}
            if not whole or nm.name_similarity(ev, name) >= 0.95 or nm.line_fit(ev, name) >= T.name_read)
    return max(sims, default=0.0)


async def merge_lines(lookup: CandidateLookup, lines: list[str], more: list[str], cands: Candidates,
                      folded: Sequence[str] = (), near: Sequence[str] = (),
                      near_found: frozenset[str] = frozenset(), spotted: Spotted | None = None) -> Evidence:
    """The evidence of ``lines`` and a further read's new lines ``more``, the cards they suggest added to
    ``cands``; ``near_found``: the names earlier reads found by letter pairs alone (``Evidence.near``);
    ``spotted``: what earlier steps spotted, kept (a further read adds lines, it does not unsay the print)."""
    ev = evidence(lines + more).with_near(near_found)
    if spotted is not None:
        ev = ev.with_spotted_as(spotted)
    if not more:  # the same lines: their names read whole are among the candidates already
        return ev.with_read_whole(nm.names_read_whole(ev, cands.values()))
    found, ev = await text_candidates(lookup, ev, fresh=more, known=cands, folded=folded, near=near)
    for cid, c in found.items():
        cands.setdefault(cid, c)
    return ev
