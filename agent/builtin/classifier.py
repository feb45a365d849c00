"""Question -> question family by nearest labelled examples (``prompts/intents.yaml``) in
sentence-embedding space. Names are masked first (words the examples only ever capitalise), so a
family is recognised by the words around the name. ``classify`` returns ``(None, 0)`` when the
embeddings are unavailable (the caller then uses word patterns), ``("none", c)`` below the
confidence threshold and ``("unknown", c)`` for questions like the out-of-scope examples.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from agent import embeddings
from tools._linking import NEVER_NAMES, read

BANK = Path(__file__).resolve().parents[2] / "prompts" / "intents.yaml"  # the top-level prompts/
THRESHOLD = 0.52       # below this best similarity nothing fits: say what can be done instead
TOP_K = 3
_LOCK = threading.Lock()
_STATE: dict[str, Any] = {}


def load_bank(path: Path = BANK) -> dict[str, list[str]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(k): [str(x) for x in v] for k, v in data.items()}


@lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """Words the examples use in lowercase: family words, never masked."""
    words = set(NEVER_NAMES)
    for examples in load_bank().values():
        for ex in examples:
            words |= {w for w in re.findall(r"[A-Za-z][A-Za-z'\-]*", ex) if w.islower()}
    return frozenset(words)


def _near(word: str, vocab: frozenset[str]) -> str | None:
    """A family word one edit away ("colection" -> "collection"), for words of 5+ letters."""
    if len(word) < 5 or everyday(word):
        return None   # a word in its own right ("light" is not a mistyped "flight")
    for v in vocab:
        if abs(len(v) - len(word)) <= 1 and len(v) >= 5 and _one_edit(word, v):
            return v
    return None


def everyday(word: str) -> bool:
    """An everyday English word (the MiniLM vocabulary's first whole words), whatever its case."""
    from tools.catalog_link import common_words

    return word.lower() in common_words()


def _one_edit(a: str, b: str) -> bool:
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def mask(text: str) -> str:
    """Leftover words that are not family words become X ("cheapest ozzie smith" -> "cheapest X");
    a family word with a typo is corrected first."""
    vocab = vocabulary()
    r = read(text)
    out = text
    for pos, word in sorted(r.tokens, reverse=True):
        low = word.lower()
        if low not in vocab and not word.isdigit():
            fixed = _near(low, vocab)
            out = out[:pos] + (fixed or "X") + out[pos + len(word):]
    return re.sub(r"X(\s+X)+", "X", out)


def bare_name(text: str) -> bool:
    """Nothing but names, years and card numbers ("john kruk 89 fleer", "larry bird 1986 fleer
    basketball"): no family words at all (release, brand and sport words count as names here)."""
    from tools._linking import BRANDS, DOMAIN_WORDS, SEGMENT_WORDS

    masked = mask(text)
    masked = re.sub(r"[A-Za-z][A-Za-z'\-]*", lambda m: "X" if m.group(0).lower() in BRANDS or m.group(0).lower() in
                    DOMAIN_WORDS or m.group(0).lower() in SEGMENT_WORDS else m.group(0), masked)
    masked = re.sub(r"X(\s+X)+", "X", masked)
    return "X" in masked and re.fullmatch(r"[X\d\s#/.,:'&()\-]*|[X\d\s#/.,:'&()\-]*[A-Za-z]{1,4}-?\d+[X\d\s#/.,\-]*",
                                          masked) is not None


def _index() -> tuple[Any, list[str]] | None:
    if "index" in _STATE:
        return _STATE["index"]
    with _LOCK:
        if "index" in _STATE:
            return _STATE["index"]
        enc = embeddings.encoder()
        index = None
        if enc is not None:
            labels, texts = [], []
            for label, examples in load_bank().items():
                for ex in examples:
                    labels.append(label)
                    texts.append(mask(ex))
            index = (enc.encode(texts), labels)
        _STATE["index"] = index
        return index


def warm() -> bool:
    """Load the model and embed the examples now (at process start); True when embeddings are used."""
    return _index() is not None


def classify(text: str) -> tuple[str | None, float]:
    name, confidence, _ = ranked(text)
    return name, confidence


@lru_cache(maxsize=2048)
def ranked(text: str) -> tuple[str | None, float, dict[str, float]]:
    """(family or "none"/"unknown", confidence, every family's score)."""
    index = _index()
    if index is None:
        return None, 0.0, {}
    matrix, labels = index
    enc = embeddings.encoder()
    assert enc is not None
    vec = enc.encode([mask(text)])[0]
    sims = (matrix @ vec).tolist()
    per: dict[str, list[float]] = {}
    for label, s in zip(labels, sims):
        per.setdefault(label, []).append(s)
    scored = {label: sum(sorted(v, reverse=True)[:TOP_K]) / min(TOP_K, len(v)) * 0.5 + max(v) * 0.5
              for label, v in per.items()}
    best = max(scored, key=scored.__getitem__)
    confidence = max(per[best])
    if confidence < THRESHOLD:
        return "none", confidence, scored
    return best, round(confidence, 3), scored
