"""Which catalog cards an answer names: every card name of the catalog, found in the answer text
the way a reader would spot it (longest match first; release, set and maker names are not cards)."""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

# single words that are card names in the catalog but are also everyday words in an answer
COMMON = frozenset("""
base set card cards price prices value market worth total gem mint rookie rc energy trainer holo rare common
uncommon promo series update team teams checklist leaders switch potion stadium record breaker highlights
special edition insert inserts parallel parallels gold silver black red blue green prizm chrome refractor
auto autograph autographs pack packs box boxes graded grade grades raw population pop sales sale listing listings
auction auctions ebay today yesterday yes no sorry help collection collections want list lists feedback thanks
thank great nice sure note hello hi welcome legend legends star stars all the and for with from year years
champion champions classic classics draft future futures prospect prospects select score finest flair ultra
topps fleer donruss bowman leaf upper deck pinnacle panini pokemon pokémon baseball football basketball hockey
psa bgs sgc cgc tag best top rookies early first last going gone going up down
grass fire water lightning psychic fighting darkness metal fairy dragon colorless basic stage stage1 stage2
you its not are was has had any one two new old low per via usd but can may off out own see set get got yet
""".split())  # noqa: SIM905 - a word list reads better as text

PHRASES = frozenset({"world series", "all star", "hall of fame", "base set", "rookie card", "gem mint", "card",
                     "rookie cup", "team card", "league leaders"})


# typographic punctuation written as its plain form ("O’Hoppe" reads as "O'Hoppe", "“Holo”" as '"Holo"')
_PUNCT = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
                        "\u00b4": "'", "\u0060": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"',
                        "\u2033": '"', "\u00ab": '"', "\u00bb": '"', "\u2010": "-", "\u2011": "-",
                        "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
                        "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\u2026": "...", "\uff03": "#"})


def fold(text: str) -> str:
    """Unicode punctuation as its ASCII form, so a curly apostrophe or dash reads like a straight one."""
    return text.translate(_PUNCT)


def norm(text: str) -> str:
    """Lowercase, accents and punctuation out, one space between words ("Griffey, Jr." -> "griffey jr";
    any other punctuation, typographic or not, separates words as an ASCII one does)."""
    text = unicodedata.normalize("NFKD", fold(text))
    text = "".join("" if unicodedata.category(c) == "Mn" else
                   " " if not c.isascii() and unicodedata.category(c)[0] in "PSZ" else c for c in text)
    text = text.encode("ascii", "ignore").decode()
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


@dataclass
class Spot:
    name: str                 # the catalog name as written in the catalog
    key: str                  # its normalised form


@dataclass
class NameIndex:
    names: dict[str, str] = field(default_factory=dict)              # key -> catalog spelling
    scopes: dict[str, set[tuple[str, str, str]]] = field(default_factory=lambda: defaultdict(set))
    not_cards: list[str] = field(default_factory=list)               # release/set/maker names (keys)
    releases: dict[str, str] = field(default_factory=dict)           # release key -> its segment
    longest: int = 1

    def add(self, name: str, segment: str, release: str, set_name: str) -> None:
        key = norm(name)
        if not key:
            return
        self.names.setdefault(key, name)
        self.scopes[key].add((segment, release, set_name))
        self.longest = max(self.longest, min(key.count(" ") + 1, 10))

    def spots(self, answer: str) -> list[Spot]:
        """The card names in ``answer`` (longest match first, release/set/maker names removed; a quoted
        example such as 'try "2024 Topps Chrome Ohtani #1"' is not a claim about a card)."""
        answer = re.sub(r'"[^"]*"', " ", fold(answer))  # the same as evals.judge.unquoted
        words = re.findall(r"[A-Za-z0-9\u00C0-\u024F]+", answer)
        keys = [norm(w) for w in words]
        covered = [False] * len(words)
        joined = " " + " ".join(keys) + " "
        for nc in self.not_cards:
            if f" {nc} " in joined:
                n = nc.split()
                for i in range(len(keys) - len(n) + 1):
                    if keys[i:i + len(n)] == n:
                        covered[i:i + len(n)] = [True] * len(n)
        out: list[Spot] = []
        i = 0
        while i < len(words):
            hit = 0
            for length in range(min(self.longest, len(words) - i), 0, -1):
                if any(covered[i:i + length]):
                    continue
                key = " ".join(keys[i:i + length])
                if key in self.names and self._counts(key, words[i:i + length]):
                    hit = length
                    out.append(Spot(self.names[key], key))
                    break
            i += hit or 1
        return out

    def releases_in(self, answer: str) -> set[str]:
        """The releases an answer names (normalised), longest first so "Base Set 2" is not "Base Set"."""
        # a card number ("#151") is not the release named by that number
        text, found = f" {norm(re.sub(r'#[A-Za-z0-9-]+', ' ', answer))} ", set()
        # a set named after an older release ("1989 Topps Baseball Chrome Layer Variations") is not that release
        for nc in self.not_cards:
            if nc not in self.releases and f" {nc} " in text and any(f" {r} " in f" {nc} " for r in self.releases):
                text = text.replace(f" {nc} ", " | ")
        # a card name of two words or more holding a release's ("Buried Fossil", "Scroll of the Fanged Dragon")
        for spot in self.spots(answer):
            if spot.key.count(" ") >= 1 and spot.key not in self.releases:
                text = text.replace(f" {spot.key} ", " | ")
        for rel in sorted(self.releases, key=len, reverse=True):
            if f" {rel} " in text:
                found.add(rel)
                text = text.replace(f" {rel} ", " | ")
        return found

    def _counts(self, key: str, words: list[str]) -> bool:
        parts = key.split()
        if key in PHRASES:
            return False
        if all(p in COMMON or p.isdigit() or len(p) < 3 for p in parts):
            # everyday words ("Going, Going, Gone") are a name only when written as one
            return len(parts) > 1 and all(w[:1].isupper() or w.isdigit() for w in words)
        if len(parts) == 1:  # a one-word name counts only when capitalised, as a name is written
            return len(key) >= 3 and words[0][:1].isupper()
        return True


async def build_index(sessions: Any) -> NameIndex:
    from sqlalchemy import func, select

    from store.models import Card, CardSet, Manufacturer, Parallel, Release, Segment

    idx = NameIndex()
    async with sessions() as s:
        rows = (await s.execute(
            select(Card.name, Segment.name, Release.name, CardSet.name).join(CardSet, CardSet.id == Card.set_id)
            .join(Release, Release.id == Card.release_id).join(Segment, Segment.id == Release.segment_id)
            .distinct())).all()
        for name, seg, rel, set_name in rows:
            idx.add(name, seg, rel, set_name)
        others = set()
        for rel, seg, year in (await s.execute(select(Release.name, Segment.name, Release.year).join(
                Segment, Segment.id == Release.segment_id))).all():
            idx.releases[norm(rel)] = seg
            if year and rel and not norm(rel).startswith(norm(str(year))):
                # an answer's "2005 Deoxys Jirachi #9", "Arceus (2009) came out": a one-word release beside its
                # year is the release
                others |= {norm(f"{str(year)[:4]} {rel}"), norm(f"{rel} {str(year)[:4]}")}
        for col in (Release.name, CardSet.name, Manufacturer.name, Segment.name):
            others |= {norm(n) for n in (await s.scalars(select(col).distinct())).all() if n}
        # a card's team ("Baltimore Orioles") is written beside it; a team card named so is rarely meant (a
        # Pokemon card's description is its type: "Lightning Energy" is also a card, named in random pulls)
        others |= {norm(d) for d in (await s.scalars(
            select(Card.description).join(Release, Release.id == Card.release_id)
            .join(Segment, Segment.id == Release.segment_id)
            .where(func.length(Card.description) < 40, Segment.name != "Pokemon").distinct())).all() if d}
        # a parallel's name ("Lime Green Prizm") may hold a card's name ("Lime") as a set's name may
        others |= {k for k in (norm(n) for n in (await s.scalars(select(Parallel.name).distinct())).all() if n)
                   if k not in idx.names}
    # a release or set called like a card is still a release or set in an answer
    idx.not_cards = sorted((o for o in others if o and " " in o), key=len, reverse=True)
    return idx
