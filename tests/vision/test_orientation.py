"""Which way up a straightened card lies, from the lines its first read was sure of: the reads that
follow (small print, corners, lines re-read upside down) then read it that way only."""

from __future__ import annotations

import numpy as np
import pytest

from tests.factories import seed_catalog
from tests.vision.helpers import judge_in, photo, printed_card
from tests.vision.ocr_fakes import read_lines
from tools._models import Upload
from tools.identify import IdentifyIn, identify_card
from vision import ocr, pipeline, smallprint
from vision.render import CardSpec, render_card
from vision.spotting import NameSpotter, alphabet

BOX: list = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]


def test_the_lines_read_surely_tell_which_way_up_the_card_is():
    o = pipeline.orientation
    assert o([("Aaron Judge", 0.95, BOX), ("NEW YORK YANKEES", 0.9, BOX)], [True, True]) is True
    assert o([("Aaron Judge", 0.95, BOX), ("#2", 0.99, BOX)], [False, True]) is False  # "#2": too short to tell
    assert o([("Aaron Judge", 0.95, BOX), ("Chrome", 0.9, BOX)], [False, True]) is None  # they disagree
    assert o([("Aarom Jucge", 0.6, BOX)], [True]) is None  # read unsurely
    assert o([("Aaron Judge", 0.95, BOX)], []) is None  # no verdicts from the engine


def test_a_rendered_card_read_either_way_up_says_which_way_it_lies():
    card = render_card(CardSpec(id="judge", name="Aaron Judge", number="99", release_name="2024 Topps Chrome",
                                year="2024", team="New York Yankees"))
    for img, upside_down in ((card, False), (np.ascontiguousarray(card[::-1, ::-1]), True)):
        turned: list[bool] = []
        found = pipeline._ocr_lines(img, turned=turned)
        assert any("Judge" in t for t, _, _ in found)
        assert pipeline.orientation(found, turned) is upside_down


def test_small_print_on_a_card_known_upright_is_read_one_way_only(monkeypatch):
    _, classes = alphabet(["Darren Turcotte"], ocr.charset())
    both = smallprint.read(printed_card(), classes)
    seen: list[int] = []
    real = ocr.frames
    monkeypatch.setattr(ocr, "frames", lambda crops, cls, **kw: seen.append(len(crops)) or real(crops, cls, **kw))
    one = smallprint.read(printed_card(), classes, upside_down=False)
    assert sum(seen) == len(one.boxes) < len(both.boxes) + min(smallprint.PROBES, len(both.boxes))
    assert "Darren Turcotte" in one.texts and not one.turned and len(one.probs) == len(one.boxes)
    seen.clear()
    turned = smallprint.read(np.ascontiguousarray(printed_card()[::-1, ::-1]), classes, upside_down=True)
    assert "Darren Turcotte" in turned.texts and turned.turned and sum(seen) == len(turned.boxes)


def test_only_the_top_corners_of_a_card_known_upright_or_upside_down_are_read():
    crop = np.zeros((700, 500, 3), np.uint8)
    crop[:80, 300:] = 255  # the top right corner of the card as it lies
    both = smallprint.corner_crops(crop)
    upright, turned = smallprint.corner_crops(crop, False), smallprint.corner_crops(crop, True)
    assert len(upright) == len(turned) == len(both) // 2
    assert upright[0].mean() > 150 and turned[0].mean() < 10  # the turned card's top right is this one's bottom left


@pytest.fixture
async def cat(sessions):
    cat = await seed_catalog(sessions)
    await judge_in(sessions, cat, [("2023 Bowman Baseball", "77")])  # "Aaron Judge" alone names no single card
    return cat


async def _reads(ctx, cat, monkeypatch, lines: list[str], upside_down: bool | None, closer_way: bool | None = None
                 ) -> tuple[bool, list]:
    """Identify a photo whose reads give ``lines``, its first read finding the card ``upside_down``
    and its closer read ``closer_way``: whether its lines were re-read upside down, and which way its
    corners were read."""
    read_lines(monkeypatch, lines)
    real = pipeline.analyse

    def analyse(data, **kw):
        a = real(data, **kw)
        for r in a.readings:
            r.upside_down = upside_down
        return a

    calls: list[int] = []
    corners: list = []
    monkeypatch.setattr(pipeline, "analyse", analyse)

    def read_closer(crop, *, grey=False, way=None, **_):
        way.append(closer_way)
        return lines, [np.zeros((8, 40, 3), np.uint8)]

    monkeypatch.setattr(pipeline, "read_closer", read_closer)
    monkeypatch.setattr(pipeline, "read_turned", lambda crops: calls.append(len(crops)) or [])
    monkeypatch.setattr(smallprint, "read_corners", lambda crop, classes, up=None: corners.append(up) or ([], []))
    await identify_card(ctx, IdentifyIn(image=Upload(data=photo(cat, ["judge"], seed=3), content_type="image/jpeg")))
    return bool(calls), corners


@pytest.mark.parametrize("upside_down, re_read", [(False, False), (True, True), (None, True)])
async def test_a_card_whose_name_reads_has_its_lines_re_read_upside_down_unless_it_lies_upright(
        ctx, cat, monkeypatch, upside_down, re_read):
    assert await _reads(ctx, cat, monkeypatch, ["Aaron Judge"], upside_down) == (re_read, [upside_down])


async def test_the_way_up_of_a_card_whose_text_names_nothing_is_not_trusted(ctx, cat, monkeypatch):
    # sure lines of garbage ("1999 Base Set" upside down reads "Ie aseg 666l") say nothing
    assert await _reads(ctx, cat, monkeypatch, ["Ie aseg 666l"], False) == (True, [None])


async def test_a_closer_read_sure_of_a_line_tells_the_way_up_the_first_read_could_not(ctx, cat, monkeypatch):
    # upside down: its lines are still re-read turned, its corners one way
    assert await _reads(ctx, cat, monkeypatch, ["Aaron Judge"], None, closer_way=True) == (True, [True])


def test_the_closer_reads_lines_of_a_card_known_upside_down_are_spotted_turned_round():
    # the text detector cuts an upside-down card's lines as they lie; the name spotted in them must
    # be read the right way up
    card = np.ascontiguousarray(printed_card()[::-1, ::-1])
    line_crops: list = []
    pipeline._ocr_lines(card, crops=line_crops)
    assert line_crops
    columns, classes = alphabet(["Darren Turcotte"], ocr.charset())
    none = smallprint.SmallPrint(texts=[], boxes=[], turned=True)
    spotter = NameSpotter(["Darren Turcotte"], columns)
    best = {}
    for way in (None, True):
        names, _ = smallprint.spotting_probs(card, none, line_crops, classes, upside_down=way)
        best[way] = max(spotter.spot(p).get(0, -np.inf) for p in names)
    assert best[True] > -0.5 > best[None]


def test_spotting_reuses_the_closer_reads_output_it_is_given_and_recognises_only_the_other_lines(monkeypatch):
    # a closer read kept the recogniser's output for its lines: spotting names there recognises only those
    # it has no output for (turned round as the card lies), and returns the kept output in the lines' order
    classes = np.array([0, 1, 2])
    a, b, c = (np.full((8, 40 + i, 3), i, np.uint8) for i in range(3))
    kept = np.ones((5, 4), np.float32)
    seen: list = []
    monkeypatch.setattr(ocr, "frames", lambda crops, classes: seen.extend(crops) or
                        [("", 0.0, np.full((3, 4), 0.5 + i, np.float32)) for i in range(len(crops))])
    none = smallprint.SmallPrint(texts=[], boxes=[], turned=False)
    names, numbers = smallprint.spotting_probs(np.zeros((70, 50, 3), np.uint8), none, [a, b, c], classes,
                                               upside_down=True, known=[None, kept, None])
    assert [s.shape for s in seen] == [a.shape, c.shape] and np.array_equal(seen[0], a[::-1, ::-1])
    assert names[1] is kept and names[0][0, 0] == 0.5 and names[2][0, 0] == 1.5 and len(numbers) == 3
