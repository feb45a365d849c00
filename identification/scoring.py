"""A candidate card's text score, and whether the text names one card (no I/O here).

Text score (0..1): name similarity, card number read, release and set words read and year read, weighted
as ``Thresholds`` says (0.6 / 0.25 / 0.1 / 0.05); a name not read halves it. The fused confidence
discounts it when the best *different* card scored close to it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from identification.evidence import STOP, Evidence
from identification.names import name_similarity
from identification.numbers import number_read, prefixed_number_read
from identification.thresholds import THRESHOLDS as T
from identification.thresholds import tier_cuts
from vision.text import words


def release_text(cand: Mapping[str, Any]) -> str:
    """A candidate's release and set names, as a card prints them."""
    return f"{cand['release_name'] or ''} {cand['set_name'] or ''}"


def context_words(cand: Mapping[str, Any]) -> frozenset[str]:
    """The words of a candidate's release and set names, not its year."""
    return _release_words(release_text(cand))


@lru_cache(maxsize=1 << 14)
def word_set(text: str) -> frozenset[str]:
    """``vision.text.words`` of a catalog text (a name, a release and set) as a set. Cached: every step of a
    card's closer reads scores each candidate again, splitting the same few catalog texts each time."""
    return frozenset(words(text))


@lru_cache(maxsize=1 << 14)
def _release_words(text: str) -> frozenset[str]:
    return frozenset(w for w in word_set(text) if not w.isdigit())


def release_read(ev: Evidence, cand: Mapping[str, Any], shared: frozenset[str] = frozenset()) -> float:
    """The share of the words of a candidate's release and set names (not its year) read, less the words
    ``shared`` with every card of its name (a brand all its namesakes print says nothing between them,
    and counted as a share it favoured the namesake of the shorter release name), and less the card's own name
    (its words are read as the name, not as the set's)."""
    rel_words = context_words(cand) - shared - word_set(cand["card"].name)
    return len(rel_words & ev.text.words) / len(rel_words) if rel_words else 0.0


def shared_context(cands) -> dict[str, frozenset[str]]:
    """Per name among candidate rows with two cards or more: the release and set words all of them share."""
    groups: dict[str, list[frozenset[str]]] = {}
    for c in cands:
        groups.setdefault(c["card"].name, []).append(context_words(c))
    return {n: frozenset.intersection(*ws) for n, ws in groups.items() if len(ws) > 1}


# words of a release or set name that say its cards are foil or holographic (told by their sheen)
FOIL_WORDS = frozenset({"foil", "foils", "holo", "holofoil", "hologram", "holograms", "holographic", "refractor",
                        "refractors"})


def foil_named(cand: Mapping[str, Any]) -> bool:
    """Whether a candidate's release or set name says its cards are foil (``FOIL_WORDS``)."""
    return bool(FOIL_WORDS & word_set(release_text(cand)))


# catalog names of cards that print no name (a checklist shows its set's logo and words): their set's words name them
NAMELESS = frozenset({"Checklist"})


def set_words(cand: Mapping[str, Any]) -> frozenset[str]:
    """The words of a candidate's release and set names that tell its set (no year, short or common words)."""
    return frozenset(w for w in context_words(cand) if len(w) >= 3 and w.isalpha() and w not in STOP)


def nameless_read(ev: Evidence, cand: Mapping[str, Any]) -> float:
    """For a card that prints no name (``NAMELESS``): the share of its set's words read, when two or more
    are (one word, "Series", fits too many sets); else 0."""
    if cand["card"].name not in NAMELESS:
        return 0.0
    ws = set_words(cand)
    read = ws & ev.text.words
    return len(read) / len(ws) if len(read) >= 2 else 0.0


def year_read(ev: Evidence, cand: Mapping[str, Any]) -> bool:
    return bool(cand["year"]) and str(cand["year"])[:4] in ev.text.years


def set_and_number_read(ev: Evidence, cand: Mapping[str, Any]) -> bool:
    """The card's release and set names, its year and its number all read exactly: the header that
    names one card of a catalog whatever its name ("1989 Bowman Baseball Base Set #261")."""
    return number_read(ev, cand["card"].number) == 1.0 and release_read(ev, cand) == 1.0 and year_read(ev, cand)


def text_score(ev: Evidence, cand: Mapping[str, Any], shared: frozenset[str] = frozenset()) -> float:
    """Name, number, release and set, year (``Thresholds``' weights); halved when the name is not read
    (``T.name_read``), but never under ``T.set_and_number`` when the rest was all read exactly (a Low answer:
    the card a header names, with a name too blurred or long to read); a card whose prefixed number was read
    with its digits is not halved and never under ``T.set_and_number`` times that number's credit (Low).
    ``shared``: release words that do not count (``release_read``)."""
    if not ev.text.lines:
        return 0.0
    c = cand["card"]
    name_sim = name_similarity(ev, c.name)
    num = number_read(ev, c.number)
    ctx = max(release_read(ev, cand, shared), ev.spotted.context.get(c.id, 0.0))
    yr = 1.0 if year_read(ev, cand) else 0.0
    s = T.name_weight * name_sim + T.number_weight * num + T.context_weight * ctx + T.year_weight * yr
    if prefixed_number_read(ev, c.number):  # its letter prefix and digits name one card of a set's class:
        return max(s, T.set_and_number * num)  # not halved, and a Low answer when nothing else was read
    if name_sim >= T.name_read:
        return s
    printed = nameless_read(ev, cand)  # a checklist: its set's words read stand for the name it does not print
    if printed:
        return T.name_weight * printed + T.number_weight * num + T.context_weight * max(ctx, printed) + T.year_weight * yr
    return max(s * 0.5, T.set_and_number) if set_and_number_read(ev, cand) else s * 0.5


def likeliest_names(ev: Evidence, cands, n: int = 5) -> list[str]:
    """The names among candidate rows (at most ``n``) the text read clearly (``T.clear_name``) and as
    well as the best one (within 0.05): "Eeves" is Eevee (0.88); "Kaith Mernande" fits Charmander
    (0.74) too loosely for a card of the number read to be added by its name (a stray "1" would
    have made Charmander #1 the answer for Keith Hernandez #8 while his name was not among the
    candidates yet)."""
    sims = {name: name_similarity(ev, name) for name in {c["card"].name for c in cands}}
    bar = max(T.clear_name, max(sims.values(), default=0.0) - 0.05)
    return sorted((name for name, sim in sims.items() if sim >= bar), key=lambda name: -sims[name])[:n]


def name_read(ev: Evidence, cands: dict) -> bool:
    """Whether some candidate's name was read (similarity ``T.name_read`` or more)."""
    return max((name_similarity(ev, c["card"].name) for c in cands.values()), default=0.0) >= T.name_read


def weak_text(ev: Evidence, cands: dict) -> bool:
    """The text read names no single card: no name read, or the best two different cards (name,
    number or set: ``same_print``) score within ``T.high_margin`` (the margin below which a match is never High),
    as when a name has several cards and their number was not read, or two sets print one name and
    number (Ampharos #1 of seven Pokemon sets) and nothing of their set was read, or the text alone
    would not make the best card Medium (a garbled read that fits one name a little better than its
    namesake: "Stevems" for Scott Stevens came back as Kevin Stevens)."""
    if not name_read(ev, cands):
        return True
    ranked = sorted(((text_score(ev, c), c["card"]) for c in cands.values()), key=lambda x: -x[0])
    best_score, best = ranked[0]
    runner = next((sc for sc, c in ranked[1:] if not same_print(c, best)), 0.0)
    return (best_score - runner < T.high_margin
            or confidence(best_score, best_score - runner) < tier_cuts()["medium"])


def same_print(a: Any, b: Any) -> bool:
    """Two catalog cards (rows) printed alike: the same name and number in the same set (a card and
    its image variations)."""
    return (a.name, a.number, a.set_id) == (b.name, b.number, b.set_id)


def confidence(best: float, margin: float) -> float:
    """The fused confidence of a match (0..1): the best candidate's score, discounted by up to a
    quarter when the best *different* card scored within 0.2 of it (a misread name that is only a
    little closer to one catalog name than to the next is weak evidence)."""
    keep = 1 - T.confidence_discount
    return best * (keep + T.confidence_discount * min(1.0, max(0.0, margin) / T.confidence_margin))
