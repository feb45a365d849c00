"""How collectors type, put back into the words the families are written in: a filler opening
("hey quick q, ...", "so ..."), texting short forms ("u", "ur", "pls", "w/") and a one-letter typo
in any family word of the example bank ("numbeerd", "wishlsit"), not only in a hand-kept list.
Names are left alone: only a word that is neither a family word nor an everyday word is respelt.
"""

from __future__ import annotations

import re
from functools import lru_cache

# a filler opening before the question proper, repeated ("hey so quick q - ...")
FILLER = re.compile(r"^\s*(?:(?:hey|hi|hiya|hello|yo|ok|okay|ok so|so|um+|uh+|well|alright|quick q|quick question|"
                    r"quick one|random q|random question)(?:\s+there)?(?:\s+but)?\s*(?:[,:;!\-]+\s*|\s+))+",
                    re.I)
# texting short forms the word patterns do not know, written out ("pls", "thx", "r" they already read)
SHORT_FORMS = {"u": "you", "ur": "your"}
_SHORT = re.compile(r"(?<!\S)(u|ur)(?=$|\s|[?!,.;:](?:\s|$))", re.I)   # a word alone ("U-156" is a number)
_WITHOUT = re.compile(r"(?<![\w/])w/o\b", re.I)
_WITH = re.compile(r"(?<![\w/])w/(?=\s|[A-Za-z]|$)\s*", re.I)
_SHORT_YEAR = re.compile(r"(?<![\w#/$.'])['\u2019](\d\d)\b(?!['\u2019])")
CENTURY_SPLIT = 30   # '00-'30 are this century, '31-'99 the last ("'87" -> 1987, "'24" -> 2024)
DROPPED_ONLY_LEN = 4   # a word this short is respelt only for a dropped letter (other edits make new words)
TYPO_MIN_LEN = 5         # words shorter than this are respelt only for a dropped letter
SUBSTITUTE_MIN_LEN = 6   # a changed letter is put right only in words this long (shorter ones are often names)
DROPPED_MIN_LEN = 7      # a dropped letter is put back only into words this long ("comer" is a name, not "corner")
MIN_REST_WORDS = 2   # a filler is dropped only when at least this many words are left ("hey" alone is a greeting)


def drop_filler(text: str) -> str:
    """The question without a filler opening: "hey quick q, whats X worth" -> "whats X worth"."""
    m = FILLER.match(text)
    if not m:
        return text
    rest = text[m.end():]
    if len(rest.split()) < MIN_REST_WORDS and not re.search(r"\d", rest):
        return text   # "hey there", "ok thanks": a greeting, not a filler before a question
    return rest


def write_out(text: str) -> str:
    """Texting short forms as words: "can u pls show ur cards w/ prices" -> "can you please show your cards with prices"."""
    text = _WITH.sub(lambda m: "with" + (" " if m.end() < len(m.string) else ""), _WITHOUT.sub("without", text))
    return _SHORT.sub(lambda m: SHORT_FORMS[m.group(1).lower()], text)


def full_years(text: str) -> str:
    """A year written with an apostrophe in full: "'87 topps" -> "1987 topps" (a bare "87" may be a number)."""
    return _SHORT_YEAR.sub(lambda m: ("20" if int(m.group(1)) <= CENTURY_SPLIT else "19") + m.group(1), text)


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """The words of 5+ letters the family word patterns spell out (intents, rewrites, planner) and the
    greetings and thanks: the words a question must spell exactly to be read, so those a typo is put right to."""
    from agent.builtin import classifier, intents, planner, rewrites

    sources = [intents.HARD, *(i.pattern for i in intents.INTENTS)]
    for module in (intents, rewrites, planner):
        sources += [v.pattern for v in vars(module).values() if isinstance(v, re.Pattern)]
    found = set(re.findall(r"[a-z]{5,}", " ".join(map(str, sources))))
    chat = {w for w in intents.CHAT if w.isalpha() and len(w) > DROPPED_ONLY_LEN}   # "thnk u" is thanks, not a name
    return frozenset(w for w in found if w in classifier.vocabulary() or classifier.everyday(w)) | chat


@lru_cache(maxsize=1)
def release_words() -> frozenset[str]:
    """Maker, product line and sport words ("fleer", "topps", "bowman", "basketball"), spelt right."""
    from agent.builtin.classifier import everyday
    from tools._linking import BRANDS, DOMAIN_WORDS

    return frozenset(w for w in BRANDS | DOMAIN_WORDS if w.isalpha() and (len(w) >= DROPPED_ONLY_LEN + 1 or everyday(w)))


def _candidates(low: str, targets: frozenset[str]) -> list[str]:
    """Words of ``targets`` one edit from ``low``, likeliest first: the same first letter ("toops" is
    "topps" before "hoops"), then a dropped letter ("cheapet" is "cheapest" before "cheaper"), then an
    added one ("gradde" is "grade" before "graded"), then alphabetical order."""
    from agent.builtin.classifier import _deletions, one_edit

    index = _deletions(targets)
    keys = {low, *(low[:i] + low[i + 1:] for i in range(len(low)))}
    near = {v for k in keys for v in index.get(k, ()) if one_edit(low, v)}
    slips = {len(low) + 1: 0, len(low) - 1: 1}
    return sorted(near, key=lambda v: (v[0] != low[0], slips.get(len(v), 2), v))


def _known(low: str) -> bool:
    """A bank or everyday word, or one written without its apostrophe ("thats", "kids")."""
    from agent.builtin.classifier import everyday, vocabulary

    forms = [low, *(f"{low[:i]}'{low[i:]}" for i in range(1, len(low)))]
    return any(f in vocabulary() or everyday(f) for f in forms)


def _plausible(low: str, word: str, substitute_min: int = 0) -> bool:
    """``low`` is a likely slip for ``word`` and not a name of its own: the first letter kept; a changed
    letter only in a word of SUBSTITUTE_MIN_LEN+ ("jetter" is not "letter", "shawn" not "shown"); a
    dropped letter only from a word of DROPPED_MIN_LEN+ ("comer" is not "corner")."""
    if word[0] != low[0]:
        return False
    if len(word) == len(low) and sorted(word) != sorted(low):
        return len(low) >= (substitute_min or SUBSTITUTE_MIN_LEN)
    return len(word) <= len(low) or len(word) >= DROPPED_MIN_LEN


def family_word(word: str) -> str | None:
    """The word ``word`` mistypes by one letter (None for a known word or a name): a word the family
    patterns spell out or a release word, or a word of the example bank; in a word of 4 letters only a
    dropped letter ("wnts" -> "wants", "fler" -> "fleer")."""
    from agent.builtin.classifier import vocabulary

    low = word.lower()
    if _known(low) or low in release_words() or len(low) < DROPPED_ONLY_LEN:
        return None   # a word in its own right ("cars" is not a mistyped "cards", "thats" not "whats")
    if len(low) == DROPPED_ONLY_LEN:
        dropped = [v for v in _candidates(low, keywords() | release_words()) if len(v) == len(low) + 1 and v[0] == low[0]]
        return dropped[0] if len(dropped) == 1 else None
    # maker words are a closed set, so a changed letter is put right in them from 5 letters ("fkeer")
    strict = [v for v in _candidates(low, keywords() | release_words())
              if _plausible(low, v, TYPO_MIN_LEN if v in release_words() else 0)]
    bank = [v for v in _candidates(low, vocabulary()) if v.isalpha() and len(v) > DROPPED_ONLY_LEN and _plausible(low, v)]
    near = strict or bank
    return near[0] if near else None


def tidy(text: str) -> str:
    """``text`` as the families read it: filler dropped, short forms and years written out, family words respelt."""
    text = full_years(write_out(drop_filler(text)))
    return re.sub(r"\b[A-Za-z]{4,}\b", lambda m: family_word(m.group(0)) or m.group(0), text)
