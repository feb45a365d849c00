"""Parsing OCR text: normalisation, card numbers, serials (``23/50``), years and slab labels."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

COMPANIES = {  # label keyword -> grading company abbreviation (as in the grades reference data)
    "PSA": "PSA", "BGS": "BGS", "BECKETT": "BGS", "SGC": "SGC", "CGC": "CGC", "TAG": "TAG",
    "HGA": "HGA", "CSG": "CSG",
}
_GRADE_WORDS = r"(?:GEM\s*-?\s*MI?N?T|GEM\s*MT|PRISTINE|BLACK\s*LABEL|MINT\+?|NM\s*-?\s*MT\+?|NM|EX\s*-?\s*MT|EX|VG\s*-?\s*EX|VG|GOOD|FAIR|POOR|AUTHENTIC)"
_GRADE_RE = re.compile(r"^(10|[1-9](?:\.5)?)$")
_GRADE_NEAR = re.compile(_GRADE_WORDS + r"\s*[:\-]?\s*(10|[1-9](?:\.5)?)\b")
_CERT_RE = re.compile(r"(?<!\d)(\d{7,10})(?!\d)")
_SERIAL_RE = re.compile(r"(?<![\d/])(\d{1,4})\s*/\s*(\d{1,4})(?![\d/])")
_YEAR_RE = re.compile(r"(?<!\d)(19[5-9]\d|20[0-4]\d)(?!\d)")


def ascii_text(s: str) -> str:
    """``s`` with accents dropped and anything else outside ASCII removed, case kept."""
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()


def norm(s: str) -> str:
    s = ascii_text(s)
    return re.sub(r"[^a-z0-9#/ ]+", " ", s.lower()).strip()


# Letters small serif print is misread as (``c`` -> ``e``, ``l`` -> ``i``, ``rn`` -> ``m``): folding both the
# OCR text and the catalog name with the same map makes "Riek Toeehet" meet "Rick Tocchet".
FOLD_PAIRS = (("rn", "m"), ("vv", "w"), ("c", "e"), ("l", "i"), ("1", "i"), ("0", "o"))


def fold(s: str) -> str:
    """``norm(s)`` with OCR-confusable letters folded together (see ``FOLD_PAIRS``)."""
    s = norm(s)
    for a, b in FOLD_PAIRS:
        s = s.replace(a, b)
    return s


_ASCENDERS, _DESCENDERS = set("bdfhklt"), set("gjpqy")


def word_shape(word: str) -> str:
    """The outline of a printed word, which survives blur that loses its letters: ``A`` for a tall
    letter (capital, digit, ascender), ``D`` for a descender, ``x`` for the rest ("Coffey" and
    "Callry" are both ``AxAAxD``). Case matters, so give it the text as read, not ``norm``ed."""
    s = ascii_text(word)
    return "".join("A" if ch.isupper() or ch.isdigit() or ch in _ASCENDERS else "D" if ch in _DESCENDERS else "x"
                   for ch in s if ch.isalnum())


def edit_distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def raw_words(s: str) -> list[str]:
    """The words of ``s`` with their case kept (for ``word_shape``)."""
    return [w for w in re.split(r"[^A-Za-z0-9]+", ascii_text(s)) if w]


def words(s: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", norm(s)) if w]


def years(lines: list[str]) -> list[str]:
    return [m.group(1) for line in lines for m in _YEAR_RE.finditer(line)]


def serials(lines: list[str]) -> list[tuple[int, int]]:
    """``(serial, print run)`` pairs such as 23/50 (numbers like 4/102 are kept; the caller decides)."""
    out = []
    for line in lines:
        for m in _SERIAL_RE.finditer(line.replace(" ", "")):
            a, b = int(m.group(1)), int(m.group(2))
            if 1 <= a <= b:
                out.append((a, b))
    return out


# a number read alone behind stray marks and at most one stray letter ("b= 8513" for #513 with its "#"
# read as an "8"; "—8213"): the digits, which ``number_read`` then weighs as it weighs a lone token
_BEHIND_MARKS = re.compile(r"^[^A-Za-z0-9]*(?:[A-Za-z][^A-Za-z0-9]+)?(\d{2,5})[^A-Za-z0-9]*$")


# a lone token of a letter prefix, some of its letters read as digits, a hyphen and digits ("Me11-01" for
# McH-01): ``identification.numbers.prefix_misread`` weighs it
_PREFIX_MISREAD = re.compile(r"[A-Za-z][A-Za-z0-9]{1,3}-\d{1,4}")


def numbers(lines: list[str]) -> set[str]:
    """Candidate card numbers: ``#12``, ``No. 12``, ``RA-PS``, ``4/102`` (-> ``4``), lone short tokens,
    digits alone behind stray marks (``_BEHIND_MARKS``)."""
    out: set[str] = set()
    for line in lines:
        t = line.strip()
        behind = _BEHIND_MARKS.match(t)
        if behind:
            out.add(behind.group(1))
        for m in re.finditer(r"#\s*([A-Za-z0-9][A-Za-z0-9\-]{0,9})", t):
            out.add(m.group(1).lower())
        for m in re.finditer(r"\bno\.?\s*([0-9][A-Za-z0-9\-]{0,6})\b", t, re.I):
            out.add(m.group(1).lower())
        for m in _SERIAL_RE.finditer(t.replace(" ", "")):
            out.add(m.group(1).lstrip("0") or "0")
        if re.fullmatch(r"[A-Za-z]{0,4}-?\d{1,4}[A-Za-z]?", t) or _PREFIX_MISREAD.fullmatch(t):
            out.add(t.lower())
    return out


@dataclass
class SlabLabel:
    company: str | None = None  # abbreviation
    grade: str | None = None
    cert: str | None = None
    text: str = ""
    by_colour: bool = False  # company judged from the label's colours, not read


# digits a blurred label's letters are read as (P5A, 8GS, 5GC, C6C); a token is mapped only when it
# mixes letters and digits, so grades and cert numbers stay numbers
_LABEL_DIGITS = str.maketrans({"5": "S", "8": "B", "6": "G", "0": "O", "1": "I"})


def _company_token(tok: str) -> str:
    if tok.isalpha() or tok.isdigit() or not 3 <= len(tok) <= 7:
        return tok
    return tok.translate(_LABEL_DIGITS)


def parse_label(lines: list[str]) -> SlabLabel:
    up = [re.sub(r"\s+", " ", unicodedata.normalize("NFKD", line).upper()).strip() for line in lines]
    label = SlabLabel(text=" | ".join(up))
    for line in up:
        for tok in re.split(r"[^A-Z0-9]+", line):
            tok = _company_token(tok)
            if tok in COMPANIES and label.company is None:
                label.company = COMPANIES[tok]
    for line in up:
        m = _GRADE_NEAR.search(line)
        if m:
            label.grade = m.group(1)
            break
    if label.grade is None:
        for i, line in enumerate(up):
            if _GRADE_RE.match(line.replace(" ", "")):
                near = " ".join(up[max(0, i - 1): i + 2])
                if re.search(_GRADE_WORDS, near) or label.company:
                    label.grade = line.replace(" ", "")
                    break
    for line in up:
        m = _CERT_RE.search(line.replace(" ", ""))
        if m:
            label.cert = m.group(1)
            break
    return label
