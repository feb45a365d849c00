"""Telling apart cards that share the name read when their number was not read (no I/O here).

A real catalog has many cards of a name: a player in up to ten releases of one year, 117 Pikachu.
When blurred print keeps the number from being read, two kinds of print still tell them apart, and
both are spotted in the recogniser's per-frame output (``vision.spotting``) of the lines the text
detector passed over and of the card's corners (``vision.smallprint``):

1. the words of the card's release and set ("1989 Topps Baseball Base Set", "PLASMA FREEZE"):
   longer than a number, so they survive blur that garbles it (``spotted_context``);
2. then the number, among the namesakes of the release spotted, or all of them
   (``spotted_number``).

Either credits one card a little (``Thresholds.spotted_context`` and ``spotted_number``): enough to
rank it above its namesakes, not to make the answer sure (``identification.decide`` keeps it below
High). When no number is spotted clearly, the likeliest one still decides between namesakes the text
scores alike (``likeliest_number``): a guess, no surer for it, that beats the catalog's order.
"""

from __future__ import annotations

import uuid

import numpy as np

from identification.evidence import Evidence
from identification.names import name_similarity
from identification.numbers import number_read
from identification.scoring import release_text, text_score
from identification.thresholds import THRESHOLDS as T
from vision.text import raw_words


def namesakes(ev: Evidence, cands: dict) -> list[dict]:
    """The candidates sharing the best-scoring card's name, its name read, that only their number,
    release or set tells apart: when no number among them was read, all of them; when one was, those
    of that number in two sets or more (twins: Ampharos #1 of seven Pokemon sets)."""
    if not cands:
        return []
    best = max(cands.values(), key=lambda c: text_score(ev, c))["card"].name
    if name_similarity(ev, best) < T.name_read:
        return []
    group = [c for c in cands.values() if c["card"].name == best and c["card"].number]
    credit = {n: number_read(ev, n) for n in {c["card"].number for c in group}}
    top = max(credit.values(), default=0.0)
    if top > 0:
        group = [c for c in group if credit[c["card"].number] == top]
    return group if len({(c["card"].number, c["card"].set_id) for c in group}) >= 2 else []


def context_words(cand: dict) -> set[str]:
    """The words of a candidate's release and set name as printed (no year, no short words)."""
    return {w for w in raw_words(release_text(cand)) if len(w) >= T.context_letters and w.isalpha()}


def distinguishing_words(group: list[dict]) -> dict[uuid.UUID, set[str]]:
    """Each namesake's context words less those every namesake shares ("Baseball" of 1989's releases)."""
    words = {c["card"].id: context_words(c) for c in group}
    shared = set.intersection(*words.values()) if words else set()
    return {cid: ws - shared for cid, ws in words.items()}


def word_forms(words: set[str]) -> list[str]:
    """Each word as a card prints it and in capitals (a slab's label)."""
    return sorted({f for w in words for f in (w, w.upper())})


def spotted_context(group: list[dict], scores: dict[str, float]) -> dict[uuid.UUID, float]:
    """The namesakes whose release and set words were spotted (``scores``: per word form, per
    character, as ``CatalogNames.spot_words`` gives), with credit ``T.spotted_context``: every word
    scored, the best release and set (its words' scores weighted by length) at ``T.context_min`` or
    more and ahead of every other by ``T.context_margin``, except one whose words are all among its
    own ("Topps" beside "Topps Traded": the more specific one wins when its further words were
    spotted too). The cards of that release and set all get the credit (their number tells them
    apart). Else none."""
    by_words = distinguishing_words(group)
    word_score: dict[str, float] = {}
    for w in set().union(*by_words.values()):
        sc = max((scores[f] for f in (w, w.upper()) if f in scores), default=None)
        if sc is None:
            return {}  # a word that could not be scored: no fair comparison
        word_score[w] = sc
    keys = sorted({frozenset(ws) for ws in by_words.values()}, key=len)
    if len(keys) < 2:
        return {}

    def score(ws: frozenset) -> float:  # nothing of its own to spot: never spotted
        return sum(len(w) * word_score[w] for w in ws) / sum(len(w) for w in ws) if ws else -np.inf

    best = max(keys, key=score)
    for ws in keys:  # the more specific release whose further words were spotted too
        if best < ws and all(word_score[w] >= T.context_min for w in ws - best):
            best = ws
    if score(best) < T.context_min or any(score(best) - score(ws) < T.context_margin
                                        for ws in keys if ws != best and not ws < best):
        return {}
    return {cid: T.spotted_context for cid, ws in by_words.items() if frozenset(ws) == best}


def numbers_to_spot(group: list[dict]) -> list[str]:
    """The namesakes' numbers when two to ``T.spot_numbers`` of them differ."""
    distinct = sorted({c["card"].number for c in group})
    return distinct if 2 <= len(distinct) <= T.spot_numbers else []


def likeliest_number(numbers: list[str], scores: dict[str, float]) -> str | None:
    """Of a few cards' numbers (``catalog_names.CatalogNames.spot_numbers``), the one the blurred
    print fits best, when every one could be scored and it is ahead at all. Alone only a tie-break
    (how often it is right: ``evals/vision-results.md``)."""
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    if len(ranked) < max(2, len(numbers)) or ranked[0][1] <= ranked[1][1]:
        return None
    return ranked[0][0]


def _lettered(number: str) -> bool:
    return any(ch.isalpha() for ch in number)


def printed_alike(numbers: list[str]) -> bool:
    """Whether the numbers are of one form, all digits or all with letters: spotting scores per character
    compare only those (a plain "16" fits blurred print better than "Mc-1" whatever is printed, and as a
    tie-break it made the Collector's Choice namesakes win over the McDonald's cards)."""
    return len({_lettered(n) for n in numbers}) <= 1


def spotted_number(numbers: list[str], scores: dict[str, float]) -> dict[str, float]:
    """The likeliest number (``likeliest_number``) with its credit (``T.spotted_number``) when it is
    spotted clearly: it scores ``T.spot_number_min`` or more per character and beats every other by
    ``T.spot_number_margin``; else none. A number of digits alone is not credited over numbers printed with
    letters (``printed_alike``): blur fits digits better per character whatever is printed ("804" read gave a
    hologram's "McH-03" to the player's "304")."""
    best = likeliest_number(numbers, scores)
    if best is None or scores[best] < T.spot_number_min or (not _lettered(best) and not printed_alike(numbers)):
        return {}
    if any(scores[best] - sc < T.spot_number_margin for n, sc in scores.items() if n != best):
        return {}
    return {best: T.spotted_number}
