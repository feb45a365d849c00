"""Entity linking: a collector's question -> its constraints and the catalog entities it names,
with candidate cards ranked by every constraint they satisfy (``catalog_link``).

The constraints are read by ``tools._linking``; leftover word runs are names only when the
catalog's name index links them (typos and punctuation folded). A run made only of domain words
("base set") may link a release, set or parallel, never a player.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import uuid
from collections.abc import Callable, Iterator
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import Field
from sqlalchemy import func, select

from store.models import Attribute, Card, CardAttribute, CardPrice, Release, Segment
from store.queries import catalog_cards as q
from store.queries import demo
from store.search.fold import edit_distance, fold_possessive, max_edits, number_forms
from tools._catalog_models import CardOut, card_out
from tools._linking import (ATTRIBUTES, BRANDS, DOMAIN_WORDS, NEVER_NAMES, SEGMENT_WORDS, TOKEN, Constraints, Reading, fold,
                            read, runs)
from tools._models import CamelOut, In, Out
from tools._registry import tool
from tools.context import ToolContext

from tools._search import catalog_index

MAX_RUN = 5
MAX_CARDS_READ = 3000
MAX_PRICED_READ = 500   # tied cards whose market data orders them
# "what about the base set 2 version": a short question opening so names no one of its own
ABOUT = re.compile(r"^\s*(?:ok|okay|cool|k)?[,.!\s]*(what about|how about|and)\b", re.I)
ABOUT_WORDS = 7
TYPED_MIN_LEN = 5   # a typed word this long may be a letter off another player's name
TYPED_BELOW = 0.1   # a name read through such a slip scores below the name said ("mcguire": Bill McGuire first)


class LinkQuery(In):
    text: str = Field(min_length=1, max_length=500,
                      description="The collector's question, as typed (e.g. 'cheapest 1989 upper deck griffey psa 10')")
    history: list[str] | None = Field(
        None, max_length=10,
        description="Earlier user questions of the conversation, oldest first; used when this one names no card "
                    "('his 1990 card', 'and the PSA 9?')")
    segment: str | None = Field(None, max_length=100,
                                description="Only link within this segment (name such as 'Baseball' or 'Pokemon')")
    take: int = Field(10, ge=1, le=50, description="How many ranked candidate cards to return, 1-50")


class LinkedEntity(CamelOut):
    kind: str = Field(description="name, release, set, parallel or manufacturer")
    name: str = Field(description="The catalog's spelling")
    phrase: str = Field(description="The words of the question it was linked from")
    score: float
    exact: bool
    count: int = Field(description="Cards carrying this name (or in this release/set/parallel)")
    ids: list[str]
    year: str | None = None
    segment: str | None = None
    from_history: bool = False
    alternate: bool = Field(False, description="A weaker reading of the words, kept in case a number picks it")


class Candidate(CardOut):
    score: float = Field(description="Higher is better; one point per constraint satisfied, more for number/year")
    matched: list[str] = Field(description="Constraints this card satisfies (name, year, number, release...)")
    missed: list[str] = Field(description="Constraints of the question this card does not satisfy")
    raw_price: str | None = None
    grade_prices: dict[str, str] | None = Field(None, description="Catalog prices by grade key (raw, psa-10, "
                                                                  "psa-8, bgs-9.5...), USD")


class LinkResult(Out):
    constraints: Constraints
    entities: list[LinkedEntity]
    unlinked: list[str] = Field(description="Words that are neither constraints nor catalog names")
    cards: list[Candidate]
    total_candidates: int
    best: str | None = Field(None, description="The card id when one card is clearly best; null when ambiguous")
    ambiguous: bool = Field(description="True when the best few cards are indistinguishable by the question")
    differences: list[str] = Field(description="What tells the tied candidates apart (year, release, set, number)")


def _accept(hit: Any, phrase_tokens: list[str]) -> bool:
    """Is ``hit`` a good enough reading of the phrase to call the phrase a name?"""
    name_tokens = fold(hit.name).split()
    if hit.exact:
        return True
    if hit.distance > max(1, len(phrase_tokens) - 1):
        return False
    if hit.kind == "name":
        if hit.distance > 0 and any(t in DOMAIN_WORDS and t not in name_tokens for t in phrase_tokens):
            return False   # "fossil holo" is the release and the parallel, not a misspelt Holon Fossil
        # the words must be most of the name ("griffey" -> Ken Griffey Jr.), not three words of a
        # nine-word multi-player card title
        cover = len(phrase_tokens) / max(1, len(name_tokens))
        return any(len(t) >= 3 for t in phrase_tokens) and len(phrase_tokens) <= len(name_tokens) and (
            cover >= 0.5 or (len(phrase_tokens) == 1 and len(name_tokens) <= 3))
    if hit.kind in ("parallel", "set"):
        # a misspelt word is one of these only when it is the whole name ("fosil" is not "Gold Foil"), and
        # the name is all the words ("prizm snake skin prizm": the release's word, then Snake Skin Prizm)
        return len(phrase_tokens) == len(name_tokens)
    return len(phrase_tokens) >= 1


GENERIC = {"set", "sets", "release", "releases", "series", "edition", "insert", "inserts"}   # part of many names
TIER = 0.97      # hits scoring within 3% of the best read the phrase equally well


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """Everyday English words (``common_words.txt``): alone, never a misspelt name."""
    text = (Path(__file__).with_name("common_words.txt")).read_text(encoding="utf-8")
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


def _one_slip(words: list[str], name: str, may_slip: Callable[[str], bool]) -> tuple[list[str], bool] | None:
    """The words of ``name`` left once each of ``words`` is found in it, at most one of them a letter off (a word
    ``may_slip``), and whether one was; None when a word is not there."""
    left = fold(name).split()
    typo = False
    for w in words:
        if w in left:
            left.remove(w)
            continue
        near = next((t for t in left if may_slip(w) and not typo and edit_distance(w, t) <= 1), None)
        if near is None:
            return None
        typo = True
        left.remove(near)
    return left, typo


def _typed_in(words: list[str], name: str) -> bool:
    """``name`` holds every word typed, one of them a letter off ("mcguire" for Mark McGwire, a surname typed as
    another player's): a name the catalog also has, misspelt for the card the rest of the question names."""
    found = _one_slip(words, name, lambda w: len(w) >= TYPED_MIN_LEN)
    return found is not None and found[1]


def _name_like(words: list[str]) -> list[str]:
    """Unlinked words that read as a name: four letters or more, no everyday word."""
    return [w for w in (fold(x) for x in words) if len(w) >= 4 and w.isalpha() and w not in common_words()]


def _spelt_nearly(words: list[str], name: str) -> bool:
    """Each of ``words`` is a word of ``name`` or that word with a letter or two off ("lemahue" -> LeMahieu,
    "isaiah thomas" -> Isiah Thomas)."""
    toks = fold(name).split()
    return bool(words) and all(any(w == t or len(t) >= 4 and t[0] == w[0] and SequenceMatcher(None, w, t).ratio() >= 0.8
                                   for t in toks) for w in words)


def _typo_hit(h: Any, toks: list[str]) -> bool:
    """A one-word phrase that is an everyday word, read as another word by a typo ("better" -> Beeter)."""
    return len(toks) == 1 and not h.exact and h.distance > 0 and (
        toks[0] in common_words() or bool(_swapped_common(toks[0]) - set(fold(h.name).split())))


def _swapped_common(word: str) -> set[str]:
    """The everyday words ``word`` is with two letters swapped ("yera" for year, "waht"): that word, not a
    name, unless the name is that word ("jungel": the Jungle release)."""
    return {w for i in range(len(word) - 1) if (w := word[:i] + word[i + 1] + word[i] + word[i + 2:]) in common_words()}


def _cover(toks: list[str], name: str) -> int | None:
    """Edits for the phrase's words to each find a word of ``name`` within its typo budget (None: no cover)."""
    left = fold(name).split()
    total = 0
    for t in toks:
        best = min(((edit_distance(t, n), n) for n in left), default=None)
        if best is None or best[0] > max_edits(t):
            return None
        total += best[0]
        left.remove(best[1])
    return total


def _misspelt_words(index: Any, toks: list[str]) -> list[Any]:
    """A name (or release: "team rockett") whose misspelt word is itself some other name's word ("mark mcguire" -> Mark McGwire,
    "jackson holiday" -> Jackson Holliday): the index tries no typos for a word it holds, so each word
    is cut to its first letters in turn and the names found must cover every word within its budget."""
    out: dict[str, Any] = {}
    for i, w in enumerate(toks):
        if len(w) < 4 or len(toks) > 3:
            continue
        # then by its first letter alone, beside the other words ("frank tomas" -> Frank Thomas,
        # "bo jakson" -> Bo Jackson: the slip is in the first three letters)
        for cut, limit in ((w[:3], 20), (w[:1], 60)):
            if cut == w[:1] and (len(toks) < 2 or any(h.kind == "name" for h in out.values())):
                break
            probe = " ".join(toks[:i] + toks[i + 1:] + [cut])
            for h in index.names(probe, kinds=("name", "release", "set"), limit=limit, prefix=True):
                d = _cover(toks, h.name)
                if d is not None and h.name not in out:
                    out[h.name] = dataclasses.replace(h, distance=d, exact=False)
    def key(h: Any) -> tuple[int, int]:
        return h.distance, len(fold(h.name).split()) - len(toks)

    best = min((key(h) for h in out.values()), default=None)
    return sorted((h for h in out.values() if key(h) == best), key=lambda h: -h.score)


SLIP_MAX = 2   # letters a long word may be off a name's word ("gyradose" -> Gyarados)


def _two_letter_slip(index: Any, word: str, segment: str | None) -> list[Any]:
    """A long word two letters off one name word and nearer no other ("gyradose" -> Gyarados): the names
    holding that word, as a typo of it. Everyday words and swapped everyday words never are."""
    if max_edits(word) < SLIP_MAX or not word.isalpha() or word in common_words() or _swapped_common(word):
        return []
    hits = [h for h in index.names(word, kinds=("name",), limit=20) if segment is None or h.segment in (None, segment)]
    near: dict[str, int] = {}
    for h in hits:
        for t in fold(h.name).split():
            if abs(len(t) - len(word)) <= SLIP_MAX and (d := edit_distance(word, t)) <= SLIP_MAX:
                near[t] = d
    best = min(near.values(), default=0)
    spelt = [t for t, d in near.items() if d == best]
    if not best or len(spelt) != 1 or spelt[0][0] != word[0]:
        return []   # exact elsewhere, nothing near, or two name words as near: no one reading
    return [dataclasses.replace(h, distance=best) for h in hits
            if spelt[0] in fold(h.name).split() and len(fold(h.name).split()) <= 3]


def _spelt_out_name(top: list[Any], toks: list[str]) -> list[Any]:
    """A misspelt name read equally well as several names ("jirachii": Jirachi, Jirachi-EX, Shining Jirachi):
    the one name that is the words put right, and nothing more, is read as the exact one would be; the
    longer names stay as alternates."""
    names = [h for h in top if h.kind == "name"]
    if len(names) < 2 or any(h.exact for h in top):
        return top
    whole = [h for h in names if len(fold(h.name).split()) == len(toks) and _cover(toks, h.name) is not None]
    if len(whole) != 1:
        return top
    return [h for h in top if h.kind != "name" or h is whole[0]]


def _closest_releases(top: list[Any], toks: list[str]) -> list[Any]:
    """Misspelt releases and sets read equally well: the ones nearest the words, then with the fewest words
    besides ("evolutons" is Evolutions, not Mega Evolution or Prismatic Evolutions). Names are left as read."""
    rels = [h for h in top if h.kind in ("release", "set", "parallel")]
    if not rels or any(h.exact or h.distance == 0 for h in top):
        return top

    def key(h: Any) -> tuple[int, int]:
        return h.distance, len(fold(h.name).split()) - len(toks)

    best = min(key(h) for h in rels)
    return [h for h in top if h.kind not in ("release", "set", "parallel") or key(h) == best]


def _reads_apart(index: Any, toks: list[str], top: list[Any], segment: str | None) -> bool:
    """Misspelt words read together as a name that is not them, whole and in order ("kabutop fossil" -> Dome
    Fossil Kabuto, "fosil holo" -> Holo Foil), while each reads whole alone (Kabutops and the Fossil release;
    Fossil and Holo): the words are read apart."""
    if len(toks) < 2 or not top or any(h.exact or h.distance == 0 for h in top):
        return False
    return all(not _whole_in_order(toks, h.name) for h in top) and all(_reads_whole(index, t, segment) for t in toks)


def _whole_in_order(toks: list[str], name: str) -> bool:
    """The words are the name's every word, in its order, each nearest its own word."""
    own = fold(name).split()
    if len(own) != len(toks):
        return False
    at = [min(range(len(own)), key=lambda k: edit_distance(t, own[k])) for t in toks]
    return at == sorted(set(at))


def _reads_whole(index: Any, word: str, segment: str | None) -> bool:
    """One word that is an entity's whole name, exactly or within its typo budget ("kabutop" -> Kabutops)."""
    if len(word) < 3 or word in common_words():
        return False
    for kinds in (None, ("release", "set")):   # a misspelt release may be crowded out by longer names
        for h in index.names(word, kinds=kinds, limit=10):
            if (segment is None or h.segment in (None, segment)) and (h.exact or (
                    len(own := fold(h.name).split()) == 1 and edit_distance(word, own[0]) <= max_edits(word))):
                return True
    return False


def _entity(h: Any, words: list[str]) -> LinkedEntity:
    return LinkedEntity(kind=h.kind, name=h.name, phrase=" ".join(words), score=h.score, exact=h.exact,
                        count=h.count, ids=list(h.ids), year=h.year, segment=h.segment)


def _small_part(h: Any, toks: list[str], year: bool) -> bool:
    """One word, with no year said, that is under half of a release's own words ("shiny" is not Shining
    Fates Shiny Vault; "legendary" may be Legendary Collection, "fleer" any Fleer release)."""
    if year or len(toks) != 1 or h.exact or h.kind != "release" or toks[0] in BRANDS:
        return False
    own = [t for t in fold(h.name).split() if not re.fullmatch(r"\d{4}", t) and t not in SEGMENT_WORDS
           and t not in BRANDS]
    return 2 * len(toks) < len(own)


def _core_cover(toks: list[str], name: str) -> int | None:
    """Edits for ``toks`` to be a release's or set's whole name, leaving out its year and segment
    ("1995 Collectors Choice Baseball"), and its maker too ("2024 Panini Boys of Summer Baseball")."""
    core = [t for t in fold(name).split() if not re.fullmatch(r"\d{4}", t) and t not in SEGMENT_WORDS]
    costs = [_cover(toks, " ".join(words)) for words in (core, [t for t in core if t not in BRANDS])
             if len(words) == len(toks)]
    return min((c for c in costs if c is not None), default=None)


def _named_with_question_words(index: Any, reading: Reading, segment: str | None) -> list[LinkedEntity]:
    """Releases and sets whose whole name holds a question word or a number ("legendary collection",
    "collectors choice", "pop series 1"): matched on the question's own words, typos allowed, before those
    words are set aside. The words used leave the reading's tokens (``named`` keeps where they were)."""
    cut = reading.cuts
    words = [(m.start(), m.group(0).strip(".'-")) for m in TOKEN.finditer(reading.text)
             if not any(a <= m.start() < b for a, b in cut)]
    words = [(p, w) for p, w in words if w and (not w.isdigit() or w == reading.number or
                                                 any(a <= p < b for a, b in reading.named))]
    span = reading.years
    found: list[LinkedEntity] = []
    # words besides question words and attributes ("1994 topps griffey sp": a short print, not 1994 SP)
    others = [w for _, w in reading.tokens if fold(w) not in NEVER_NAMES | DOMAIN_WORDS and fold(w) not in ATTRIBUTES]
    i = 0
    while i < len(words):
        for n in range(min(4, len(words) - i), 0, -1):
            run = words[i:i + n]
            toks = [fold_possessive(w) for _, w in run]   # "bowman's best": Bowman Best
            if any(" " in t or not t for t in toks):
                continue
            gaps = [reading.text[run[k][0] + len(run[k][1]):run[k + 1][0]] for k in range(n - 1)]
            asks = [t in NEVER_NAMES or t in ATTRIBUTES or t.isdigit() for t in toks]
            # one attribute word with its year said may be a release's whole name ("which sets make up 1994 sp")
            alone = n == 1 and span is not None and toks[0] in ATTRIBUTES and not others
            if not alone and (not any(asks) or all(asks) or any(re.search(r"[,;:?!()]", g) for g in gaps)):
                continue
            toks = [t for t in toks if t != "and"]   # "rookie and traded": Rookie & Traded
            kinds = ("release",) if alone else ("release", "set", "parallel")
            hits: list[Any] = []
            # the last word as the catalog may write it ("in the name relic": In the Name Relics)
            for last in number_forms(toks[-1]):
                if not hits:
                    said = toks[:-1] + [last]
                    near = [h for h in index.names(" ".join(said), kinds=kinds, limit=10)
                              if (segment is None or h.segment in (None, segment))
                              and not (span and h.year and h.year[:4].isdigit()
                                       and not span[0] <= int(h.year[:4]) <= span[1])]
                    costs = {h.name: _core_cover(said, h.name) for h in near}
                    hits = [h for h in near if costs[h.name] is not None and (not alone or costs[h.name] == 0)]
            if not hits:
                continue
            best = min(costs[h.name] or 0 for h in hits)
            found += [_entity(h, [w for _, w in run]) for h in hits if costs[h.name] == best][:8]
            used = {p for p, _ in run}
            reading.tokens = [t for t in reading.tokens if t[0] not in used]
            reading.named.append((run[0][0], run[-1][0] + len(run[-1][1])))
            if reading.number in toks:
                reading.number = None
            for t in toks:   # "score rookie & traded": the release's name, not a rookie card asked for
                if t in ATTRIBUTES and ATTRIBUTES[t] in reading.attributes:
                    reading.attributes.remove(ATTRIBUTES[t])
            i += n - 1
            break
        i += 1
    return found


# words after which an everyday word is a verb ("don't judge me", "i recycle my bulk"), never a card's name
VERB_CUES = {"don't", "dont", "not", "never", "i", "we", "you", "they", "please", "pls", "can't", "cant", "won't",
             "wont", "will", "would", "should", "could", "lets", "let's", "must", "gonna", "wanna", "didn't",
             "doesn't", "to"}


def _drop_verbs(reading: Reading) -> None:
    """Everyday words in a verb's place leave the reading's tokens (a card named "Judge" is not meant)."""
    keep = []
    for pos, word in reading.tokens:
        before = re.findall(r"[A-Za-z']+", reading.text[:pos])
        low = fold(word)
        if before and before[-1].lower() in VERB_CUES and low in common_words() and low not in DOMAIN_WORDS \
                and low not in BRANDS:
            reading.named.append((pos, pos + len(word)))
            continue
        keep.append((pos, word))
    reading.tokens = keep


def _named_with_numbers(index: Any, reading: Reading, segment: str | None) -> list[LinkedEntity]:
    """A card whose name holds numbers ("bonds game 46 inning 6": Barry Bonds Game 46 Inning 6): name words and
    numbers said together are read as that name when the catalog has one holding them all, before a bare
    number is taken for the card's number."""
    if reading.number is None or not any(w.isdigit() for _, w in
                                         ((m.start(), m.group(0)) for m in TOKEN.finditer(reading.text))):
        return []
    words = [(m.start(), m.group(0).strip(".'-")) for m in TOKEN.finditer(reading.text)
             if not any(a <= m.start() < b for a, b in reading.cuts + reading.named)]
    stretches: list[list[tuple[int, str]]] = [[]]
    for k, (pos, w) in enumerate(words):
        fw = fold(w)
        gap = reading.text[words[k - 1][0] + len(words[k - 1][1]):pos] if k else ""
        fits = (w.isdigit() and len(w) <= 4) or (fw and fw not in NEVER_NAMES and fw not in DOMAIN_WORDS
                                                 and fw not in BRANDS and not re.search(r"\d", w))
        if not fits or re.search(r"[,;:?!()#/]", gap):
            stretches.append([])
        if fits:
            stretches[-1].append((pos, w))
    found: list[LinkedEntity] = []
    for st in stretches:
        while st and st[0][1].isdigit():
            st = st[1:]
        digits = [w for _, w in st if w.isdigit()]
        if not digits or len(st) - len(digits) < 2:
            continue
        said = fold(" ".join(w for _, w in st)).split()
        hits = [h for h in index.names(" ".join(said), kinds=("name",), limit=5)
                if set(said) <= set(fold(h.name).split()) and (segment is None or h.segment in (None, segment))]
        if not hits:
            continue
        found += [_entity(h, [w for _, w in st]) for h in hits[:3]]
        used = {p for p, _ in st}
        reading.tokens = [t for t in reading.tokens if t[0] not in used]
        reading.named.append((st[0][0], st[-1][0] + len(st[-1][1])))
        if reading.number in digits or not re.search(rf"(#|\bno\.|\bnumber|\bcard)\s*#?\s*{re.escape(reading.number or '')}\b",
                                                     reading.text, re.I):
            reading.number = None   # a bare number said elsewhere is some other name's ("chase to 715")
    return found


# question words that are also first names ("will clark"): a name only with the word after them
FIRST_NAME_WORDS = {"will"}


def _first_name_words(index: Any, reading: Reading, segment: str | None) -> list[LinkedEntity]:
    """"will clark fleer update rookie", "david price 2017 donruss", "zach day 2005 topps": a question word
    and the name word beside it that are together a player's whole name are that name."""
    found: list[LinkedEntity] = []
    toks = reading.tokens
    for k in range(len(toks) - 1):
        (p1, w1), (p2, w2) = toks[k], toks[k + 1]
        first = fold(w1) in FIRST_NAME_WORDS and fold(w2) not in NEVER_NAMES
        last = fold(w2) in NEVER_NAMES and fold(w1) not in NEVER_NAMES | DOMAIN_WORDS | BRANDS and not w1.isdigit()
        if not (first or last) or reading.text[p1 + len(w1):p2].strip():
            continue
        phrase = f"{w1} {w2}"
        hits = [h for h in index.names(phrase, kinds=("name",), limit=3) if h.exact
                and (segment is None or h.segment in (None, segment))]
        if hits:
            found.append(_entity(hits[0], [w1, w2]))
            reading.tokens = [t for t in reading.tokens if t[0] not in (p1, p2)]
            reading.named.append((p1, p2 + len(w2)))
            break
    return found


def _link(index: Any, reading: Reading, segment: str | None) -> tuple[list[LinkedEntity], list[str]]:
    entities: list[LinkedEntity] = _named_with_numbers(index, reading, segment)
    entities += _first_name_words(index, reading, segment)
    entities += _named_with_question_words(index, reading, segment)
    _drop_verbs(reading)
    unlinked: list[str] = []
    span = reading.years

    def year_fit(h: Any) -> bool:
        return bool(span and h.year and h.year[:4].isdigit() and span[0] <= int(h.year[:4]) <= span[1])

    for run in runs(reading):
        i = 0
        pieces: list[tuple[int, int, list[LinkedEntity]]] = []   # (start, words, entities) of this run
        while i < len(run):
            done = False
            for n in range(min(MAX_RUN, len(run) - i), 0, -1):
                words = run[i:i + n]
                toks = fold(" ".join(words)).split()
                if not toks:
                    continue
                only_domain = all(t in DOMAIN_WORDS for t in toks)
                kinds = ("release", "set", "parallel") if only_domain else None
                phrase = " ".join(words)
                if toks == ["base"]:
                    phrase = "base set"   # "base charizard": the Base Set
                hits = [h for h in index.names(phrase, kinds=kinds, limit=20)
                        if (segment is None or h.segment in (None, segment)) and _accept(h, toks)
                        and not _typo_hit(h, toks) and not _small_part(h, toks, bool(span))]
                if not hits and toks[-1].endswith("s") and len(toks[-1]) > 4:   # "blue wave prizms"
                    hits = [h for h in index.names(phrase[:-1], kinds=kinds, limit=20)
                            if (segment is None or h.segment in (None, segment)) and _accept(h, toks[:-1] + [toks[-1][:-1]])
                            and h.kind != "name"]
                if not hits and len(toks) in (2, 4):   # "heart gold soul silver": HeartGold SoulSilver
                    joined = " ".join(toks[k] + toks[k + 1] for k in range(0, len(toks), 2))
                    hits = [h for h in index.names(joined, limit=5) if h.exact
                            and (segment is None or h.segment in (None, segment))]
                if not hits and not only_domain and len(toks) > 1:
                    hits = [h for h in _misspelt_words(index, toks)
                            if (segment is None or h.segment in (None, segment)) and _accept(h, toks)]
                if not hits and not only_domain and len(toks) == 1:
                    hits = _two_letter_slip(index, toks[0], segment)
                if only_domain:
                    hits = [h for h in hits if h.exact or (h.kind == "release" and not set(toks) <= GENERIC)]
                if not hits and not only_domain:
                    # a misspelt release ("fosil") may be crowded out by longer names sharing a word
                    hits = [h for h in index.names(phrase, kinds=("release", "set"), limit=10)
                            if (segment is None or h.segment in (None, segment)) and _accept(h, toks)
                            and not _typo_hit(h, toks) and not _small_part(h, toks, bool(span))]
                if not hits and span and not only_domain:
                    # "1981 topps football": the words name a release only together with the year
                    hits = [h for h in index.names(f"{span[0]} {phrase}", kinds=("release",), limit=10)
                            if year_fit(h) and (segment is None or h.segment in (None, segment))]
                if not hits:
                    continue
                fit = {id(h): h.score * (1.05 if year_fit(h) else 1.0) for h in hits}
                best = max(fit.values())
                top = [h for h in hits if fit[id(h)] >= best * TIER]
                top = _closest_releases(top, toks)
                top = _spelt_out_name(top, toks)
                if n > 1 and _reads_apart(index, toks, top, segment):
                    continue
                # several entities read the phrase equally well: keep them all (the cards decide);
                # other player names it may mean come along as alternates (a card number can pick one)
                # releases read equally well are all kept ("topps traded": every year's), other kinds a few
                top = [h for k, h in enumerate(top) if k < 8 or h.kind == "release"][:40]
                found = [_entity(h, words) for h in top]
                by_release = max((fit[id(h)] for h in top if h.kind in ("release", "set")), default=None)
                for e, h in zip(found, top):
                    if h.kind == "name" and not h.exact and by_release is not None and fit[id(h)] < by_release:
                        e.alternate = True   # "stadium club" reads better as the release than as a card's title
                pieces.append((i, n, found))
                entities += found
                alternates = [h for h in hits if h.kind == "name" and h not in top][:4]
                for h in alternates:
                    e = _entity(h, words)
                    e.alternate = True
                    entities.append(e)
                    found.append(e)
                exact_name = any(h.kind == "name" and h.exact for h in top)
                fits = any(h.kind == "release" and year_fit(h) for h in top)
                if span and not exact_name and not fits:
                    # "89 upper deck", "95 pinnacle", "92 ultra": the release of that year the words name
                    year = str(span[0])
                    rels: list[Any] = []
                    # "2020 donruss base": the words, else those besides release/set words, with the year
                    for said in dict.fromkeys([" ".join(words), " ".join(w for w in words if fold(w) not in DOMAIN_WORDS)]):
                        rels = rels or [h for h in index.names(f"{year} {said}", kinds=("release",), limit=10)
                                        if said and year_fit(h) and (segment is None or h.segment in (None, segment))]
                    entities += [_entity(h, words) for h in rels[:4]]
                i += n
                done = True
                break
            if not done:
                if fold(run[i]) not in DOMAIN_WORDS:   # "how many of the set do i own": no unknown name
                    unlinked.append(run[i])
                pieces.append((i, 1, []))
                i += 1
        _drop_split_names(pieces, entities, unlinked, run)
    return entities, unlinked


def _partial_word(found: list[LinkedEntity], n: int) -> bool:
    """One word read only as part of a name or a near miss ("james" -> James Wood, "stock" -> Strock)."""
    return n == 1 and bool(found) and all(e.kind == "name" and not e.exact for e in found)


def _longer_name(word: str, name_word: str) -> bool:
    """``word`` is ``name_word`` with two or more letters more after it ("patrik" after Pat, "christopher"
    after Chris): a longer given name, not a slip in it."""
    return word.startswith(name_word) and len(word) - len(name_word) >= 2


def _drop_split_names(pieces: list[tuple[int, int, list[LinkedEntity]]], entities: list[LinkedEntity],
                      unlinked: list[str], run: list[str]) -> None:
    """Two neighbouring words each read only as part of someone's name ("lebron james" -> Juan LeBron,
    James Wood): together they name a person the catalog does not have, so neither is a name."""
    for k in range(len(pieces) - 1):
        (a, na, fa), (b, nb, fb) = pieces[k], pieces[k + 1]
        wa, wb = fold(run[a])[:3], fold(run[b])[:3]
        # "ozzy smith": the misspelt first name belongs to a Smith (a word before the surname; "drew brees"
        # read as Tom Drees is not); a longer first name is another person ("patrik mahommes" is not Pat Mahomes)
        if any(t.startswith(wb) for e in fa for t in fold(e.name).split()[1:]) or \
                any(t.startswith(wa) and not _longer_name(fold(run[a]), t) for e in fb for t in fold(e.name).split()[:-1]):
            continue
        if _partial_word(fa, na) and (_partial_word(fb, nb) or (not fb and len(run[b]) >= 3)) or \
                (not fa and len(run[a]) >= 3 and _partial_word(fb, nb)):
            for e in fa + fb:
                if e in entities:
                    entities.remove(e)
            for w in (run[a], run[b]):
                if w not in unlinked:
                    unlinked.append(w)


def _year_ok(card_year: str | None, r: Reading) -> bool | None:
    span = r.years
    if span is None:
        return None
    if not card_year or not card_year[:4].isdigit():
        return False
    y = int(card_year[:4])
    return span[0] <= y <= span[1]


def _apart_by_market_only(t: tuple[Any, float, list[str], list[str]], top: tuple[Any, float, list[str], list[str]]) -> bool:
    """"ozzie 89 score": Ozzie Guillen, Smith and Virgil fit every word alike; the one with market data scores a
    little more, which tells a collector nothing about which player was meant."""
    a, b = fold(t[0].name or ""), fold(top[0].name or "")
    # "Barry Bonds" beside "Barry Bonds Game 46 Inning 6": the longer name said is the card asked for
    return (a != b and f" {a} " not in f" {b} " and f" {b} " not in f" {a} " and top[0].raw_cents is not None
            and t[0].raw_cents is None and t[3] == top[3] and t[1] >= top[1] - 0.052)


def _set_words_in(linked: str, set_name: str) -> bool:
    """The linked set's words, two or more and not only domain words, said in order inside the card's set name."""
    words = fold(linked).split()
    return len(words) >= 2 and any(w not in DOMAIN_WORDS for w in words) and \
        f" {' '.join(words)} " in f" {fold(set_name)} "


_TEAM_AFTER = re.compile(r"\s*\([^()]*\)\s*$")


def _score(row: Any, attrs: list[str], r: Reading, ents: list[LinkedEntity]) -> tuple[float, list[str], list[str]]:
    matched, missed = [], []
    score = 0.0
    names = [e for e in ents if e.kind == "name"]
    mine: list[LinkedEntity] = []
    if names:
        mine = [e for e in names if e.name.replace("\u2019", "'") == (row.name or "").replace("\u2019", "'")]
        if not mine:   # the catalog's other spelling of a linked name ("Ken Griffey, Jr.", "Ho-oh", "Kirby
            # Puckett (Minnesota Twins)": a team in brackets after the name)
            plain = fold(_TEAM_AFTER.sub("", row.name or ""))
            mine = [e for e in names if not e.alternate and fold(e.name) in (fold(row.name or ""), plain)]
        if not mine:   # the release's own spelling: its year added, or one letter off ("2004 Kansas City Royals")
            mine = [e for e in names if not e.alternate and _spelt_as(fold(e.name).split(), row.name or "")]
        typed = not mine
        if typed:   # the words typed, a letter off this card's name ("mcguire" in 1993 Stadium Club): below the name said
            mine = [e for e in names if not e.alternate and _typed_in(fold(e.phrase).split(), row.name or "")]
        if mine:
            matched.append("name")
            # the better reading of the words (higher index score, more cards) breaks ties
            score += (2 if all(e.alternate for e in mine) else 3) + 0.01 * max(e.score for e in mine) / max(e.score for e in names) + \
                0.001 * min(max(e.count for e in mine), 999) / 999 - (TYPED_BELOW if typed else 0)
        else:
            missed.append("name")
    ok = _year_ok(row.release_year, r)
    if ok is not None:
        (matched if ok else missed).append("year")
        score += 3 if ok else 0
    if r.number:
        if fold(row.number or "").replace(" ", "") == fold(r.number).replace(" ", ""):
            matched.append("number")
            score += 4
        else:
            missed.append("number")
    # words read as a name are not also a set or release ("Frank Thomas" the player, not the insert set)
    name_phrases = {fold(e.phrase) for e in names if not e.alternate}   # an alternate is only a maybe
    if any(not e.alternate for e in mine):
        # a card named by one phrase: another phrase may name its release ("nincada deoxys 67")
        name_phrases = {fold(e.phrase) for e in mine if not e.alternate}
    rels = [e for e in ents if e.kind == "release" and fold(e.phrase) not in name_phrases]
    if rels:
        if any(str(row.release_id) in e.ids for e in rels):
            matched.append("release")
            score += 3
            # the release the words read best ("94 score": Score, not Score Rookie & Traded)
            top = max(e.score for e in rels)
            if any(str(row.release_id) in e.ids and e.score >= top * 0.995 for e in rels) and \
                    any(e.score < top * 0.995 for e in rels):
                score += 0.15
        elif any(fold(e.name) in fold(row.release_name or "") for e in rels):
            matched.append("release")
            score += 2
        else:
            missed.append("release")
    sets = [e for e in ents if e.kind == "set" and fold(e.phrase) not in name_phrases]
    if sets:
        if any(str(row.set_id) in e.ids or fold(e.name) == fold(row.set_name or "") for e in sets):
            matched.append("set")
            score += 2
        elif any(_set_words_in(e.name, row.set_name or "") for e in sets):
            matched.append("set")   # "jersey kings": the card's set is "Prospect Jersey Kings"
            score += 1.5
        else:
            missed.append("set")
    mans = [e for e in ents if e.kind == "manufacturer"]
    if mans:
        hit = any(fold(e.name).split()[0] in fold(row.release_name or "") for e in mans)
        (matched if hit else missed).append("manufacturer")
        score += 1 if hit else 0
    for a in r.attributes:
        if a in attrs:
            matched.append(a)
            score += 2
        else:
            missed.append(a)
    if r.numbered_to is not None:
        ok2 = bool(row.numbered_to) and (r.numbered_to == 0 or row.numbered_to == r.numbered_to)
        (matched if ok2 else missed).append("numbered")
        score += 1 if ok2 else 0
    if row.raw_cents is not None and (r.max_price is not None or r.min_price is not None):
        price = row.raw_cents / 100
        ok3 = (r.max_price is None or price <= r.max_price) and (r.min_price is None or price >= r.min_price)
        (matched if ok3 else missed).append("price")
        score += 1 if ok3 else 0
    if row.variation_of is None:
        score += 0.25
    # small preferences between cards the question does not tell apart: the base set, a release named
    # exactly as asked ("2024 Topps Chrome" over "2024 Topps Chrome Baseball"), a card with market data
    if fold(row.set_name or "") in ("base", "base set") or fold(row.set_name or "") == fold(row.release_name or ""):
        score += 0.1
    if any(fold(e.phrase) == " ".join(t for t in fold(row.release_name or "").split() if not t.isdigit())
           for e in rels):
        score += 0.02
    if row.raw_cents is not None:
        score += 0.05
    return score, matched, missed


def _order_key(row: Any, order: str | None) -> float:
    if order == "cheapest":
        return row.raw_cents if row.raw_cents is not None else 1e12
    if order == "most_valuable":
        return -(row.raw_cents or 0)
    if order == "rarest":
        return row.numbered_to or 1e9
    if order in ("newest", "oldest"):
        y = int((row.release_year or "0")[:4] or 0) if (row.release_year or "")[:4].isdigit() else 0
        return -y if order == "newest" else y
    return 0.0


def _spelt_as(words: list[str], name: str) -> bool:
    """``name`` writes the linked name's ``words`` with at most one word a letter off ("J.R. Towels" for
    J.R. Towles) and nothing else but a year ("2004 Philadelphia Phillies"): the same name in that release."""
    found = _one_slip(words, name, lambda w: bool(max_edits(w)))
    return bool(words) and found is not None and all(t.isdigit() and len(t) == 4 for t in found[0])


async def _rows(ctx: ToolContext, ents: list[LinkedEntity], r: Reading, segment: str | None) -> list[Any]:
    # the catalog writes apostrophes both ways ("Logan O'Hoppe", "Logan O’Hoppe")
    names = sorted({v for e in ents if e.kind == "name"
                    for v in (e.name, e.name.replace("'", "\u2019"), e.name.replace("\u2019", "'"))})
    stmt = q.card_select()
    if names:
        stmt = stmt.where(Card.name.in_(names))
    else:
        rel = [uuid.UUID(i) for e in ents if e.kind == "release" for i in e.ids]
        sets = [uuid.UUID(i) for e in ents if e.kind == "set" and e.count <= 20 for i in e.ids]
        if not (rel or sets) or not (r.number or r.attributes or rel):
            return []
        if rel:
            stmt = stmt.where(Card.release_id.in_(rel))
        if sets:
            stmt = stmt.where(Card.set_id.in_(sets))
        if r.number:
            stmt = stmt.where(func.lower(Card.number) == r.number.lower())
    if segment:
        stmt = stmt.where(Release.segment_id.in_(select(Segment.id).where(func.lower(Segment.name) ==
                                                                          segment.lower())))
    async with ctx.transaction() as s:
        rows = list((await s.execute(stmt.limit(MAX_CARDS_READ))).all())
        rel = [uuid.UUID(i) for e in ents if e.kind == "release" and not e.alternate for i in e.ids]
        if names and rel:
            # the release's own spelling of the name ("Ken Griffey, Jr.", "Ho-oh", "Adrián Beltré"):
            # its cards whose folded name holds every word of a linked name
            wanted = [set(fold(e.name).split()) for e in ents if e.kind == "name" and not e.alternate]
            typed = {tuple(fold(e.phrase).split()) for e in ents if e.kind == "name" and not e.alternate}
            more = q.card_select().where(Card.release_id.in_(rel[:20]))
            if r.number:
                more = more.where(func.lower(Card.number) == r.number.lower())
            seen = {x.id for x in rows}
            slips = []
            for x in (await s.execute(more.limit(MAX_CARDS_READ))).all():
                toks = set(fold(x.name or "").split())
                if x.id in seen:
                    continue
                if any(w and (w <= toks or _spelt_as(list(w), x.name or "")) for w in wanted):
                    rows.append(x)
                elif any(_typed_in(list(t), x.name or "") for t in typed):
                    slips.append(x)
            # a name a letter off the words only where the release has no card of the name said
            said_in = set(map(str, rel))
            if not any(str(x.release_id) in said_in for x in rows):
                rows += slips
        if names and r.number and not r.number.isdigit() and not any(fold(x.number or "") == fold(r.number) for x in rows):
            # "puckett mfr-kp": the card numbered so, its name written with more ("Kirby Puckett (Minnesota Twins)")
            wanted = [set(fold(e.name).split()) for e in ents if e.kind == "name" and not e.alternate]
            coded = q.card_select().where(func.lower(Card.number) == r.number.lower())
            rows += [x for x in (await s.execute(coded.limit(MAX_CARDS_READ))).all()
                     if any(w and w <= set(fold(x.name or "").split()) for w in wanted)]
        return rows


async def _attrs(ctx: ToolContext, ids: list[uuid.UUID]) -> dict[uuid.UUID, list[str]]:
    if not ids:
        return {}
    out: dict[uuid.UUID, list[str]] = {}
    async with ctx.transaction() as s:
        for i in range(0, len(ids), 500):
            stmt = (select(CardAttribute.card_id, Attribute.short_name)
                    .join(Attribute, Attribute.id == CardAttribute.attribute_id)
                    .where(CardAttribute.card_id.in_(ids[i:i + 500])))
            for cid, short in (await s.execute(stmt)).all():
                out.setdefault(cid, []).append(short)
    return out


async def _set_sizes(ctx: ToolContext, set_ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
    """Base cards per set (for "57/102": the set of 102 cards)."""
    async with ctx.transaction() as s:
        rows = await s.execute(select(Card.set_id, func.count()).where(Card.set_id.in_(set_ids),
                                                                     Card.variation_of.is_(None)).group_by(Card.set_id))
        return {sid: int(n) for sid, n in rows.all()}


def _differences(rows: list[Any]) -> list[str]:
    out = []
    for label, key in (("year", "release_year"), ("release", "release_name"), ("set", "set_name"),
                       ("number", "number"), ("name", "name")):
        if len({getattr(x, key) for x in rows}) > 1:
            out.append(label)
    return out


async def _index(ctx: ToolContext) -> Any:
    """The name index; a first build outlives a caller's timeout (shielded), so a later call finds it."""
    task = ctx.services.get("catalog_link.index_task")
    if task is None or task.done():
        task = asyncio.ensure_future(catalog_index(ctx))
        ctx.services["catalog_link.index_task"] = task
    return await asyncio.shield(task)


def _earlier(index: Any, history: list[str], segment: str | None) -> Iterator[tuple[Reading, list[LinkedEntity]]]:
    """The conversation's earlier questions, latest first, each read and linked (as asked for, lazily)."""
    for old in reversed(history):
        old_reading = read(old)
        yield old_reading, _link(index, old_reading, segment)[0]


def _scoped_by_history(index: Any, history: list[str] | None, r: Reading, ents: list[Any], tied: list[Any],
                       segment: str | None) -> Any:
    """"what about blastoise" after a question about Base Set: a name alone that ties is read in the
    release, set or year the conversation was about, when that leaves one card."""
    if not history or r.years or any(e.kind in ("release", "set") and not e.from_history for e in ents):
        return None
    for old_reading, older in _earlier(index, history[-3:], segment):
        # a release named outright, else a set only a few releases have ("base set" is many releases' set)
        scope = {str(i) for e in older if e.kind == "release" and not e.alternate for i in e.ids} or \
            {str(i) for e in older if e.kind == "set" and not e.alternate and len(e.ids) <= 3 for i in e.ids}
        if not scope and not old_reading.year:
            continue
        inside = [x for x in tied if str(x.release_id) in scope or str(x.set_id) in scope] if scope else \
            [x for x in tied if str(x.release_year or "").startswith(old_reading.year or "-")]
        if len({(x.name, x.release_name, x.set_name, x.number) for x in inside}) == 1:
            return inside[0]
        return None
    return None


def _everyday_part(e: LinkedEntity) -> bool:
    """A name read from one everyday word that is only part of it ("candy" -> Candy Maldonado)."""
    words = fold(e.phrase).split()
    return not e.exact and len(words) == 1 and words[0] in common_words()


def _weaker_readings(ents: list[LinkedEntity], referring: bool) -> list[LinkedEntity]:
    """Drop the weaker readings the question's other words outdo: an everyday word read as part of a name
    when a card or player is named in full ("rare candy or junk, the 1985 topps roger clemens"), or when the
    question refers back to the card talked about ("perfect, throw it on my wants"); a release's own set
    when another set is named ("2023 chronicles revolution": the Revolution set)."""
    full = any(e.kind == "name" and e.exact and not e.alternate and len(fold(e.phrase).split()) >= 2 for e in ents)
    if full:
        weak = {e.phrase for e in ents if e.kind == "name" and not e.alternate and _everyday_part(e)}
        ents = [e for e in ents if not (e.kind == "name" and e.phrase in weak)]
    names = [e for e in ents if e.kind == "name" and not e.alternate]
    if referring and names and all(_everyday_part(e) for e in names):
        weak = {e.phrase for e in ents if _everyday_part(e)}
        ents = [e for e in ents if e.phrase not in weak]
    sets = [e for e in ents if e.kind == "set" and not e.alternate]
    own = {fold(e.phrase) for e in ents if e.kind == "release" and not e.alternate}
    if any(fold(e.phrase) not in own for e in sets):
        ents = [e for e in ents if not (e.kind == "set" and fold(e.phrase) in own and fold(e.name) in fold(e.phrase))]
    return ents


def _put_right(e: LinkedEntity) -> bool:
    """The entity's words are its whole name with a letter or two off each ("jirachii" -> Jirachi)."""
    toks = fold(e.phrase).split()
    return len(toks) == len(fold(e.name).split()) and _cover(toks, e.name) is not None


def _name_unmet(ents: list[LinkedEntity], row: Any, unlinked: list[str], text: str) -> bool:
    """The question names a card outright ("blastoise", "sidney crosby") that ``row``, found only through a
    weaker reading of the words, is not: never answer another card for a name the catalog lacks."""
    strong = [e for e in ents if e.kind == "name" and (e.exact or _put_right(e)) and not e.alternate and not e.from_history
              and fold(e.phrase) not in common_words()]   # "my professor says...": an everyday word names no card
    if not strong:
        return False
    said = f" {fold(text)} "
    card = fold(row.name or "")
    words = set(card.split())
    mine = [e for e in ents if e.kind == "name" and fold(e.name) == card]
    # found only through part of other words (a whole name put right, "jirachii deoxys", is said outright)
    if mine and all(e.alternate or not (e.exact or _put_right(e)) for e in mine):
        beside = any(f" {fold(a.phrase)} {fold(b.phrase)} " in said for m in mine for e in strong
                     for a, b in ((m, e), (e, m)))
        if beside and not any(set(fold(e.name).split()) <= words for e in strong):
            return True   # "fossil blastoise": Mysterious Fossil, read from "fossil", is no Blastoise
        # "sidney crosby": Sidney Green extends the one name word said, but the word said after it is not his
        if any(f" {fold(e.phrase)} {w} " in said and w not in words for e in strong if " " not in fold(e.phrase)
               for w in _name_like(unlinked)):
            return True
    return False


def _base_set_of(ents: list[LinkedEntity], text: str) -> list[LinkedEntity]:
    """"sun and moon base set": the first set of the release named just before, not the 1999 Base Set."""
    said = fold(text)
    if not any(e.kind == "release" and not e.alternate and fold(e.name) != "base set" and
               f"{fold(e.phrase)} base set" in said and  # never "pokemon base set" (a segment word read as a release)
               not set(fold(e.phrase).split()) <= {*SEGMENT_WORDS, *BRANDS, *DOMAIN_WORDS} for e in ents):
        return ents
    return [e for e in ents if not (e.kind == "release" and fold(e.phrase) == "base set" == fold(e.name))]


def _misread_release(ents: list[LinkedEntity], matched: list[str]) -> bool:
    """Releases read only loosely, from another segment than the player's ("charls nagy 94 flare 42": White
    Flare, a Pokemon set), beside a card that has the name and number said: a misreading, not a missing card."""
    rels = [e for e in ents if e.kind in ("release", "set") and not e.alternate and not e.from_history]
    players = {e.segment for e in ents if e.kind == "name" and not e.alternate}
    return bool(rels and players) and {"name", "number"} <= set(matched) and \
        all(not e.exact and e.segment not in players for e in rels)


def _release_numbered(index: Any, number: str | None, segment: str | None) -> list[Any]:
    """Releases whose whole name is the number said ("pokemon 151")."""
    if not number or not number.isdigit():
        return []
    return [h for h in index.names(number, kinds=("release",), limit=3) if h.exact
            and (segment is None or h.segment in (None, segment))]


def _in_years(year: str | None, span: tuple[int, int] | None) -> bool:
    """A release's year fits the years asked (or none was asked, or the release has none)."""
    m = re.match(r"\d{4}", year or "")
    return span is None or m is None or span[0] <= int(m.group(0)) <= span[1]


async def _digits_as_number(ctx: ToolContext, index: Any, r: Reading, segment: str | None, rows: list[Any],
                            ents: list[LinkedEntity], unlinked: list[str]) -> tuple[list[Any], list[LinkedEntity], list[str]]:
    """"evan white 89 prizm", "pikachu 87 base set 2": no card of the name has the year the two digits gave,
    and a card of that number fits everything else said; the digits are its number (else the reading stands)."""
    digits, year, season = r.year_digits, r.year, r.season
    if not any(fold(x.number or "") == digits for x in rows):
        return rows, ents, unlinked
    r.number, r.year, r.season, r.year_digits = digits, None, None, None
    new_ents, new_unlinked = ents, unlinked
    if any(e.kind == "release" and (e.year or "")[:4] == year for e in ents):
        new_ents, new_unlinked = _link(index, r, segment)   # "93 upper deck" had named 1993 Upper Deck
    new_rows = await _rows(ctx, new_ents, r, segment)
    if any(fold(x.number or "") == digits and not _score(x, [], r, new_ents)[2] for x in new_rows):
        return new_rows, new_ents, new_unlinked
    r.number, r.year, r.season, r.year_digits = None, year, season, digits
    return rows, ents, unlinked


async def _lower_case_code(ctx: ToolContext, r: Reading) -> None:
    """"cpa-dd", "mfr-kp": a hyphenated word typed in lower case is the card number when the catalog numbers
    a card so (never a word such as "ho-oh": no card is numbered that)."""
    if r.number is not None:
        return
    for pos, word in r.tokens:
        if re.fullmatch(r"[A-Za-z]{1,5}-[A-Za-z]{1,5}", word) and fold(word).replace(" ", "") not in NEVER_NAMES:
            async with ctx.transaction() as s:
                found = await s.scalar(select(Card.id).where(func.lower(Card.number) == word.lower()).limit(1))
            if found is not None:
                r.number = word.upper()
                r.tokens.remove((pos, word))
                r.cuts.append((pos, pos + len(word)))
                return


async def link(ctx: ToolContext, query: LinkQuery) -> LinkResult:
    index = await _index(ctx)
    r = read(query.text)
    await _lower_case_code(ctx, r)
    segment = query.segment or r.segment
    ents, unlinked = _link(index, r, segment)
    pronoun = re.search(r"\b(his|her|their|its|it|this|that|same|them|those|one)\b", query.text, re.I)
    ents = _weaker_readings(ents, bool(pronoun and query.history))
    ents = _base_set_of(ents, query.text)
    # "and fleer?", "what about topps": a maker alone, said of the card talked about
    said = [e for e in ents if not e.alternate]
    maker_said = bool(said and query.history) and all(e.kind in ("release", "set", "manufacturer") and
                                    set(fold(e.phrase).split()) - NEVER_NAMES <= BRANDS for e in said)
    if maker_said and not any(e.kind == "manufacturer" for e in said):
        # "and fleer?" read as every Fleer release: the maker, whose release of the year talked about is meant
        words = list(dict.fromkeys(w for e in said for w in fold(e.phrase).split() if w in BRANDS))
        makers = [h for h in index.names(" ".join(words), kinds=("manufacturer",), limit=3) if h.exact]
        if makers:
            ents = [e for e in ents if e.alternate or e.kind not in ("release", "set")] + [_entity(makers[0], words)]
    asked_about = bool(ABOUT.match(query.text)) and len(query.text.split()) <= ABOUT_WORDS
    maker_follow = False   # "and topps?" of the card talked about: a card of another maker is not it
    if not any(e.kind == "name" and not e.alternate for e in ents) and (
            pronoun or maker_said or asked_about or
            not any(e.kind in ("release", "set") and fold(e.phrase) not in DOMAIN_WORDS for e in ents)):
        # "and the red?": a colour read as a set is the parallel asked of the set the conversation is about
        # "his donruss card that year": the maker named picks another release than the one talked about
        named_maker = maker_said or any(x.kind == "manufacturer" and not x.from_history for x in ents)
        for old_reading, older in _earlier(index, query.history or [], segment):
            if any(e.kind in ("name", "release", "set") for e in older):
                # the same card again ("do i have it?"): every reading of the earlier words, which together
                # found it; another card of his ("what about his 1996 topps chrome") takes the first only
                again = not r.years and not any(e.kind in ("release", "set") for e in ents)
                for e in older:
                    if e.kind in ("release", "set", "manufacturer") and named_maker or \
                            e.kind in ("release", "set") and not _in_years(e.year, r.years):
                        continue   # "what about his 1978 card" after his 1983 Topps: not that release
                    # one of each kind the question lacks, with the other readings of the words carried
                    # ("ichiro": Ichiro Suzuki too)
                    if not any(x.kind == e.kind and not x.alternate and not (x.kind == "set" and fold(x.phrase) in DOMAIN_WORDS)
                               # "86-87 fleer jordan 57": MJ and 1986-87 Fleer Basketball, not only Jordan
                               # Lawlar and 1986 Fleer Baseball
                               and not (x.from_history and fold(x.phrase) == fold(e.phrase) and (again or e.alternate))
                               for x in ents):
                        e.from_history = True
                        ents.append(e)
                # the card the earlier question pinned down: its number, year and attributes (unless this
                # question names another year or release: "his 1986 topps card")
                fresh = bool(r.years) or not maker_said and any(e.kind in ("release", "set") and not e.from_history
                                                                for e in ents)
                if not fresh and not named_maker:
                    r.number = r.number or old_reading.number
                # "his stadium club card from the same year", "his donruss card that year"
                same_year = re.search(r"\b(same|that) (year|season)\b", query.text, re.I)
                if not r.years and (not fresh or same_year):
                    r.year, r.season, r.min_year, r.max_year = (old_reading.year, old_reading.season,
                                                                old_reading.min_year, old_reading.max_year)
                r.attributes = r.attributes or old_reading.attributes
                maker_follow = named_maker
                break
    if r.number and r.number.isdigit():
        # "gyarados base set 2": the release is "Base Set 2", not card #2 of Base Set
        longer = [h for e in ents if e.kind == "release" and not e.alternate
                  for h in index.names(f"{e.name} {r.number}", kinds=("release",), limit=3)
                  if h.exact and fold(h.name) == fold(f"{e.name} {r.number}")]
        if longer:
            ents = [e for e in ents if e.kind not in ("release", "set")] + [_entity(h, [r.number]) for h in longer[:1]]
            r.number = None
    if r.number and r.number.isdigit() and not any(e.kind in ("name", "release") and fold(e.phrase) not in SEGMENT_WORDS
                                                   for e in ents):
        # "pokemon 151": a release named by a number
        rel = _release_numbered(index, r.number, segment)
        if rel:
            ents += [_entity(h, [r.number]) for h in rel]
            r.number = None
    for _, w in r.tokens:
        if w.isdigit() and w != r.number and not any(e.kind == "release" and not e.alternate for e in ents):
            ents += [_entity(h, [w]) for h in _release_numbered(index, w, segment)]   # "venusaur ex 151 #198"
    year_of = [(e.year or "")[:4] for e in ents if e.kind == "release" and not e.from_history and r.number
               and (e.year or "")[2:4] == r.number and re.fullmatch(r"\d\d", r.number)]
    if year_of and not r.years and not any(e.kind == "name" and not e.alternate for e in ents):
        r.year, r.number = year_of[0], None   # "95 collectors choice base parallels": 95 is the release's year
    rows = await _rows(ctx, ents, r, segment)
    if rows and r.number and re.fullmatch(r"\d\d", r.number) and not r.years and \
            any(e.kind == "name" for e in ents) and not any(e.from_history for e in ents) and \
            not any(fold(x.number or "") == r.number for x in rows):
        # "tom glavine pinnacle 94": no card of that name has the number; two digits are then a year
        yy = int(r.number)
        r.year, r.number = str(1900 + yy if yy >= 30 else 2000 + yy), None
        ents, unlinked = _link(index, r, segment)   # "pinnacle" of that year now names a release
        rows = await _rows(ctx, ents, r, segment)
    if rows and r.year_digits and r.number is None and any(e.kind == "name" for e in ents) and \
            not any(e.from_history for e in ents) and not any(_year_ok(x.release_year, r) for x in rows):
        rows, ents, unlinked = await _digits_as_number(ctx, index, r, segment, rows, ents, unlinked)
    if rows and r.number and not any(fold(x.number or "") == fold(r.number) for x in rows):
        # "i'm a gambler at heart - random pokemon card from 151": no card of the names has the number,
        # which is a release's whole name
        rel = _release_numbered(index, r.number, segment)
        if rel:
            ents += [_entity(h, [r.number]) for h in rel]
            r.number = None
            rows = await _rows(ctx, ents, r, segment)
    weak = [e for e in ents if e.kind == "name" and not e.alternate and _everyday_part(e)]
    if rows and weak and all(_everyday_part(e) for e in ents if e.kind == "name" and not e.alternate):
        # an everyday word read as part of a name ("fathers day ribbon" -> Ribbon Badge) whose cards miss the
        # year or release the question states: the catalog reads the words better otherwise
        rel_ids = {i for e in ents if e.kind == "release" and not e.alternate and not e.from_history for i in e.ids}
        if (r.years or rel_ids) and not any(_year_ok(x.release_year, r) is not False and
                                            (not rel_ids or str(x.release_id) in rel_ids) for x in rows):
            phrases = {e.phrase for e in weak}
            ents = [e for e in ents if not (e.kind == "name" and e.phrase in phrases)]
            rows = await _rows(ctx, ents, r, segment)
    if r.number and _name_like(unlinked) and not any(e.kind == "name" and not e.alternate for e in ents) and \
            not any(fold(x.number or "") == fold(r.number) for x in rows):
        # "jon valentine 94 score 417": a weak reading of "score" as a name has no #417; the release's #417 are read
        rows += await _rows(ctx, [e for e in ents if e.kind != "name"], r, segment)
    attrs = await _attrs(ctx, [x.id for x in rows]) if r.attributes else {}
    scored = [(x, *_score(x, attrs.get(x.id, []), r, ents)) for x in rows]
    if r.set_total and rows:
        sizes = await _set_sizes(ctx, list({x.set_id for x in rows})[:200])
        scored = [(x, sc + (2 if sizes.get(x.set_id) == r.set_total else 0), m, mi) for x, sc, m, mi in scored]
    async with ctx.transaction() as s:  # the demo never stands in for a real card of its name and number
        demo_ids = await demo.demo_card_ids(session=s, card_ids=[t[0].id for t in scored])
    real = {((t[0].name or "").lower(), t[0].number) for t in scored if t[0].id not in demo_ids}
    scored = [t for t in scored if t[0].id not in demo_ids or ((t[0].name or "").lower(), t[0].number) not in real]
    top = max((t[1] for t in scored), default=0)
    tier = [t[0].id for t in scored if t[1] >= top - 1e-6][:MAX_PRICED_READ]
    with_market = set()
    if len(tier) > 1:  # among cards the words tie, the ones with market data first (a collector's usual card)
        async with ctx.transaction() as s:
            with_market = set((await s.scalars(select(CardPrice.card_id).where(
                CardPrice.card_id.in_(tier), CardPrice.parallel_id.is_(None)).distinct())).all())
    scored.sort(key=lambda t: (-t[1], t[0].id in demo_ids, _order_key(t[0], r.order), t[0].variation_of is not None,
                               t[0].id not in with_market,
                               -(int(t[0].release_year[:4]) if (t[0].release_year or "")[:4].isdigit() else 0),
                               t[0].number_sort or 0))
    best_id, ambiguous, differences = None, False, []
    if scored:
        top_score = scored[0][1]
        tied = [t[0] for t in scored if (t[1] >= top_score - 1e-6 or _apart_by_market_only(t, scored[0]))
                and t[0].variation_of is None] or [scored[0][0]]
        tied = [x for x in tied if x.id not in demo_ids] or tied
        distinct = {(x.name, x.release_name, x.set_name, x.number) for x in tied}
        # a name read only as a weaker alternate of words that name a release ("jungle") names no card
        named = any(e.kind == "name" and not e.alternate for e in ents) or r.number is not None
        # what the question states outright and no candidate has: that card is not in the catalog
        stated = {"name", "number", "year"} | ({"release", *r.attributes} if not any(e.from_history for e in ents)
                                                else {"manufacturer"} if maker_follow else set())
        hard_miss = (stated & set(scored[0][3])) if named else set()
        if named and _name_unmet(ents, scored[0][0], unlinked, query.text):
            hard_miss.add("name")
        if "release" in hard_miss and _misread_release(ents, scored[0][2]):
            hard_miss.discard("release")
        if not named:
            pass  # a release or set alone names no card
        elif hard_miss:
            differences = sorted(hard_miss)  # no card has every constraint asked: not in the catalog
        elif len(distinct) == 1 or r.order is not None:
            best_id = str(scored[0][0].id)
        else:
            ambiguous = True
            differences = _differences(tied)
            pick = _scoped_by_history(index, query.history, r, ents, tied, segment)
            if pick is not None:
                best_id, ambiguous, differences = str(pick.id), False, []
                scored.sort(key=lambda t: t[0].id != pick.id)   # the card picked leads the candidates
        released = any(e.kind == "release" and not e.alternate for e in ents)
        loose = _name_like(unlinked) if (r.number or released) and not any(
            e.kind == "name" and not e.alternate for e in ents) else []
        if loose and hard_miss <= {"name"}:
            # "dj lemahue 2020 prizm 7", "isaiah thomas 86-87 fleer": words naming no one, beside a number many
            # cards share or a release; the card whose name they spell nearly, else none (never another's #7)
            near = [t for t in scored if _spelt_nearly(loose, t[0].name or "")]
            if near and (r.number or len({t[0].name for t in near}) == 1):
                best_id, ambiguous, differences = str(near[0][0].id), False, []
                scored.sort(key=lambda t: t[0].id != near[0][0].id)
            elif r.number:
                best_id, ambiguous, differences = None, False, ["name"]
    keep = scored[:query.take]
    ids = [t[0].id for t in keep]
    async with ctx.transaction() as s:
        card_attrs, prices = await q.enrich(session=s, card_ids=ids)
        every: dict[uuid.UUID, dict[str, str]] = {}
        if ids:
            for cid, key, cents in (await s.execute(
                    select(CardPrice.card_id, CardPrice.price_key, CardPrice.value_cents)
                    .where(CardPrice.card_id.in_(ids[:5]), CardPrice.parallel_id.is_(None)))).all():
                every.setdefault(cid, {})[key] = f"{cents / 100:.2f}"
    cards = []
    for row, score, matched, missed in keep:
        base = card_out(row, card_attrs, prices)
        cards.append(Candidate(**base.model_dump(), score=round(score, 2), matched=matched, missed=missed,
                               raw_price=f"{row.raw_cents / 100:.2f}" if row.raw_cents is not None else None,
                               grade_prices=every.get(row.id)))
    c = r.constraints(segment=segment)
    return LinkResult(constraints=c, entities=ents, unlinked=unlinked, cards=cards, total_candidates=len(scored),
                      best=best_id, ambiguous=ambiguous, differences=differences)


@tool("catalog_link", method="GET", path="/v1/catalog/link", tags=("catalog",))
async def catalog_link(ctx: ToolContext, query: LinkQuery) -> LinkResult:
    """Read a collector's question: its constraints (year or season, card number, rookie/auto/SP, grading
    company and grade, price bounds, ordering, time window) and the players, releases, sets, parallels and
    manufacturers it names (typo-tolerant), with candidate cards ranked by the constraints they satisfy.
    Call it first for any question about a card; use ``best`` when set, else ask using ``differences``."""
    return await link(ctx, query)
