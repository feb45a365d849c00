"""How well the print read shows a catalog name (0..1): read as is, with OCR-confusable letters, word by
word with each word's outline, as a whole line, or spotted in print too small to read (no I/O here)."""

from __future__ import annotations

from difflib import SequenceMatcher
from functools import lru_cache

from identification.evidence import Evidence
from identification.thresholds import THRESHOLDS as T
from vision.text import edit_distance, fold, norm, raw_words, word_shape


def line_names(ev: Evidence) -> list[str]:
    """Each line read as a catalog might write it, to look up names read whole (as read, and in
    title case for the capitals of slab labels: "HO OH")."""
    out = {form for line in ev.text.raw if 2 <= len(line) <= 60 for form in (line, line.title())}
    return sorted(out)[:60]


def names_read_whole(ev: Evidence, cands) -> set[str]:
    """The names of ``cands`` (candidate rows) read as a whole line (``line_names``), with OCR-confusable
    letters ("Seott Stevens"), or as a whole line but for one letter of a last word of two letters or
    more (``suffix_misread``)."""
    forms = set(line_names(ev))
    folded = set(ev.text.folded)
    lines = [line.split() for line in ev.text.lines]
    return {name for name in {c["card"].name for c in cands}
            if name in forms or fold(name) in folded or any(suffix_misread(norm(name).split(), ws) for ws in lines)}


def suffix_misread(name: list[str], line: list[str]) -> bool:
    """Whether a line's words are a name's (both as ``norm`` words) but for one letter of the name's
    last word, a suffix of two letters or more such as "ex", "GX" or "VMAX": "Maushold es" is Maushold
    ex read, not Maushold, which the line contains and which would otherwise count as read exactly.
    The misread word is letters, as long as the suffix (one letter, "V" read "Y", is too little to
    tell from a stray mark)."""
    if len(name) < 2 or len(line) != len(name) or line[:-1] != name[:-1]:
        return False
    want, got = name[-1], line[-1]
    return (len(want) >= 2 and len(got) == len(want) and got.isalpha() and want.isalpha()
            and sum(a != b for a, b in zip(want, got)) == 1)


def spotted_similarity(score: float) -> float:
    """A name's similarity from its spotting score (``vision.spotting``: 0 = what the recogniser read,
    per letter less below): -1.8 per letter counts as read (``T.name_read``); never above ``T.spot_cap``,
    so a name spotted in print too small to read is at most Medium unless its number is read too."""
    return min(T.spot_cap, max(0.0, 1.0 + score / T.spot_scale))


def spotted_names(scores: dict[str, float]) -> dict[str, float]:
    """Names spotted (each the clear winner of some line, see ``catalog_names``) with their
    similarity (``spotted_similarity``), or none when the best two are within ``T.spot_margin`` of each
    other: in a large catalog several names fit blurred print about equally (Cale Hulse, Sean Burke
    and Chris Terreri for Mike Vernon), and none of them is evidence."""
    ranked = sorted(scores.values(), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0] - ranked[1] < T.spot_margin):
        return {}
    return {n: sim for n, sc in scores.items() if (sim := spotted_similarity(sc)) > 0}


@lru_cache(maxsize=1 << 16)
def _word_similarity(token: str, read: tuple[str, str]) -> float:
    """A name's word against a word read: letters (confusables folded) and outline (``word_shape``).
    Cached: one photo's cards score every candidate's words against the same words read again at each
    step (on a catalog of real checklists, a common word such as "Energy" brings hundreds of
    candidates, and scoring them uncached took seconds a photo)."""
    f, shape = fold(token), word_shape(token)
    letters = SequenceMatcher(None, f, read[0]).ratio()
    outline = 1 - edit_distance(shape, read[1]) / max(len(shape), len(read[1]), 1)
    return T.word_letters * letters + (1 - T.word_letters) * outline


def words_similarity(ev: Evidence, name: str) -> float:
    """Each word of ``name`` against its best match among the words read, weighted by length, less
    ``T.word_order`` when those matches run against the reading order: tiny blurred print keeps a word's
    outline when most letters are misread ("Pral Callry" for Paul Coffey, "Baywe Geetaky" for Wayne Gretzky)."""
    tokens = [t for t in raw_words(name) if len(t) >= 2]
    read = ev.text.read_words
    if not tokens or not read:
        return 0.0
    total = sum(len(t) for t in tokens)
    best = [max(range(len(read)), key=lambda i: _word_similarity(t, read[i])) for t in tokens]  # the first at a tie
    sim = sum(len(t) * _word_similarity(t, read[i]) for t, i in zip(tokens, best)) / total
    # a name's words are printed in order: matched only in the reverse reading order, they are a weaker fit
    # ("Cam breb": Drew Beam by "breb" and "cam", 0.71; Cam Neely in order, 0.66)
    return sim - T.word_order if any(b < a for a, b in zip(best, best[1:])) else sim


def forget_word_similarities() -> None:
    """Empty ``_word_similarity``'s cache (after a request: its pairs seldom recur in the next photo,
    and a full cache holds about 26 MB a server keeps between requests)."""
    _word_similarity.cache_clear()


def name_similarity(ev: Evidence, name: str) -> float:
    """How well the OCR text shows ``name`` (0..1): read as is (1.0), read with confusable letters
    (0.95), read as separate words in any order, as on sideways or two-line name plates (0.95), or
    the best fuzzy match of the whole line or word by word (``words_similarity``), or the name
    spotted in the recogniser's per-frame output (``spotted``)."""
    read = ev.similarities.get(name)
    if read is None:
        read = ev.similarities[name] = _read_similarity(ev, name)
    return max(read, ev.spotted.names.get(name, 0.0))


def line_fit(ev: Evidence, name: str) -> float:
    """How well ``name`` fits some whole line read (letters, confusables folded): a short name matched by one
    word of a longer name line ("Shellos" in "thrie thelios") fits that line less than the name it is."""
    f = fold(name)
    return max((SequenceMatcher(None, f, line).ratio() for line in ev.text.folded), default=0.0)


def _read_similarity(ev: Evidence, name: str) -> float:
    """``name_similarity`` from the lines read alone (the part that does not change when names are spotted)."""
    plain = norm(name)
    if not plain:
        return 0.0
    others = [norm(n) for n in ev.read_whole if n != name]  # other names read whole
    if f" {plain} " in f" {ev.text.joined} ":  # word for word: "Steven" is not read in "Scott Stevens"
        # inside a longer name read whole ("Umbreon" in "Umbreon V", "Darmanitan" in "Galarian
        # Darmanitan V"): that name is printed, not this one (a stray "9" made Darmanitan #9 the
        # answer over the Galarian Darmanitan V read)
        return T.name_read - 0.01 if any(f" {plain} " in f" {n} " for n in others) else 1.0
    f = fold(name)
    if f" {f} " in f" {' '.join(ev.text.folded)} ":  # and not only inside a longer name read whole
        # ("Seott" of "Seott Stevens" is not the trainer Scott)
        return T.name_read - 0.01 if any(f" {f} " in f" {fold(n)} " for n in others) else 0.95
    tokens = [t for t in f.split() if len(t) >= 2]
    if len(tokens) >= 2 and all(t in ev.text.folded_words for t in tokens):
        return 0.95
    whole = line_fit(ev, name)
    sim = max(whole, words_similarity(ev, name))
    if sim >= T.name_read and any(set(plain.split()) & set(n.split()) for n in others):
        # a word shared with another name read whole is not this name read: "Fire Energy" is 0.74
        # like "Water Energy" read, and a stray "2" must not make it the answer
        sim = T.name_read - 0.01
    return sim
