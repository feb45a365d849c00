"""What a card's print says, frozen: the text read (``Text``), the catalog names read as a whole line,
and what was spotted in print too small to read (``Spotted``). A further read or a spotting step makes
new evidence (``with_*``); nothing changes one in place."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

from vision.text import fold, norm, numbers, raw_words, word_shape, words, years

STOP = frozenset({"the", "and", "card", "cards", "base", "topps", "panini", "upper", "deck", "chrome", "set",
                  "edition", "los", "new", "san", "city", "rookie", "series", "prizm", "bowman", "donruss",
                  "select"})
_EMPTY: Mapping[Any, float] = MappingProxyType({})
# a line that is one card number with a letter prefix ("Mell-06", "Mc-1"): its letters are no name read
_NUMBER_LINE = re.compile(r"[A-Za-z]{2,5}-?\d{1,4}")


@lru_cache(maxsize=1 << 14)
def number_key(number: str) -> str:
    """A card number as compared: its letters and digits, lowercase ("BC-24", "#bc24" and "bc 24" are
    one number; the OCR keeps a hyphen read, a catalog may print it or not). Cached: each candidate's
    number is compared again at every step of a card's reads."""
    return norm(number).replace(" ", "").replace("#", "").replace("/", "")


@dataclass(frozen=True)
class Text:
    """The lines read and the forms they are compared in (all derived from ``lines``: ``Text.of``)."""

    lines: tuple[str, ...]  # normalised (``vision.text.norm``), empty ones left out
    raw: tuple[str, ...]  # as read
    joined: str
    words: frozenset[str]
    numbers: frozenset[str]
    number_keys: frozenset[str]  # ``numbers`` as compared (``number_key``)
    stray_keys: frozenset[str]  # number keys read only as a line of one character
    years: frozenset[str]
    query_words: tuple[str, ...]  # words to look names up by (4+ letters)
    trigram_words: tuple[str, ...]  # also 3-letter words ("Ray", "Bil"): for letter triples
    folded: tuple[str, ...]  # the lines with OCR-confusable letters folded (not those a prefixed number alone)
    folded_words: frozenset[str]
    read_words: tuple[tuple[str, str], ...]  # (folded, word_shape) of each word read, in reading order

    @classmethod
    def of(cls, lines: list[str]) -> Text:
        normed = [norm(line) for line in lines]
        ws = {w for line in lines for w in words(line)}
        query = sorted({w for w in ws if len(w) >= 4 and w.isalpha() and w not in STOP}, key=len, reverse=True)[:12]
        short = sorted({w for w in ws if len(w) == 3 and w.isalpha() and w not in STOP})[:6]
        named = [line for line in lines if not _NUMBER_LINE.fullmatch(line.strip())]  # lines a name may be
        folded = [f for f in (fold(line) for line in named) if f]
        read = {(fold(w), word_shape(w)): None for line in named for w in raw_words(line)
                if len(w) >= 2 and not w.isdigit()}  # (in reading order, each once)
        apart = numbers([line for line in lines if len(line.strip()) > 1])
        nums = apart | numbers([line for line in lines if len(line.strip()) <= 1])  # as numbers(lines)
        keys = {number_key(x) for x in nums}
        return cls(lines=tuple(n for n in normed if n), raw=tuple(" ".join(line.split()) for line in lines),
                   joined=" ".join(normed), words=frozenset(ws), numbers=frozenset(nums),
                   number_keys=frozenset(keys), stray_keys=frozenset(keys - {number_key(x) for x in apart}),
                   years=frozenset(years(lines)), query_words=tuple(query), trigram_words=tuple(query + short),
                   folded=tuple(folded), folded_words=frozenset(w for f in folded for w in f.split()),
                   read_words=tuple(read))


@dataclass(frozen=True)
class Spotted:
    """What spotting found in print too small to read (``identification.namesakes``, ``CatalogNames``)."""

    names: Mapping[str, float] = field(default_factory=lambda: _EMPTY)  # name -> similarity (``names.spotted_similarity``)
    numbers: Mapping[str, float] = field(default_factory=lambda: _EMPTY)  # number -> credit
    likeliest_number: str | None = None  # the tie-break among namesakes
    context: Mapping[Any, float] = field(default_factory=lambda: _EMPTY)  # card id -> credit for its release and set spotted


@dataclass(frozen=True)
class Evidence:
    text: Text
    read_whole: frozenset[str] = frozenset()  # catalog names read as a whole line
    spotted: Spotted = field(default_factory=Spotted)
    near: frozenset[str] = frozenset()  # names no lookup but their shared letter pairs found (``CatalogNames.near_in``)
    # name -> its similarity to the lines read (``names.name_similarity``): a memo of what the fields fix
    similarities: dict[str, float] = field(default_factory=dict, init=False, repr=False, compare=False)
    # card number -> its credit (``numbers.number_read``), a memo of this evidence alone (spotting changes it)
    number_credits: dict[str, float] = field(default_factory=dict, init=False, repr=False, compare=False)

    def with_read_whole(self, names: frozenset[str] | set[str]) -> Evidence:
        return replace(self, read_whole=frozenset(names))

    def with_near(self, names: frozenset[str] | set[str]) -> Evidence:
        new = replace(self, near=frozenset(names))
        new.similarities.update(self.similarities)  # read similarities do not depend on how a name was found
        return new

    def with_spotted(self, **found: Any) -> Evidence:
        new = replace(self, spotted=replace(self.spotted, **{k: _frozen(v) for k, v in found.items()}))
        new.similarities.update(self.similarities)  # read similarities do not depend on spotting
        return new


    def with_spotted_as(self, spotted: Spotted) -> Evidence:
        """This evidence with what an earlier one spotted (a further read's lines merged)."""
        new = replace(self, spotted=spotted)
        new.similarities.update(self.similarities)
        return new


def _frozen(v: Any) -> Any:
    return MappingProxyType(dict(v)) if isinstance(v, dict) else v


def evidence(lines: list[str]) -> Evidence:
    return Evidence(Text.of(lines))
