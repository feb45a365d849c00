"""Spotting catalog names in garbled small print, and finding the lines the text detector misses.

The recogniser's per-frame output is built here by hand (a line that spells a text with the
letters blurred toward look-alikes), so the tests pin the scoring, not the engine's mood.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from tests.vision.helpers import printed_card
from identification.thresholds import THRESHOLDS
from vision import ocr, smallprint
from vision.spotting import (BEST, NameSpotter, _ctc_log_likelihood, _keyword_log_likelihood, alphabet, spot_numbers,
                             spot_words)

CHARSET = ["blank", *"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.'-/", " "]
LOOKALIKE = {"a": "o", "e": "c", "r": "v", "n": "m", "u": "v", "c": "e", "o": "a", "t": "l", "l": "t"}
NAMES = ["Darren Turcotte", "Steve Larmer", "Paul Coffey", "Mike Vernon", "Joe Sakic", "Luc Robitaille",
         "Wayne Gretzky", "Brett Hull", "Pikachu", "Lapras", "Mew"]


def frames(text: str, *, blur: float, seed: int = 0) -> np.ndarray:
    """Two frames per letter and a blank between letters: the letter gets ``1 - blur``, a look-alike
    (or a random letter) ``blur``, a little noise everywhere."""
    rng = np.random.default_rng(seed)
    index = {c: i for i, c in enumerate(CHARSET)}
    rows = []
    for ch in text:
        for _ in range(2):
            p = rng.uniform(0, 0.01, len(CHARSET))
            other = LOOKALIKE.get(ch, CHARSET[rng.integers(1, len(CHARSET))])
            p[index[ch]] += 1 - blur
            p[index[other]] += blur
            rows.append(p / p.sum())
        p = rng.uniform(0, 0.01, len(CHARSET))
        p[0] += 1
        rows.append(p / p.sum())
    return np.array(rows, dtype=np.float32)


def test_ctc_likelihood_is_the_sum_over_every_alignment():
    # brute force on a tiny alphabet: every frame-by-frame path that collapses to the label
    rng = np.random.default_rng(3)
    probs = rng.dirichlet(np.ones(3), size=5)  # 5 frames, classes blank, a, b
    lp = np.log(probs)

    def collapse(path):
        out = [k for k, _ in itertools.groupby(path)]
        return [k for k in out if k != 0]

    for label in ([1], [1, 2], [1, 1], [2, 1, 2]):
        want = sum(np.exp(sum(lp[t, k] for t, k in enumerate(path)))
                   for path in itertools.product(range(3), repeat=5) if collapse(path) == label)
        labels = np.zeros((1, 4), dtype=np.int64)
        labels[0, :len(label)] = label
        got = _ctc_log_likelihood(lp, labels, np.array([len(label)]))[0]
        assert np.isclose(got, np.log(want)), label


def test_a_blurred_name_is_spotted_first_and_far_ahead_of_the_rest():
    spotter = NameSpotter(NAMES, CHARSET)
    for i, name in enumerate(NAMES[:8]):
        # blur 0.45: the recogniser's own reading has about every other letter wrong
        scores = spotter.spot(frames(name, blur=0.45, seed=i))
        ranked = sorted(scores, key=lambda k: -scores[k])
        assert NAMES[ranked[0]] == name
        assert scores[ranked[0]] > -1.5 and scores[ranked[0]] - scores[ranked[1]] > 1.0


def test_a_name_printed_in_capitals_is_spotted():
    spotter = NameSpotter(NAMES, CHARSET)
    scores = spotter.spot(frames("DARREN TURCOTTE", blur=0.3))
    assert NAMES[max(scores, key=scores.get)] == "Darren Turcotte"


def test_short_names_are_never_spotted_and_a_mask_keeps_others_out():
    spotter = NameSpotter(NAMES, CHARSET)
    # six letters or fewer (most Pokemon, printed large anyway) fit blurred print too easily
    assert NAMES.index("Mew") not in spotter.spot(frames("Mew", blur=0.1))
    assert NAMES.index("Lapras") not in spotter.spot(frames("Lapras", blur=0.1))
    assert NAMES.index("Pikachu") in spotter.spot(frames("Pikachu", blur=0.1))
    allowed = np.array([n != "Paul Coffey" for n in NAMES])
    scores = spotter.spot(frames("Paul Coffey", blur=0.2), allowed=allowed)
    assert NAMES.index("Paul Coffey") not in scores


def test_unrelated_print_spots_no_name_well():
    spotter = NameSpotter(NAMES, CHARSET)
    scores = spotter.spot(frames("Right Wing/Ailier droit", blur=0.2))
    assert max(scores.values()) < -2.0


def test_a_line_read_as_too_few_characters_for_any_name_is_not_scored(monkeypatch):
    # a short line ("#96", a stripe read as "1"): under 30 % of the shortest name's characters read, every
    # name is ruled out, so no name is shortlisted or scored at all (that work is most of a line's cost)
    from vision import spotting

    spotter = NameSpotter(NAMES, CHARSET)
    called: list = []
    real = spotting._ctc_log_likelihood
    monkeypatch.setattr(spotting, "_ctc_log_likelihood", lambda *a: called.append(1) or real(*a))
    assert spotter.spot(frames("Te", blur=0.1), extra=[NAMES.index("Mike Vernon")]) == {} and not called
    assert spotter.spot(frames("Mike Vernon", blur=0.3)) and called


def _card_with_small_print() -> np.ndarray:
    rng = np.random.default_rng(1)
    card = np.full((700, 500, 3), 245, np.uint8)
    card[40:600, 30:470] = rng.integers(0, 255, (560, 440, 3), dtype=np.uint8)  # busy artwork
    card[40:600, 30:470] = cv2.GaussianBlur(card[40:600, 30:470], (0, 0), 6)
    cv2.putText(card, "Darren Turcotte", (30, 660), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (40, 40, 40), 1, cv2.LINE_AA)
    cv2.putText(card, "Centre/Centre", (280, 660), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (200, 30, 30), 1, cv2.LINE_AA)
    return cv2.GaussianBlur(card, (0, 0), 0.8)


def test_lines_of_small_print_are_found_where_they_are_printed():
    boxes = smallprint.find_lines(_card_with_small_print())
    name = [b for b in boxes if b[0] < 60 and 645 <= b[1] + b[3] / 2 <= 665]
    assert name, boxes
    x, y, w, h = name[0]
    (text_w, text_h), _ = cv2.getTextSize("Darren Turcotte", cv2.FONT_HERSHEY_SIMPLEX, 0.4, 1)
    assert 0.8 * text_w <= w <= 1.3 * text_w and 0.7 * text_h <= h <= 3 * text_h  # the name's line alone
    assert any(b[0] > 250 and 645 <= b[1] + b[3] / 2 <= 665 for b in boxes)  # the position beside it
    crops = smallprint.line_crops(_card_with_small_print(), name[:1])
    assert len(crops) == len(smallprint.MARGINS) and all(c.shape[0] > h for c in crops)


def test_a_blank_card_has_no_lines():
    assert smallprint.find_lines(np.full((700, 500, 3), 240, np.uint8)) == []


def test_blurred_light_print_on_a_bar_is_found_as_one_line():
    # a name on a dark bar, blurred: the strokes come apart into pieces of the word, which the
    # recogniser cannot read one by one; they are joined along their baseline into the whole name
    card = np.full((700, 500, 3), 235, np.uint8)
    card[590:660] = (25, 70, 35)
    cv2.putText(card, "Blastoise", (20, 640), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (235, 235, 235), 2, cv2.LINE_AA)
    card = cv2.GaussianBlur(card, (0, 0), 2.5)
    (text_w, text_h), _ = cv2.getTextSize("Blastoise", cv2.FONT_HERSHEY_SIMPLEX, 1.0, 2)
    boxes = smallprint.find_lines(card)
    on_bar = [b for b in boxes if 590 <= b[1] + b[3] / 2 <= 660]
    assert max((b[2] for b in on_bar), default=0) >= 0.85 * text_w, boxes


def test_pieces_of_a_word_on_one_baseline_are_joined_and_other_lines_are_not():
    # "Bla" "sto" "ise" a few pixels apart on one baseline, a number on the line above
    pieces = [(20, 620, 40, 22), (64, 621, 38, 21), (106, 619, 35, 23), (30, 580, 30, 14)]
    assert smallprint._rows(pieces) == [(20, 619, 121, 23)]
    assert smallprint._rows([(20, 620, 40, 22), (140, 620, 40, 22)]) == []  # too far apart: two words


def test_names_spotted_about_equally_well_are_no_evidence():
    from identification.names import spotted_names

    NAME_READ = THRESHOLDS.name_read

    # a large catalog: three names fit a blurred line within a few hundredths per letter
    assert spotted_names({"Cale Hulse": -1.27, "Sean Burke": -1.30, "Chris Terreri": -1.39}) == {}
    clear = spotted_names({"Paul Coffey": -1.0, "Paul Kariya": -2.5})
    assert clear["Paul Coffey"] >= NAME_READ > clear["Paul Kariya"]


def test_small_print_is_read_whichever_way_up_the_card_lies():
    # the widest lines are read both ways up, so a card straightened upside down still gives its name
    _, classes = alphabet(["Darren Turcotte"], ocr.charset())
    upright = smallprint.read(printed_card(), classes)
    assert not upright.turned and "Darren Turcotte" in upright.texts
    turned = smallprint.read(np.ascontiguousarray(printed_card()[::-1, ::-1]), classes)
    assert "Darren Turcotte" in turned.texts
    assert len(turned.probs) == len(turned.boxes)


NUMBER_COLUMNS = ["blank", *"#/0123456789BSaest ", BEST]


def number_frames(text: str, *, blur: float = 0.4, seed: int = 0) -> np.ndarray:
    """``frames`` over ``NUMBER_COLUMNS`` (digits blurred toward a random digit), with the last
    column holding each frame's best, as ``ocr.frames`` gives it."""
    rng = np.random.default_rng(seed)
    index = {c: i for i, c in enumerate(NUMBER_COLUMNS[:-1])}
    rows = []
    for ch in text:
        for _ in range(2):
            p = rng.uniform(0, 0.01, len(index))
            p[index[ch]] += 1 - blur
            p[index[str(rng.integers(0, 10)) if ch.isdigit() else " "]] += blur
            rows.append(p / p.sum())
        p = rng.uniform(0, 0.01, len(index))
        p[0] += 1
        rows.append(p / p.sum())
    probs = np.array(rows, dtype=np.float32)
    return np.concatenate([probs, probs.max(axis=1, keepdims=True)], axis=1)


def test_a_number_is_scored_by_its_likeliest_path_set_apart_from_other_print():
    # brute force over 6 frames: before the number nothing, or blanks, or separators then blanks, or
    # anything then separators then blanks; the number a CTC path starting and ending on its digits;
    # after it the mirror image
    rng = np.random.default_rng(5)
    probs = rng.dirichlet(np.ones(3), size=6)  # classes blank, 1, 2
    lp = np.log(np.concatenate([probs, rng.uniform(0.5, 1.0, (6, 1))], axis=1))  # and the frame's best
    sep = np.log(rng.uniform(0.05, 0.9, 6))
    free, blank = lp[:, -1], lp[:, 0]

    def collapse(path):
        return [k for k, _ in itertools.groupby(path) if k != 0]

    def around(frames: range, mirrored: bool) -> float:
        """The best score of the frames before (or after) the number."""
        if not len(frames):
            return 0.0
        t = list(frames)[::-1] if mirrored else list(frames)  # outermost first
        best = sum(blank[u] for u in t)
        for i in range(len(t)):
            for j in range(1, len(t) - i + 1):
                best = max(best, sum(free[u] for u in t[:i]) + sum(sep[u] for u in t[i:i + j])
                           + sum(blank[u] for u in t[i + j:]))
        return best

    for label in ([1], [1, 2], [2, 2], [1, 2, 1]):
        want = -np.inf
        for a in range(6):
            for b in range(a + 1, 7):
                for path in itertools.product(range(3), repeat=b - a):
                    if path[0] != 0 and path[-1] != 0 and collapse(path) == label:
                        inner = sum(lp[a + t, k] for t, k in enumerate(path))
                        want = max(want, around(range(a), False) + inner + around(range(b, 6), True))
        labels = np.zeros((1, 3), dtype=np.int64)
        labels[0, :len(label)] = label
        got = _keyword_log_likelihood(lp, sep, labels, np.array([len(label)]))[0]
        assert np.isclose(got, want), label


def test_a_blurred_number_is_spotted_beside_other_print_and_ahead_of_its_namesakes():
    for seed, line in enumerate(["#72", "72/102", "Base 72"]):
        scores = spot_numbers(number_frames(line, seed=seed), NUMBER_COLUMNS, ["18", "72", "36", "7", "2"])
        ranked = sorted(scores, key=lambda n: -scores[n])
        assert ranked[0] == "72", (line, scores)
        assert scores["72"] > -0.5 and scores["72"] - scores[ranked[1]] > 0.6, (line, scores)


def test_a_number_inside_a_longer_number_is_not_spotted():
    # "99" is in "1999" and "7" in "#72", but only as part of a longer number
    scores = spot_numbers(number_frames("1999 Base", blur=0.1), NUMBER_COLUMNS, ["99", "19"])
    assert max(scores.values()) < -2, scores
    assert spot_numbers(number_frames("#72", blur=0.1), NUMBER_COLUMNS, ["7", "72"])["7"] < -2


def test_numbers_with_characters_the_columns_lack_are_not_scored():
    assert spot_numbers(number_frames("#72"), NUMBER_COLUMNS, ["Mc-15", "72"]).keys() == {"72"}


def _word_frames(text: str, *, blur: float = 0.45, seed: int = 0) -> np.ndarray:
    """``frames`` (letters blurred toward look-alikes) with each frame's best as the last column."""
    probs = frames(text, blur=blur, seed=seed)
    return np.concatenate([probs, probs.max(axis=1, keepdims=True)], axis=1)


def test_a_blurred_release_word_is_spotted_ahead_of_other_releases_words():
    columns = [*CHARSET, BEST]
    for seed, line in enumerate(["Topps Baseball Base Set", "Traded Topps", "TOPPS"]):
        want = "TOPPS" if line.isupper() else "Topps"
        scores = spot_words(_word_frames(line, seed=seed), columns, [want, "Fleer", "Score", "Donruss", "Bowman"])
        ranked = sorted(scores, key=lambda w: -scores[w])
        assert ranked[0] == want, (line, scores)
        assert scores[want] > -0.6 and scores[want] - scores[ranked[1]] > 0.4, (line, scores)


def test_a_word_inside_a_longer_word_is_not_spotted():
    # "Set" is in "Sunset", "Base" in "Baseball": only as part of a longer word, well below what counts
    # as a release's word spotted
    scores = spot_words(_word_frames("Sunset Baseball", blur=0.1), [*CHARSET, BEST], ["Set", "Base", "Sunset"])
    assert max(scores["Set"], scores["Base"]) < THRESHOLDS.context_min < scores["Sunset"], scores
