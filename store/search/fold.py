"""Text folding shared by indexing and querying: case, diacritics and punctuation ("Acuña, Jr." = "acuna jr")."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_APOSTROPHES = re.compile(r"['’`´]")
_POSSESSIVE = re.compile(r"['’]s$", re.I)
_NON_WORD = re.compile(r"[^a-z0-9]+")
_SEASON = re.compile(r"^\s*(\d{4})(?:\s*[-/]\s*(\d{2,4}))?\s*$")
_LIGATURES = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "þ": "th", "ı": "i"})


@lru_cache(maxsize=1 << 16)
def fold(text: str | None) -> str:
    """Lower-case ASCII words separated by single spaces; apostrophes join ("O'Neill" -> "oneill")."""
    if not text:
        return ""
    s = text.lower()
    if not s.isascii():
        s = unicodedata.normalize("NFKD", s.translate(_LIGATURES))
        s = "".join(c for c in s if not unicodedata.combining(c))
    s = _APOSTROPHES.sub("", s).replace("&", " and ")
    words = _NON_WORD.sub(" ", s).split()
    # initials join ("J.T. Snow", "J. T. Snow" and "JT Snow" are all "jt snow")
    out: list[str] = []
    run = False  # the last word out is made of single letters
    for w in words:
        initial = len(w) == 1 and w.isalpha()
        if initial and run:
            out[-1] += w
            continue
        out.append(w)
        run = initial
    return " ".join(out)


def fold_possessive(word: str) -> str:
    """One word folded without its possessive ("Bowman's" -> "bowman", not "bowmans")."""
    return fold(_POSSESSIVE.sub("", word))


def number_forms(token: str) -> list[str]:
    """A folded word as said, then as its plural and singular ("relic" -> relic, relics; "prizms" -> prizms,
    prizm): how the catalog may write the word a collector says."""
    forms = [token, token + "s"]
    if token.endswith("s") and len(token) > 1:
        forms.append(token[:-1])
    return list(dict.fromkeys(f for f in forms if f))


def tokens(text: str | None) -> list[str]:
    return fold(text).split()


def number_key(number: str | None) -> str:
    """A card number folded for equality: "#057" = "57", "RC-12" = "rc12"."""
    key = fold(number).replace(" ", "")
    return key.lstrip("0") or key[:1] if key.isdigit() else key


def season(year: str | None) -> tuple[int, int] | None:
    """(first, last) calendar year of "1986" or "1986-87"; None when it is not a year."""
    m = _SEASON.match(year or "")
    if not m:
        return None
    first = int(m.group(1))
    if not m.group(2):
        return first, first
    tail = m.group(2)
    last = int(tail) if len(tail) == 4 else (first // 100) * 100 + int(tail)
    return first, last if last >= first else last + 100


def year_tokens(year: str | None) -> list[str]:
    """What a year or season answers to: "1986-87" -> 1986, 87, 86, 1987."""
    span = season(year)
    if span is None:
        return tokens(year)
    out = []
    for y in sorted(set(span)):
        out += [str(y), f"{y % 100:02d}"]
    return out


def max_edits(token: str) -> int:
    """Typos tolerated in one query word: none under 4 letters or in numbers, 1 up to 7, 2 from 8."""
    if len(token) < 4 or any(map(str.isdigit, token)):
        return 0
    return 1 if len(token) < 8 else 2


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance with adjacent transpositions counting one (optimal string alignment)."""
    if a == b:
        return 0
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


# words collectors write for a longer name, added beside it when indexing
ABBREVIATIONS = {"o pee chee": "opc", "upper deck": "ud"}


def abbreviations(folded: str) -> list[str]:
    return [short for long, short in ABBREVIATIONS.items() if long in folded]
