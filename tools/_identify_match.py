"""Scoring OCR readings and visual features against catalog candidates (no I/O here).

Text score of a candidate card (0..1): 0.6 name similarity (best OCR line, or the joined text
containing the name) + 0.25 card number read + 0.1 release/set words read + 0.05 year read; a
name that was not read halves it. Visual score (0..1) comes from the reference index (hash +
colour). Fused: the mean of both when the card has a reference image and text was read,
otherwise whichever exists. The margin to the best *different* card caps the tier: within 0.06
the detection cannot be High.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from vision.render import named_color, parallel_color
from vision.text import edit_distance, fold, norm, numbers, raw_words, word_shape, words, years

CALIBRATION = Path(__file__).with_name("identify_calibration.json")
NAME_READ = 0.7  # a name similarity from which the name counts as read (below it the text score is halved)
CLEAR_NAME = 0.8  # one from which a name's cards of the number read are looked up (``likeliest_names``)
WORD_LETTERS = 0.6  # in words_similarity: the share of letters (the rest: the word's outline)
SPOT_SCALE = 6.0  # spotting score per letter -> similarity: 1 + score / SPOT_SCALE
SPOT_CAP = 0.9
SPOT_MARGIN = 0.3  # per letter: a spotted name must beat the next by this much to count at all
STOP = {"the", "and", "card", "cards", "base", "topps", "panini", "upper", "deck", "chrome", "set", "edition",
        "los", "new", "san", "city", "rookie", "series", "prizm", "bowman", "donruss", "select"}


@dataclass
class TextEvidence:
    lines: list[str]
    joined: str
    words: set[str]
    numbers: set[str]
    years: set[str]
    query_words: list[str] = field(default_factory=list)
    trigram_words: list[str] = field(default_factory=list)  # also 3-letter words ("Ray", "Bil"): for trigrams
    folded: list[str] = field(default_factory=list)  # the lines with OCR-confusable letters folded
    folded_words: set[str] = field(default_factory=set)
    read_words: list[tuple[str, str]] = field(default_factory=list)  # (folded, word_shape) of each word read
    spotted: dict[str, float] = field(default_factory=dict)  # name -> similarity from ``spotted_similarity``
    spotted_numbers: dict[str, float] = field(default_factory=dict)  # number -> credit (``_identify_namesakes``)
    likeliest_number: str | None = None  # the tie-break among namesakes (``_identify_namesakes.likeliest_number``)
    spotted_context: dict[Any, float] = field(default_factory=dict)  # card id -> credit for its release and
    # set spotted (``_identify_namesakes.spotted_context``)
    read_names: dict[str, float] = field(default_factory=dict)  # name -> ``_read_similarity`` (a cache)
    raw: list[str] = field(default_factory=list)  # the lines as read
    read_whole: set[str] = field(default_factory=set)  # catalog names read as a whole line (set before scoring)
    number_keys: set[str] = field(default_factory=set)  # ``numbers`` as ``number_read`` compares them (``number_key``)
    stray_keys: set[str] = field(default_factory=set)  # number keys read only as a line of one character


def evidence(lines: list[str]) -> TextEvidence:
    normed = [norm(line) for line in lines]
    ws = {w for line in lines for w in words(line)}
    query = sorted({w for w in ws if len(w) >= 4 and w.isalpha() and w not in STOP}, key=len, reverse=True)[:12]
    short = sorted({w for w in ws if len(w) == 3 and w.isalpha() and w not in STOP})[:6]
    folded = [f for f in (fold(line) for line in lines) if f]
    read = {(fold(w), word_shape(w)) for line in lines for w in raw_words(line) if len(w) >= 2 and not w.isdigit()}
    apart = numbers([line for line in lines if len(line.strip()) > 1])
    nums = apart | numbers([line for line in lines if len(line.strip()) <= 1])  # as numbers(lines): line by line
    keys = {number_key(x) for x in nums}
    return TextEvidence(lines=[n for n in normed if n], joined=" ".join(normed), words=ws,
                        numbers=nums, number_keys=keys, stray_keys=keys - {number_key(x) for x in apart},
                        years=set(years(lines)),
                        query_words=query, trigram_words=query + short, folded=folded,
                        folded_words={w for f in folded for w in f.split()}, read_words=sorted(read),
                        raw=[" ".join(line.split()) for line in lines])


def line_names(ev: TextEvidence) -> list[str]:
    """Each line read as a catalog might write it, to look up names read whole (as read, and in
    title case for the capitals of slab labels: "HO OH")."""
    out = {form for line in ev.raw if 2 <= len(line) <= 60 for form in (line, line.title())}
    return sorted(out)[:60]


def names_read_whole(ev: TextEvidence, cands) -> set[str]:
    """The names of ``cands`` (candidate rows) read as a whole line (``line_names``), or as a whole line
    but for one letter of a last word of two letters or more (``suffix_misread``)."""
    forms = set(line_names(ev))
    lines = [line.split() for line in ev.lines]
    return {name for name in {c["card"].name for c in cands}
            if name in forms or any(suffix_misread(norm(name).split(), ws) for ws in lines)}


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


def number_forms(ev: TextEvidence) -> list[str]:
    """The numbers read as a catalog may write them (lowercase; "12" also as "012")."""
    return sorted({f for n in ev.numbers for f in (n, n.zfill(3) if n.isdigit() else n)})


def spotted_similarity(score: float) -> float:
    """A name's similarity from its spotting score (``vision.spotting``: 0 = what the recogniser read,
    per letter less below): -1.8 per letter counts as read (``NAME_READ``); never above ``SPOT_CAP``,
    so a name spotted in print too small to read is at most Medium unless its number is read too."""
    return min(SPOT_CAP, max(0.0, 1.0 + score / SPOT_SCALE))


def spotted_names(scores: dict[str, float]) -> dict[str, float]:
    """Names spotted (each the clear winner of some line, see ``_identify_spot``) with their
    similarity (``spotted_similarity``), or none when the best two are within ``SPOT_MARGIN`` of each
    other: in a large catalog several names fit blurred print about equally (Cale Hulse, Sean Burke
    and Chris Terreri for Mike Vernon), and none of them is evidence."""
    ranked = sorted(scores.values(), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0] - ranked[1] < SPOT_MARGIN):
        return {}
    return {n: sim for n, sc in scores.items() if (sim := spotted_similarity(sc)) > 0}


def folded_query(ev: TextEvidence) -> list[str]:
    """The query words folded like ``vision.text.fold`` (for a second, lenient candidate lookup)."""
    return sorted({fold(w) for w in ev.query_words}, key=len, reverse=True)


@lru_cache(maxsize=1 << 16)
def _word_similarity(token: str, read: tuple[str, str]) -> float:
    """A name's word against a word read: letters (confusables folded) and outline (``word_shape``).
    Cached: one photo's cards score every candidate's words against the same words read again at each
    step (on a catalog of real checklists, a common word such as "Energy" brings hundreds of
    candidates, and scoring them uncached took seconds a photo)."""
    f, shape = fold(token), word_shape(token)
    letters = SequenceMatcher(None, f, read[0]).ratio()
    outline = 1 - edit_distance(shape, read[1]) / max(len(shape), len(read[1]), 1)
    return WORD_LETTERS * letters + (1 - WORD_LETTERS) * outline


def words_similarity(ev: TextEvidence, name: str) -> float:
    """Each word of ``name`` against its best match among the words read, weighted by length: tiny
    blurred print keeps a word's outline when most letters are misread ("Pral Callry" for Paul
    Coffey, "Baywe Geetaky" for Wayne Gretzky)."""
    tokens = [t for t in raw_words(name) if len(t) >= 2]
    if not tokens or not ev.read_words:
        return 0.0
    total = sum(len(t) for t in tokens)
    return sum(len(t) * max(_word_similarity(t, r) for r in ev.read_words) for t in tokens) / total


def forget_word_similarities() -> None:
    """Empty ``_word_similarity``'s cache (after a request: its pairs seldom recur in the next photo,
    and a full cache holds about 26 MB a server keeps between requests)."""
    _word_similarity.cache_clear()


def name_similarity(ev: TextEvidence, name: str) -> float:
    """How well the OCR text shows ``name`` (0..1): read as is (1.0), read with confusable letters
    (0.95), read as separate words in any order, as on sideways or two-line name plates (0.95), or
    the best fuzzy match of the whole line or word by word (``words_similarity``), or the name
    spotted in the recogniser's per-frame output (``spotted``)."""
    read = ev.read_names.get(name)
    if read is None:
        read = ev.read_names[name] = _read_similarity(ev, name)
    return max(read, ev.spotted.get(name, 0.0))


def _read_similarity(ev: TextEvidence, name: str) -> float:
    """``name_similarity`` from the lines read alone (the part that does not change when names are spotted)."""
    plain = norm(name)
    if not plain:
        return 0.0
    others = [norm(n) for n in ev.read_whole if n != name]  # other names read whole
    if plain in ev.joined:
        # inside a longer name read whole ("Umbreon" in "Umbreon V", "Darmanitan" in "Galarian
        # Darmanitan V"): that name is printed, not this one (a stray "9" made Darmanitan #9 the
        # answer over the Galarian Darmanitan V read)
        return NAME_READ - 0.01 if any(f" {plain} " in f" {n} " for n in others) else 1.0
    f = fold(name)
    if f in " ".join(ev.folded):
        return 0.95
    tokens = [t for t in f.split() if len(t) >= 2]
    if len(tokens) >= 2 and all(t in ev.folded_words for t in tokens):
        return 0.95
    whole = max((SequenceMatcher(None, f, line).ratio() for line in ev.folded), default=0.0)
    sim = max(whole, words_similarity(ev, name))
    if sim >= NAME_READ and any(set(plain.split()) & set(n.split()) for n in others):
        # a word shared with another name read whole is not this name read: "Fire Energy" is 0.74
        # like "Water Energy" read, and a stray "2" must not make it the answer
        sim = NAME_READ - 0.01
    return sim


LOOSE_NUMBER = 0.5  # number_read's credit for a number read behind one stray character


def number_read(ev: TextEvidence, number: str | None) -> float:
    """1.0 when ``number`` was read, without its leading zeros, or behind one "0" (a blurred "#" is
    often read as one: "#96" as "096"; not two, or "006" would read as #6); ``LOOSE_NUMBER`` when a
    token read is the number behind one other stray character, the "#" read as another ("139" for
    #39, "427" for #27; two digits or more, since "12" for #2 is as likely a different card); else 0."""
    if not number:
        return 0.0
    n = number_key(number)
    read = ev.number_keys
    if _exact_forms(n) & read:
        return 1.0
    if len(n) >= 2 and any(len(x) == len(n) + 1 and x.endswith(n) for x in read):
        return LOOSE_NUMBER
    if any(prefix_misread(n, x) for x in read):
        return PREFIX_MISREAD
    return ev.spotted_numbers.get(number, 0.0)


PREFIX_MISREAD = 0.8  # number_read's credit for a number's digits read exactly behind its letter prefix misread
_PREFIXED = re.compile(r"([a-z]{2,4})(\d{1,4})")


def prefix_misread(key: str, read: str) -> bool:
    """A number with a letter prefix ("McH-05", "RC-12"; as ``number_key``s) read with its digits exact and
    its prefix's letters partly misread, its first letter right ("Mell-05" and "MeH-05" for McH-05: small
    capitals blur into other letters, while the digits after them stay legible)."""
    a, b = _PREFIXED.fullmatch(key), _PREFIXED.fullmatch(read)
    if not a or not b or a.group(2).lstrip("0") != b.group(2).lstrip("0") or a.group(1)[0] != b.group(1)[0]:
        return False
    pa, pb = a.group(1), b.group(1)  # read at full length or one letter longer ("No 1" is no "NNO1")
    return pa != pb and len(pa) <= len(pb) <= len(pa) + 1 and SequenceMatcher(None, fold(pa), fold(pb)).ratio() >= 0.5


def _exact_forms(key: str) -> set[str]:
    """A number key as ``number_read`` credits it in full: as is, without its leading zeros, behind one "0"."""
    return {key, key.lstrip("0"), "0" + key}


def number_key(number: str) -> str:
    """A card number as compared: its letters and digits, lowercase ("BC-24", "#bc24" and "bc 24" are
    one number; the OCR keeps a hyphen read, a catalog may print it or not)."""
    return norm(number).replace(" ", "").replace("#", "").replace("/", "")


def stray_number(ev: TextEvidence, number: str | None) -> bool:
    """The number was credited only through a line of one character ("1" beside a name: a stroke of
    blur or the card's edge reads as one as readily as a printed number; "#1" or "1/102" is not
    this)."""
    if not number or number_read(ev, number) < 1.0:
        return False
    return not (_exact_forms(number_key(number)) & (ev.number_keys - ev.stray_keys))


def release_text(cand: dict[str, Any]) -> str:
    """A candidate's release and set names, as a card prints them."""
    return f"{cand['release_name'] or ''} {cand['set_name'] or ''}"


SET_AND_NUMBER = 0.45  # text_score of a card whose release, year and number were read, but not its name


def release_read(ev: TextEvidence, cand: dict[str, Any]) -> float:
    """The share of the words of a candidate's release and set names (not its year) read."""
    rel_words = {w for w in words(release_text(cand)) if not w.isdigit()}
    return len(rel_words & ev.words) / len(rel_words) if rel_words else 0.0


def year_read(ev: TextEvidence, cand: dict[str, Any]) -> bool:
    return bool(cand["year"]) and str(cand["year"])[:4] in ev.years


def set_and_number_read(ev: TextEvidence, cand: dict[str, Any]) -> bool:
    """The card's release and set names, its year and its number all read exactly: the header that
    names one card of a catalog whatever its name ("1989 Bowman Baseball Base Set #261")."""
    return number_read(ev, cand["card"].number) == 1.0 and release_read(ev, cand) == 1.0 and year_read(ev, cand)


def text_score(ev: TextEvidence, cand: dict[str, Any]) -> float:
    """0.6 name + 0.25 number + 0.1 release and set + 0.05 year; halved when the name is not read
    (``NAME_READ``), but never under ``SET_AND_NUMBER`` when the rest was all read exactly (a Low
    answer: the card a header names, with a name too blurred or long to read)."""
    if not ev.lines:
        return 0.0
    c = cand["card"]
    name_sim = name_similarity(ev, c.name)
    num = number_read(ev, c.number)
    ctx = max(release_read(ev, cand), ev.spotted_context.get(c.id, 0.0))
    yr = 1.0 if year_read(ev, cand) else 0.0
    s = 0.6 * name_sim + 0.25 * num + 0.1 * ctx + 0.05 * yr
    if name_sim >= NAME_READ:
        return s
    return max(s * 0.5, SET_AND_NUMBER) if set_and_number_read(ev, cand) else s * 0.5


def likeliest_names(ev: TextEvidence, cands, n: int = 5) -> list[str]:
    """The names among candidate rows (at most ``n``) the text read clearly (``CLEAR_NAME``) and as
    well as the best one (within 0.05): "Eeves" is Eevee (0.88); "Kaith Mernande" fits Charmander
    (0.74) too loosely for a card of the number read to be added by its name (a stray "1" would
    have made Charmander #1 the answer for Keith Hernandez #8 while his name was not among the
    candidates yet)."""
    sims = {name: name_similarity(ev, name) for name in {c["card"].name for c in cands}}
    bar = max(CLEAR_NAME, max(sims.values(), default=0.0) - 0.05)
    return sorted((name for name, sim in sims.items() if sim >= bar), key=lambda name: -sims[name])[:n]


def name_read(ev: TextEvidence, cands: dict) -> bool:
    """Whether some candidate's name was read (similarity ``NAME_READ`` or more)."""
    return max((name_similarity(ev, c["card"].name) for c in cands.values()), default=0.0) >= NAME_READ


def weak_text(ev: TextEvidence, cands: dict) -> bool:
    """The text read names no single card: no name read, or the best two different cards (name,
    number or set: ``same_print``) score within 0.06 (the margin below which a match is never High),
    as when a name has several cards and their number was not read, or two sets print one name and
    number (Ampharos #1 of seven Pokemon sets) and nothing of their set was read, or the text alone
    would not make the best card Medium (a garbled read that fits one name a little better than its
    namesake: "Stevems" for Scott Stevens came back as Kevin Stevens)."""
    if not name_read(ev, cands):
        return True
    ranked = sorted(((text_score(ev, c), c["card"]) for c in cands.values()), key=lambda x: -x[0])
    best_score, best = ranked[0]
    runner = next((sc for sc, c in ranked[1:] if not same_print(c, best)), 0.0)
    return best_score - runner < 0.06 or confidence(best_score, best_score - runner) < thresholds()["medium"]


def same_print(a: Any, b: Any) -> bool:
    """Two catalog cards (rows) printed alike: the same name and number in the same set (a card and
    its image variations)."""
    return (a.name, a.number, a.set_id) == (b.name, b.number, b.set_id)


def _lab(rgb: tuple[int, int, int]) -> np.ndarray:
    import cv2

    return cv2.cvtColor(np.uint8([[rgb]]), cv2.COLOR_RGB2LAB).reshape(3).astype(np.float32)


def parallel_ranking(parallels: list[Any], border: list[float] | None, serials: list[tuple[int, int]]
                     ) -> list[tuple[Any, float | None, str | None]]:
    """[(parallel, score, confidence tier or None)] best first; [] when there is no parallel evidence:
    a serial whose print run is a parallel's, or a border nearer the colour a parallel's name says
    (``named_color``) than the base card's white."""
    if not parallels:
        return []
    runs = {b for _, b in serials}
    base_d = None
    out = []
    if border is not None:
        b = np.asarray(border, np.float32)
        base_d = float(np.linalg.norm(b - _lab(parallel_color(None))))
    evidence_found = False
    for p in parallels:
        serial = 1.0 if p.numbered_to and p.numbered_to in runs else 0.0
        col = 0.0
        colour = named_color(p.name)  # a parallel whose name says no colour has none to compare
        if border is not None and colour is not None:
            d = float(np.linalg.norm(np.asarray(border, np.float32) - _lab(colour)))
            col = max(0.0, 1.0 - d / 60.0)
            if base_d is not None and d + 8 < base_d:
                evidence_found = True
        if serial:
            evidence_found = True
        out.append((p, 0.65 * serial + 0.35 * col, serial))
    if not evidence_found:
        return []
    out.sort(key=lambda t: -t[1])
    ranked = []
    serial_hits = [t for t in out if t[2]]
    for i, (p, s, serial) in enumerate(out):
        tier = None
        if serial and len(serial_hits) == 1:
            tier = "High" if s >= 0.9 else "Medium"
        elif i == 0 and s >= 0.3:
            tier = "Medium" if s >= 0.6 and (len(out) == 1 or s - out[1][1] > 0.1) else "Low"
        ranked.append((p, round(s, 3), tier))
    return ranked


def confidence(best: float, margin: float) -> float:
    """The fused confidence of a match (0..1): the best candidate's score, discounted by up to a
    quarter when the best *different* card scored within 0.2 of it (a misread name that is only a
    little closer to one catalog name than to the next is weak evidence)."""
    return best * (0.75 + 0.25 * min(1.0, max(0.0, margin) / 0.2))


_OVERRIDE: dict[str, float] = {}


@lru_cache(maxsize=1)
def _calibrated() -> dict[str, float]:
    return {k: float(v) for k, v in json.loads(CALIBRATION.read_text())["thresholds"].items()}


def thresholds() -> dict[str, float]:
    """Tier cut points on ``confidence`` from ``identify_calibration.json`` (see docs/vision-calibration.md)."""
    return _OVERRIDE or _calibrated()


def override_thresholds(cuts: dict[str, float] | None) -> None:
    """Use other cut points in this process (the calibration run lowers them all); None restores."""
    _OVERRIDE.clear()
    _OVERRIDE.update(cuts or {})


def tier(conf: float) -> str | None:
    """High, Medium or Low for a fused confidence; None below the Low cut (the detection is dropped)."""
    t = thresholds()
    if conf >= t["high"]:
        return "High"
    if conf >= t["medium"]:
        return "Medium"
    if conf >= t["low"]:
        return "Low"
    return None
