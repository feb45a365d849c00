"""Question -> question family, learnt from the labelled examples of ``prompts/intents.yaml``: a
linear model over the question's sentence embedding and its cue words (the family words it uses),
fitted in closed form when the process starts. Names are masked first (words the examples only
ever capitalise), so a family is recognised by the words around the name. ``classify`` returns
``(None, 0)`` when the embeddings are unavailable (the caller then uses word patterns),
``("none", c)`` when no example is near enough and ``("unknown", c)`` for out-of-scope questions.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from agent import embeddings
from tools._linking import NEVER_NAMES, Reading, read

BANK = Path(__file__).resolve().parents[2] / "prompts" / "intents.yaml"  # the top-level prompts/
THRESHOLD = 0.52       # the chosen family's nearest example at least this similar, or nothing fits
RIDGE = 1.0            # the linear model's regularisation: larger leans on the examples' average
CUE_WEIGHT = 0.5       # a cue word's feature beside the (unit-length) sentence embedding
TOP_K = 3
WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")
_LOCK = threading.Lock()
_STATE: dict[str, Any] = {}


def load_bank(path: Path = BANK) -> dict[str, list[str]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(k): [str(x) for x in v] for k, v in data.items()}


@lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """Words the examples use in lowercase: family words, never masked."""
    return bank_words(load_bank())


def bank_words(bank: dict[str, list[str]]) -> frozenset[str]:
    words = set(NEVER_NAMES)
    for examples in bank.values():
        for ex in examples:
            words |= {w for w in WORD.findall(ex) if w.islower()}
    return frozenset(words)


def _near(word: str, vocab: frozenset[str]) -> str | None:
    """A family word one edit away ("colection" -> "collection"), for words of 5+ letters."""
    if len(word) < 5 or everyday(word):
        return None   # a word in its own right ("light" is not a mistyped "flight")
    index = _deletions(vocab)
    near = sorted({v for key in _shortened(word) for v in index.get(key, ())})
    return next((v for v in near if one_edit(word, v)), None)


def _shortened(word: str) -> set[str]:
    return {word, *(word[:i] + word[i + 1:] for i in range(len(word)))}


@lru_cache(maxsize=4)
def _deletions(vocab: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The family words of 5+ letters under themselves and each one-letter deletion: two words one edit
    apart share a key, so a typo's candidates are found without scanning the vocabulary."""
    index: dict[str, set[str]] = {}
    for v in vocab:
        if len(v) >= 5:
            for key in _shortened(v):
                index.setdefault(key, set()).add(v)
    return {key: tuple(words) for key, words in index.items()}


def everyday(word: str) -> bool:
    """An everyday English word (the MiniLM vocabulary's first whole words), whatever its case."""
    from tools.catalog_link import common_words

    return word.lower() in common_words()


def one_edit(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by one letter added, dropped or changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def mask(text: str, vocab: frozenset[str] | None = None, reading: Reading | None = None) -> str:
    """Leftover words that are not family words become X ("cheapest ozzie smith" -> "cheapest X");
    a family word with a typo is corrected first. ``reading``: ``read(text)``, when the caller has it."""
    vocab = vocabulary() if vocab is None else vocab
    r = read(text) if reading is None else reading
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

    reading = read(text)
    masked = _names_spread(reading, mask(text, reading=reading))
    masked = re.sub(r"[A-Za-z][A-Za-z'\-]*", lambda m: "X" if m.group(0).lower() in BRANDS or m.group(0).lower() in
                    DOMAIN_WORDS or m.group(0).lower() in SEGMENT_WORDS else m.group(0), masked)
    masked = re.sub(r"X(\s+X)+", "X", masked)
    return "X" in masked and re.fullmatch(r"[X\d\s#/.,:'&()\-]*|[X\d\s#/.,:'&()\-]*[A-Za-z]{1,4}-?\d+[X\d\s#/.,\-]*",
                                          masked) is not None


def _names_spread(reading: Reading, masked: str) -> str:
    """A leftover family word beside a name is part of it ("team rocket dark charizard": "team" and "dark" are
    family words only for their everyday senses); question words, constraints and attributes never are."""
    from tools._linking import ATTRIBUTES

    vocab = vocabulary()
    left = {w.lower() for _, w in reading.tokens}
    words = masked.split()
    return " ".join("X" if (low := w.lower()) in left and low in vocab and len(low) > 2 and low not in NEVER_NAMES
                    and low not in ATTRIBUTES and "X" in words[max(i - 1, 0):i] + words[i + 1:i + 2] else w
                    for i, w in enumerate(words))


class Model:
    """A family's score: how near its closest examples are (mean of the nearest three and the nearest)
    plus a ridge model's over the sentence embedding and the cue words the question uses."""

    def __init__(self, bank: dict[str, list[str]], enc: Any) -> None:
        self.enc = enc
        self.vocab = bank_words(bank)
        self.labels = [label for label, examples in bank.items() for _ in examples]
        self.families = list(bank)
        self.rows = [np.array([i for i, lb in enumerate(self.labels) if lb == f]) for f in self.families]
        masked = [mask(ex, self.vocab) for examples in bank.values() for ex in examples]
        self.matrix = np.asarray(embeddings.encode_fixed(enc, masked), dtype=np.float64)
        self.cues = {w: i for i, w in enumerate(sorted({w for t in masked for w in self._words(t)}))}
        x = np.hstack([self.matrix, self._cue_rows(masked)])
        y = -np.ones((len(self.labels), len(self.families)))
        y[np.arange(len(self.labels)), [self.families.index(lb) for lb in self.labels]] = 1.0
        self.weights = np.linalg.solve(x.T @ x + RIDGE * np.eye(x.shape[1]), x.T @ y)

    @staticmethod
    def _words(masked: str) -> set[str]:
        return {w.lower() for w in WORD.findall(masked) if w != "X"}

    def _cue_rows(self, masked: list[str]) -> Any:
        rows = np.zeros((len(masked), len(self.cues) + 1))
        rows[:, -1] = 1.0   # the bias
        for i, text in enumerate(masked):
            for w in self._words(text):
                if w in self.cues:
                    rows[i, self.cues[w]] = CUE_WEIGHT
        return rows

    def rank(self, text: str) -> tuple[str, float, dict[str, float]]:
        masked = mask(text, self.vocab)
        vec = np.asarray(self.enc.encode([masked])[0], dtype=np.float64)
        sims = self.matrix @ vec
        ridge = np.concatenate([vec, self._cue_rows([masked])[0]]) @ self.weights
        nearest = [np.sort(sims[rows])[::-1][:TOP_K] for rows in self.rows]
        out = ridge + np.array([0.5 * top.mean() + 0.5 * top[0] for top in nearest])
        scores = {f: round(float(v), 4) for f, v in zip(self.families, out)}
        best = int(np.argmax(out))
        near = float(nearest[best][0])
        if near < THRESHOLD:
            return "none", round(near, 3), scores   # no close example: nothing fits
        return self.families[best], round(near, 3), scores


def _index() -> Model | None:
    if "index" in _STATE:
        return _STATE["index"]
    with _LOCK:
        if "index" in _STATE:
            return _STATE["index"]
        enc = embeddings.encoder()
        _STATE["index"] = Model(load_bank(), enc) if enc is not None else None
        return _STATE["index"]


def warm() -> bool:
    """Load the model and embed the examples now (at process start); True when embeddings are used."""
    return _index() is not None


def classify(text: str) -> tuple[str | None, float]:
    name, confidence, _ = ranked(text)
    return name, confidence


@lru_cache(maxsize=2048)
def ranked(text: str) -> tuple[str | None, float, dict[str, float]]:
    """(family or "none"/"unknown", confidence, every family's score)."""
    model = _index()
    if model is None:
        return None, 0.0, {}
    return model.rank(text)
