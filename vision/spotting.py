"""Spotting catalog names in a garbled line read (CTC keyword spotting).

Print a few pixels tall comes back from the recogniser garbled ("Barres Tarvstie" for Darren
Turcotte), yet its per-frame probabilities (``ocr.frames``) still hold the name: the
likelihood of a given text under the recogniser's CTC output is far higher for the name printed
than for any other. ``NameSpotter`` holds the catalog's names encoded once, over the columns of
``ocr.frames`` output for the classes the names use (``alphabet``: about a hundred of the
recogniser's ~18,700, so a line costs kilobytes, not megabytes); ``spot`` scores a line against
them in two steps, so a catalog of any size costs one gather per name:

1. a shortlist by the letters each name needs, each at its best frame anywhere in the line
   (order ignored, a table lookup per letter);
2. the exact CTC likelihood of each shortlisted name, all names at once (the forward algorithm
   vectorised over names and label positions).

A name's score is its log-likelihood less that of the recogniser's own best reading, per letter
(0 = the name is what the recogniser read; on the real scans' photos the printed name scored
-0.1 to -2.5, other names -2 and below). Each name is tried as written and in capitals.
"""

from __future__ import annotations

import numpy as np

from vision.text import ascii_text

MIN_LETTERS = 7  # shorter names (most Pokemon) fit blurred print too easily to be spotted; they are
# printed large, not small
MAX_LETTERS = 40  # longer names are not spotted (one would widen every name's row)
MIN_READ_SHARE = 0.3  # a name is scored on a line whose best reading has 30 % of its characters or more
SHORTLIST = 32  # names given the exact likelihood per line, after the letter-by-letter shortlist
_CHUNK = 65536  # names per step of the shortlist (bounds its temporary memory)
_NEG = -1e30


class NameSpotter:
    def __init__(self, names: list[str], charset: list[str]):
        index = {ch: i for i, ch in enumerate(charset)}
        self.names = list(names)
        # each name as written and in capitals, filled straight into arrays (no list per name);
        # int16 holds every class of the recogniser (~18,700): 300,000 names take ~25 MB
        labels = np.zeros((2 * len(self.names), MAX_LETTERS), dtype=np.int16 if len(charset) < 2**15 else np.int32)
        owner = np.zeros(len(labels), dtype=np.int32)
        lengths = np.zeros(len(labels), dtype=np.int16)
        k = 0
        for i, name in enumerate(self.names):
            if sum(1 for ch in name if ch.isalnum()) < MIN_LETTERS:
                continue
            for form in {name, name.upper()}:
                ids = _encode(form, index)
                if 0 < len(ids) <= MAX_LETTERS:
                    labels[k, :len(ids)], owner[k], lengths[k] = ids, i, len(ids)
                    k += 1
        width = int(lengths[:k].max()) if k else 1
        self.labels = np.ascontiguousarray(labels[:k, :width])
        self.owner, self.lengths = owner[:k].copy(), lengths[:k].copy()

    def spot(self, probs: np.ndarray, *, allowed: np.ndarray | None = None, extra: list[int] = (),
             shortlist: int = SHORTLIST) -> dict[int, float]:
        """``{name index: score}`` for the shortlisted names (and ``extra`` ones) on one line's
        frame probabilities; ``allowed``: a boolean mask over names (e.g. one segment's)."""
        if not len(self.owner) or probs.ndim != 2 or probs.shape[0] < 2:
            return {}
        read = _characters_read(probs)
        if read < MIN_READ_SHARE * self.lengths.min():
            return {}  # too few characters read for any name (``ok`` below would drop every one)
        lp = np.log(np.maximum(probs, 1e-12))
        best = lp.max(axis=1)
        present = lp.max(axis=0).astype(np.float32)  # each class at its best frame
        present[0] = 0.0  # the padding
        bag = np.concatenate([present[self.labels[i:i + _CHUNK]].sum(axis=1)
                              for i in range(0, len(self.labels), _CHUNK)]) / self.lengths
        ok = np.ones(len(self.owner), bool) if allowed is None else allowed[self.owner]
        # the recogniser must see about as many characters as the name has: on a line it is unsure of
        # (a stripe, a smudge, read as "1") every name scores close to its own best path
        ok &= self.lengths <= read / MIN_READ_SHARE
        bag = np.where(ok, bag, -np.inf)
        order = np.argsort(-bag)[:shortlist]
        pick = order[np.isfinite(bag[order])]
        if len(extra):
            pick = np.union1d(pick, np.flatnonzero(np.isin(self.owner, np.asarray(extra)) & ok))
        if not len(pick):
            return {}
        rows = np.unique(pick).astype(np.int64)
        ll = _ctc_log_likelihood(lp, self.labels[rows].astype(np.int64), self.lengths[rows].astype(np.int64))
        score = (ll - best.sum()) / self.lengths[rows]
        out: dict[int, float] = {}
        for k, sc in zip(rows, score):
            o = int(self.owner[k])
            out[o] = max(out.get(o, -np.inf), float(sc))
        return out


BEST = "\x00best"  # the last column of ``ocr.frames`` output: each frame's largest probability


def alphabet(names: list[str], charset: list[str]) -> tuple[list[str], np.ndarray]:
    """The recogniser classes the names need (as written and in capitals, accents dropped where the
    recogniser has no such letter): ``(columns, classes)`` where ``classes`` are indices into
    ``charset`` for ``ocr.frames`` (the blank first) and ``columns`` names its output's columns
    (those classes, then ``BEST``) for ``NameSpotter``."""
    index = {ch: i for i, ch in enumerate(charset)}
    chars: set[str] = set()
    for name in names:
        for form in (name, name.upper()):
            chars.update(charset[i] for i in _encode(form, index))
    chars.discard(charset[0])
    ordered = sorted(chars)
    return [charset[0], *ordered, BEST], np.array([0, *(index[c] for c in ordered)], dtype=np.int64)


def _characters_read(probs: np.ndarray) -> float:
    """How many characters the recogniser's own best reading of the line has (CTC-collapsed), each
    counted by its probability: a stripe read as five letters at 0.1-0.4 counts about 1.3."""
    best = probs.argmax(axis=1)
    keep = np.concatenate([[True], best[1:] != best[:-1]]) & (best != 0)
    return float(probs.max(axis=1)[keep].sum())


def _encode(text: str, index: dict[str, int]) -> list[int]:
    out = []
    for ch in text:
        if ch not in index:
            ch = ascii_text(ch)
        if ch and ch in index:
            out.append(index[ch])
    return out


def _states(labels: np.ndarray, *, edges: bool) -> tuple[np.ndarray, np.ndarray]:
    """CTC's states for each row of ``labels``: the labels with a blank (0) between each two, and
    before the first and after the last if ``edges``; and where a state may be reached by skipping
    the blank before it (a label that differs from the one two states back)."""
    n, width = labels.shape
    ext = np.zeros((n, 2 * width + 1 if edges else 2 * width - 1), dtype=np.int64)
    ext[:, (1 if edges else 0)::2] = labels
    skip = np.zeros(ext.shape, bool)
    skip[:, 2:] = (ext[:, 2:] != 0) & (ext[:, 2:] != ext[:, :-2])
    return ext, skip


def _ctc_log_likelihood(lp: np.ndarray, labels: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """log P(label sequence | frames) under CTC for each row of ``labels`` (blank = 0, padded with
    0 past ``lengths``): the forward algorithm over the blank-interleaved sequences."""
    n = labels.shape[0]
    ext, skip = _states(labels, edges=True)
    emit = lp[:, ext]  # frames x names x states
    alpha = np.full(ext.shape, _NEG)
    alpha[:, 0] = emit[0, :, 0]
    alpha[:, 1] = emit[0, :, 1]
    for t in range(1, lp.shape[0]):
        stay = alpha
        step = np.concatenate([np.full((n, 1), _NEG), alpha[:, :-1]], axis=1)
        jump = np.where(skip, np.concatenate([np.full((n, 2), _NEG), alpha[:, :-2]], axis=1), _NEG)
        alpha = np.logaddexp(np.logaddexp(stay, step), jump) + emit[t]
    last = 2 * lengths
    r = np.arange(n)
    return np.logaddexp(alpha[r, last], alpha[r, last - 1])


def spot_numbers(probs: np.ndarray, columns: list[str], numbers: list[str]) -> dict[str, float]:
    """``{number: score}`` for card numbers printed somewhere in one line (``ocr.frames`` output over
    ``columns``, which must hold the digits): the likeliest reading of the line that has the number
    set off by a character that is not a digit, or the line's end, on either side ("#72", "72/102",
    "No. 72"; not the "99" inside "1999"), against the recogniser's own best reading, per character
    (0 = read as printed, below 0 the less likely). For telling apart a few cards that share their
    name, when blurred print no longer reads as their number."""
    return _spot_set_off(probs, columns, numbers, str.isdigit)


def spot_words(probs: np.ndarray, columns: list[str], terms: list[str]) -> dict[str, float]:
    """``{word: score}`` like ``spot_numbers`` for words (a release's or set's: "Topps", "Plasma")
    set off by a character that is not a letter, or the line's end ("1989 Topps Baseball"; not the
    "Set" inside "Sunset"). Case counts: pass each form printed ("Topps", "TOPPS")."""
    return _spot_set_off(probs, columns, terms, str.isalpha)


def _spot_set_off(probs: np.ndarray, columns: list[str], terms: list[str], kind) -> dict[str, float]:
    """``spot_numbers`` / ``spot_words``: ``kind`` tells the characters a term is made of (those that
    cannot set it off); terms with a character the columns lack are not scored."""
    index = {ch: i for i, ch in enumerate(columns)}
    same = [i for ch, i in index.items() if len(ch) == 1 and kind(ch)]
    forms = [[index[ch] for ch in n if ch in index] for n in terms]
    keep = [i for i, f in enumerate(forms) if f and len(f) == len(terms[i])]
    if not keep or not same or probs.ndim != 2 or probs.shape[0] < 2:
        return {}
    lp = np.log(np.maximum(probs, 1e-12))
    best = lp[:, -1]  # ``BEST``: each frame's largest probability over every class
    other = np.delete(lp[:, :-1], [0, *same], axis=1).max(axis=1)
    # a separator: any character of another kind; the columns hold a few of them, so a frame whose
    # best class is neither of the term's kind nor the blank (a class outside the columns) is a
    # separator at its best
    sep = np.where(np.maximum(lp[:, same].max(axis=1), lp[:, 0]) >= best - 1e-6, other, best)
    width = max(len(forms[i]) for i in keep)
    labels = np.zeros((len(keep), width), dtype=np.int64)
    lengths = np.array([len(forms[i]) for i in keep], dtype=np.int64)
    for r, i in enumerate(keep):
        labels[r, :lengths[r]] = forms[i]
    ll = _keyword_log_likelihood(lp, sep, labels, lengths)
    return {terms[i]: float((ll[r] - best.sum()) / lengths[r]) for r, i in enumerate(keep)}


def _keyword_log_likelihood(lp: np.ndarray, sep: np.ndarray, labels: np.ndarray, lengths: np.ndarray
                            ) -> np.ndarray:
    """The log-probability of the likeliest CTC path through a line that holds the label sequence
    set apart: anything (each frame's best, ``lp[:, -1]``), a separator frame (``sep``), blanks, the
    labels (blank-separated as CTC needs), blanks, a separator, anything; either end may instead be
    the line's own. The likeliest path, not the sum over paths as ``_ctc_log_likelihood``: summed, a
    short label gains from every place it could sit."""
    n = labels.shape[0]
    ext, skip = _states(labels, edges=False)  # l1 _ l2 _ ... lL: no blank before or after
    emit = lp[:, ext]
    free, blank = lp[:, -1], lp[:, 0]
    last = 2 * lengths - 2
    r = np.arange(n)
    # before the number: anything, separator, blanks (the same for every number)
    f0, s0, b0 = free[0], sep[0], blank[0]
    alpha = np.full(ext.shape, _NEG)
    alpha[:, 0] = emit[0, :, 0]
    b1 = s1 = f1 = np.full(n, _NEG)  # after it: blanks, separator, anything
    for t in range(1, lp.shape[0]):
        end = alpha[r, last]
        f1 = np.maximum(f1, s1) + free[t]
        s1 = np.maximum(np.maximum(s1, b1), end) + sep[t]
        b1 = np.maximum(b1, end) + blank[t]
        step = np.concatenate([np.full((n, 1), _NEG), alpha[:, :-1]], axis=1)
        jump = np.where(skip, np.concatenate([np.full((n, 2), _NEG), alpha[:, :-2]], axis=1), _NEG)
        alpha = np.maximum(np.maximum(alpha, step), jump)
        alpha[:, 0] = np.maximum(alpha[:, 0], max(s0, b0))
        alpha = alpha + emit[t]
        f0, s0, b0 = f0 + free[t], max(f0, s0) + sep[t], max(s0, b0) + blank[t]
    return np.maximum(np.maximum(alpha[r, last], b1), np.maximum(s1, f1))
