"""Fakes of the OCR engine for matching tests: a fixed reading, and the recogniser's per-frame output
for blurred lines spelling a given text, so that a test pins the matching, not the engine's mood."""

from __future__ import annotations

import numpy as np

from vision import ocr, smallprint


def read_lines(monkeypatch, lines: list[str]) -> None:
    """The text detector and recogniser read ``lines`` in every read of a card, nothing more."""
    boxes = [[[40.0, 400.0 + 30 * i], [300.0, 400.0 + 30 * i], [300.0, 420.0 + 30 * i], [40.0, 420.0 + 30 * i]]
             for i in range(len(lines))]
    monkeypatch.setattr(ocr, "read", lambda rgb, **_: [(t, 0.9, b) for t, b in zip(lines, boxes)])
    # the recogniser on its own (turned lines, small print) reads nothing more than the fixed reading,
    # and no name is spotted in its output
    monkeypatch.setattr(ocr, "recognise", lambda line_crops: [("", 0.0) for _ in line_crops])
    monkeypatch.setattr(ocr, "frames", lambda line_crops, classes, **_: [
        ("", 0.0, np.zeros((0, len(classes) + 1), np.float32)) for _ in line_crops])


def frames_of(characters: list[list[tuple[str, float]]]) -> np.ndarray:
    """The recogniser's per-frame output, over its real character set, for a line of characters each
    given as ``(character, probability)`` pairs: two frames of them, then a blank frame."""
    charset = ocr.charset()
    index = {c: i for i, c in enumerate(charset)}
    rows = []
    for pairs in characters:
        p = np.full(len(charset), 1e-6, np.float32)
        for ch, pr in pairs:
            p[index[ch]] += pr
        rows += [p / p.sum(), p / p.sum()]
        blank = np.full(len(charset), 1e-6, np.float32)
        blank[0] = 1.0
        rows.append(blank / blank.sum())
    return np.array(rows)


def spell(text: str, *, blur: float = 0.45) -> np.ndarray:
    """The recogniser's per-frame output for a blurred line spelling ``text`` (every other letter
    read as a look-alike), over its real character set."""
    lookalike = {"a": "o", "e": "c", "r": "v", "n": "m", "u": "v", "o": "a", "d": "b", "g": "q"}
    return frames_of([[(ch, 1 - blur if k % 2 else 0.9), (lookalike.get(ch, "x"), blur if k % 2 else 0.1)]
                      for k, ch in enumerate(text)])


def kept(probs: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """``probs`` as ``ocr.frames`` keeps them: the catalog's classes and each frame's best."""
    return np.concatenate([probs[:, classes], probs.max(axis=1, keepdims=True)], axis=1)


def tiny_print(monkeypatch, spelled: list[str], *, reads: list[str] = ("NHL",), numbers: list[str] = ()
               ) -> None:
    """The reads give only ``reads`` (by default "NHL", which names nothing), the small print read
    as text nothing more; the recogniser's output for the small print's lines spells ``spelled``
    where names are looked for and ``numbers`` (blurred) where card numbers are."""
    read_lines(monkeypatch, list(reads))
    monkeypatch.setattr(smallprint, "read", lambda crop, classes, upside_down=None: smallprint.SmallPrint(texts=[], boxes=[], turned=False))
    monkeypatch.setattr(smallprint, "spotting_probs", lambda crop, found, line_crops, classes, upside_down=None, known=None: (
        [kept(spell(t), classes) for t in spelled], [kept(spell(t, blur=0.4), classes) for t in numbers]))
