"""The catalog's names held for spotting in garbled small print (``vision.spotting``).

One ``CatalogNames`` per process over every distinct name of the identifiable sets (the caller rebuilds
it when the catalog changes), with the segment of each name, so a segment's photo spots only its own
names.
"""

from __future__ import annotations

import string
import uuid
from collections.abc import Sequence

import numpy as np

from identification.thresholds import THRESHOLDS as T
from vision import ocr
from vision.spotting import NameSpotter, alphabet, spot_numbers, spot_words
from vision.text import fold

PRINTED = string.digits + string.ascii_letters  # card numbers, release and set words


class CatalogNames:
    def __init__(self, rows: list[tuple[str, uuid.UUID]]):
        names: dict[str, set[uuid.UUID]] = {}
        for name, segment in rows:
            names.setdefault(name, set()).add(segment)
        self.segments = list(names.values())
        # with the digits and letters, for card numbers and release words (``spot_numbers``, ``spot_words``)
        self.columns, self.classes = alphabet([*names, PRINTED], ocr.charset())
        self.spotter = NameSpotter(list(names), self.columns)
        self._position = {name: i for i, name in enumerate(names)}
        self._folded: dict[str, list[str]] = {}  # names as ``vision.text.fold`` writes them
        for name in names:
            self._folded.setdefault(fold(name), []).append(name)
        self._masks: dict[uuid.UUID, np.ndarray] = {}
        self._names = list(names)
        pairs: dict[str, list[int]] = {}  # letter pair -> the names (folded) that hold it
        self._pair_counts = np.zeros(len(self._names), np.int32)
        for i, name in enumerate(self._names):
            ps = letter_pairs(fold(name))
            self._pair_counts[i] = len(ps)
            for pair in ps:
                pairs.setdefault(pair, []).append(i)
        self._pairs = {pair: np.array(ids, np.int32) for pair, ids in pairs.items()}

    def folded_in(self, lines: Sequence[str]) -> list[str]:
        """The names a run of words of ``lines`` is, OCR-confusable letters folded ("Riek Toeehet" is Rick
        Tocchet: two confusables in a short word are beyond the search index's typo budget)."""
        out: dict[str, None] = {}
        for line in lines:
            ws = fold(line).split()
            for i in range(len(ws)):
                for j in range(i + 1, min(len(ws), i + 4) + 1):
                    run = " ".join(ws[i:j])
                    if len(run) >= 4:
                        out.update(dict.fromkeys(self._folded.get(run, ())))
        return list(out)

    def near_in(self, lines: Sequence[str]) -> list[str]:
        """The names nearest each line of two to four words (a player's name line) by the letter pairs
        they share (Dice, OCR-confusable letters folded), at most ``T.near_names`` a line at ``T.near_min``
        or more: a name read too garbled for the search index's typo budget ("Ray Boaryur", "Mrett Mall",
        "Vizernt Dunghossse") still shares most of its letter pairs; which of them the print shows,
        ``names.name_similarity`` decides."""
        out: dict[str, None] = {}
        for line in lines:
            ws = [w for w in fold(line).split() if w.isalpha()]
            if not 2 <= len(ws) <= 4 or sum(map(len, ws)) < 6:
                continue
            ps = letter_pairs(" ".join(ws))
            held = [self._pairs[p] for p in ps if p in self._pairs]
            if not held:
                continue
            shared = np.bincount(np.concatenate(held), minlength=len(self._names))
            dice = 2 * shared / (self._pair_counts + len(ps))
            top = np.argsort(-dice, kind="stable")[:T.near_names]
            out.update(dict.fromkeys(self._names[i] for i in top if dice[i] >= T.near_min))
        return list(out)

    def allowed(self, segment_id: uuid.UUID | None) -> np.ndarray | None:
        """The names of one segment (None: every name), as a mask over the spotter's names."""
        if segment_id is None:
            return None
        if segment_id not in self._masks:
            self._masks[segment_id] = np.array([segment_id in segs for segs in self.segments], dtype=bool)
        return self._masks[segment_id]

    def spot(self, probs: list[np.ndarray], *, segment_id: uuid.UUID | None, also: list[str],
             margin: float) -> dict[str, float]:
        """The names spotted, each with its best score over the lines where it beat every other name
        by ``margin`` (per letter): on a line that several names fit about equally (a large catalog,
        blurred print) none is spotted. ``also``: names always scored, e.g. the candidates the text
        already suggested."""
        allowed = self.allowed(segment_id)
        extra = [self._position[n] for n in also if n in self._position]
        best: dict[str, float] = {}
        for p in probs:
            scores = self.spotter.spot(p, allowed=allowed, extra=extra)
            ranked = sorted(scores.items(), key=lambda kv: -kv[1])
            if ranked and (len(ranked) == 1 or ranked[0][1] - ranked[1][1] >= margin):
                name = self.spotter.names[ranked[0][0]]
                best[name] = max(best.get(name, -np.inf), ranked[0][1])
        return best

    def spot_numbers(self, probs: list[np.ndarray], numbers: list[str]) -> dict[str, float]:
        """Each of ``numbers`` (a few cards' numbers) with its best score over the lines
        (``vision.spotting.spot_numbers``)."""
        return self._best(probs, numbers, spot_numbers)

    def spot_words(self, probs: list[np.ndarray], words: list[str]) -> dict[str, float]:
        """Each of ``words`` (a few releases' and sets' words) with its best score over the lines
        (``vision.spotting.spot_words``)."""
        return self._best(probs, words, spot_words)

    def _best(self, probs: list[np.ndarray], terms: list[str], spot) -> dict[str, float]:
        best: dict[str, float] = {}
        for p in probs:
            for n, sc in spot(p, self.columns, terms).items():
                best[n] = max(best.get(n, -np.inf), sc)
        return best


def letter_pairs(text: str) -> set[str]:
    """The pairs of adjacent characters of ``text`` with a space at either end (its words' first and last
    letters count)."""
    padded = f" {text} "
    return {padded[i:i + 2] for i in range(len(padded) - 1)}
