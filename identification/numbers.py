"""Whether a card's number was read: exactly, behind a stray character, with its letter prefix blurred,
or spotted (no I/O here)."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from identification.evidence import Evidence, number_key
from identification.thresholds import THRESHOLDS as T
from vision.text import fold

_PREFIXED = re.compile(r"([a-z]{2,4})(\d{1,4})")


def number_forms(ev: Evidence) -> list[str]:
    """The numbers read as a catalog may write them (lowercase; "12" also as "012")."""
    return sorted({f for n in ev.text.numbers for f in (n, n.zfill(3) if n.isdigit() else n)})


def number_read(ev: Evidence, number: str | None) -> float:
    """1.0 when ``number`` was read, without its leading zeros, or behind one "0" (a blurred "#" is
    often read as one: "#96" as "096"; not two, or "006" would read as #6); ``T.loose_number`` when a
    token read is the number behind one other stray character, the "#" read as another ("139" for
    #39, "427" for #27; two digits or more, since "12" for #2 is as likely a different card); else 0.
    Memoised per evidence: each step of a card's reads scores every candidate's number again, two or three
    times a score."""
    if not number:
        return 0.0
    credit = ev.number_credits.get(number)
    if credit is None:
        credit = ev.number_credits[number] = _number_read(ev, number)
    return credit


def _number_read(ev: Evidence, number: str) -> float:
    n = number_key(number)
    read = ev.text.number_keys
    if _exact_forms(n) & read:
        return 1.0
    if len(n) >= 2 and any(len(x) == len(n) + 1 and x.endswith(n) for x in read):
        return T.loose_number
    if any(prefix_misread(n, x) for x in read):
        return T.prefix_misread
    spotted = ev.spotted.numbers.get(number, 0.0)
    if any(same_prefix(n, x) or digits_behind_prefix(n, x) for x in ev.text.numbers):
        return max(spotted, T.prefix_class)
    return spotted


def prefix_misread(key: str, read: str) -> bool:
    """A number with a letter prefix ("McH-05", "RC-12"; as ``number_key``s) read with its digits exact and
    its prefix's letters partly misread, its first letter right ("Mell-05" and "MeH-05" for McH-05: small
    capitals blur into other letters, while the digits after them stay legible; "Me11-01" for McH-01: a
    letter of the prefix read as a digit)."""
    a = _PREFIXED.fullmatch(key)
    if not a:
        return False
    pa, digits = a.group(1), a.group(2)
    b = _PREFIXED.fullmatch(read)
    if b and b.group(2).lstrip("0") == digits.lstrip("0"):
        pb = b.group(1)
    elif read.endswith(digits) and read[:1].isalpha():  # the prefix's letters read as digits ("Me11-01")
        pb = read[:-len(digits)]
    else:
        return False
    # read at full length or one letter longer ("No 1" is no "NNO1"), its first letter right
    return (pa != pb and pa[0] == pb[0] and len(pa) <= len(pb) <= len(pa) + 1
            and SequenceMatcher(None, fold(pa), fold(pb)).ratio() >= 0.5)


# glyphs small capitals and digits blur into (folded on both sides): "H" read as "ll" or "11", "c" as "e"
_GLYPHS = (("ll", "h"), ("11", "h"), ("il", "h"), ("li", "h"), ("1l", "h"), ("l1", "h"), ("c", "e"), ("1", "i"),
           ("l", "i"), ("0", "o"), ("5", "s"), ("8", "b"))
_READ_PREFIXED = re.compile(r"([a-z]{2,5})(\d{1,4})")


def fold_prefix(prefix: str) -> str:
    """A number's letter prefix with confusable glyphs folded ("Mell", "Me11", "MeH" and "McH" all fold alike)."""
    p = prefix.lower()
    for a, b in _GLYPHS:
        p = p.replace(a, b)
    return p


def read_prefix(token: str) -> str | None:
    """The letter prefix of a number as read (``Text.numbers``, hyphen kept): "mell-41" and "mell4" -> "mell"."""
    head, sep, tail = token.partition("-")
    if sep:
        return head if len(head) >= 2 and head[0].isalpha() and tail.isdigit() else None
    m = _READ_PREFIXED.fullmatch(token)
    return m.group(1) if m else None


def same_prefix(key: str, token: str) -> bool:
    """A catalog number with a letter prefix (as a ``number_key``) and a number read whose prefix folds to the
    same (``fold_prefix``) though its digits are not the card's: a hologram's "McH-05" read "Mell4" tells it
    from the player's base card "Mc-1" by the prefix alone (the digits blur; a class, not one card)."""
    a = _PREFIXED.fullmatch(key)
    b = read_prefix(token)
    return bool(a and b and fold_prefix(a.group(1)) == fold_prefix(b))


# the letters a catalog may print for each folded glyph of a prefix (``_GLYPHS`` read backwards, letters only)
_SPELLINGS = {b: (b, *alts) for b in dict.fromkeys(b for _, b in _GLYPHS)
              if (alts := tuple(a for a, x in _GLYPHS if x == b and a.isalpha()))}


def prefix_spellings(token: str) -> list[str]:
    """The catalog spellings (lowercase letters) of the letter prefix of a number read (``read_prefix``) that
    fold alike: "mell-06" -> "mch", "meh", "mell" ...; none for a number without one (at most 32)."""
    prefix = read_prefix(token)
    if prefix is None:
        return []
    out = [""]
    for ch in fold_prefix(prefix):
        out = [o + s for o in out for s in _SPELLINGS.get(ch, (ch,))][:32]
    return sorted(o for o in out if fold_prefix(o) == fold_prefix(prefix))


def prefixed_number_read(ev: Evidence, number: str | None) -> bool:
    """The card's number has a letter prefix and was read with its digits exact (its prefix exact or
    misread: ``number_read`` ``T.prefix_misread`` or more): it names a set's class of cards, not a
    stray digit does."""
    return bool(number and _PREFIXED.fullmatch(number_key(number)) and number_read(ev, number) >= T.prefix_misread)


def digits_behind_prefix(key: str, token: str) -> bool:
    """A catalog number with a letter prefix (a ``number_key``) and a number read as letters, a hyphen and
    the card's digits exactly, two or more with their zero padding, its prefix as long but misread whole
    ("tel-01" for McH-01: the small capitals illegible, the digits after the hyphen not)."""
    a = _PREFIXED.fullmatch(key)
    head, sep, tail = token.partition("-")
    return bool(a and sep and head.isalpha() and len(head) == len(a.group(1)) and len(tail) >= 2
                and tail == a.group(2))


def _exact_forms(key: str) -> set[str]:
    """A number key as ``number_read`` credits it in full: as is, without its leading zeros, behind one "0"."""
    return {key, key.lstrip("0"), "0" + key}


def stray_number(ev: Evidence, number: str | None) -> bool:
    """The number was credited only through a line of one character ("1" beside a name: a stroke of
    blur or the card's edge reads as one as readily as a printed number; "#1" or "1/102" is not
    this)."""
    if not number or number_read(ev, number) < 1.0:
        return False
    return not (_exact_forms(number_key(number)) & (ev.text.number_keys - ev.text.stray_keys))
