"""The image code on its own: decoding rules, localisation, OCR, slab labels, serials, features."""

from __future__ import annotations

import io
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from PIL import Image

from identification.parallels import parallel_ranking
from vision import detect
from vision.decode import DECODE_BUDGET, decode, decode_cost, sniff
from vision.errors import VisionError
from vision.features import HashIndex, card_features
from vision.photos import make_photo
from vision.pipeline import analyse
from vision.render import COLOR_WORDS, CardSpec, named_color, parallel_color, render_card, render_slab
from vision.text import numbers, parse_label, serials

OHTANI = CardSpec(id="a", name="Shohei Ohtani", number="1", release_name="2024 Topps Chrome", year="2024",
                  team="Los Angeles Dodgers")
JUDGE = CardSpec(id="b", name="Aaron Judge", number="2", release_name="2024 Topps Chrome", year="2024")


def test_sniff_names_the_accepted_formats():
    for fmt, name in (("JPEG", "jpeg"), ("PNG", "png"), ("WEBP", "webp")):
        buf = io.BytesIO()
        Image.new("RGB", (8, 8)).save(buf, fmt)
        assert sniff(buf.getvalue()) == name
    gif = io.BytesIO()
    Image.new("RGB", (8, 8)).save(gif, "GIF")
    assert sniff(gif.getvalue()) is None


def test_exif_orientation_is_applied():
    img = Image.new("RGB", (40, 20), (255, 0, 0))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise on display
    buf = io.BytesIO()
    img.save(buf, "JPEG", exif=exif)
    assert decode(buf.getvalue()).shape[:2] == (40, 20)


def test_truncated_and_bomb_images_are_rejected():
    buf = io.BytesIO()
    Image.fromarray(render_card(OHTANI)).save(buf, "JPEG")
    with pytest.raises(VisionError) as e:
        decode(buf.getvalue()[:2000])
    assert e.value.kind == "corrupt"
    big = io.BytesIO()
    Image.new("1", (12000, 12000)).save(big, "PNG")  # 144 Mpx in a few kB
    assert len(big.getvalue()) < 1_000_000 and decode_cost("1", (12000, 12000), "png") > DECODE_BUDGET
    with pytest.raises(VisionError) as e:
        decode(big.getvalue())
    assert e.value.kind == "too_large"


def test_four_cards_are_located_and_read():
    data, truth = make_photo([render_card(OHTANI), render_card(JUDGE), render_card(OHTANI), render_card(JUDGE)],
                             "easy", seed=3)
    a = analyse(data)
    assert len(a.readings) == 4
    for t in truth:
        best = max(detect._iou(t.quad, r.quad)[0] for r in a.readings)
        assert best > 0.8
    names = sorted(next(x for x in r.lines if x in ("Shohei Ohtani", "Aaron Judge")) for r in a.readings)
    assert names == ["Aaron Judge", "Aaron Judge", "Shohei Ohtani", "Shohei Ohtani"]


def test_slab_label_is_read():
    data, _ = make_photo([render_slab(OHTANI, "BGS", "9.5", "0012345678")], "easy", seed=5)
    (r,) = analyse(data).readings
    assert r.kind == "slab"
    assert (r.label.company, r.label.grade, r.label.cert) == ("BGS", "9.5", "0012345678")


def test_label_and_serial_parsing():
    lab = parse_label(["PSA", "2024 TOPPS CHROME", "SHOHEI OHTANI", "GEM MT 10", "81234567"])
    assert (lab.company, lab.grade, lab.cert) == ("PSA", "10", "81234567")
    assert parse_label(["BECKETT", "MINT 9"]).company == "BGS"
    # a blurred label's letters read as digits still name the company; grades and certs stay numbers
    assert [parse_label([t, "GEM MT 10"]).company for t in ("P5A", "8GS", "5GC", "C6C")] == ["PSA", "BGS", "SGC", "CGC"]
    assert parse_label(["2024 TOPPS CHROME", "85212345"]).company is None
    assert serials(["23/50", "4 / 102"]) == [(23, 50), (4, 102)]
    assert {"1", "rc-12"} <= numbers(["#1", "#RC-12"])


def test_digits_behind_stray_marks_are_a_number_but_not_digits_among_words():
    # a blurred "#513" beside the card's edge reads "b= 8513" or "—8513": the digits are kept for the
    # matcher to weigh; a grade or year beside words, or a cert number, is no card number
    assert numbers(["b= 8513"]) == numbers(["—8513"]) == numbers(["8513 ="]) == {"8513"}
    assert numbers(["MT 10", "1989 Topps", "12649644", "x 7"]) == set()


def test_hash_index_finds_the_same_card_in_a_photo():
    refs = [CardSpec(id=f"c{i}", name=f"Player {i}") for i in range(30)]
    idx = HashIndex(list(range(30)), *zip(*[(f["phash"], f["color"]) for f in
                                           (card_features(render_card(s)) for s in refs)]))
    data, _ = make_photo([render_card(refs[17])], "easy", seed=9)
    (r,) = analyse(data, with_ocr=False).readings
    best = max((idx.query(f, k=1)[0] for f in r.features), key=lambda t: t[1])
    assert best[0] == 17


def test_card_is_straightened_upright_portrait():
    quad = np.array([[300, 100], [100, 100], [100, 380], [300, 380]], np.float32)
    out = detect.order_corners(quad)
    assert out[0].tolist() == [100, 100] and out[2].tolist() == [300, 380]


def test_label_colours_name_the_company_when_text_is_unreadable():
    from vision.pipeline import label_colour_company

    for company in ("PSA", "BGS", "SGC", "CGC"):
        blurred = np.asarray(Image.fromarray(render_slab(OHTANI, company, "10", "12345678")).resize((62, 104)))
        assert label_colour_company(np.asarray(Image.fromarray(blurred).resize((620, 1040)))) == company


def test_a_parallel_whose_name_says_no_colour_is_never_suggested_by_the_border():
    # a real checklist's "Collector's Edition (Glossy)" has no colour on record: a border that happens
    # to look like the one drawn for it (made up from its name) is no evidence; a gold border still
    # says "Gold Refractor"
    def lab(rgb):
        return cv2.cvtColor(np.uint8([[rgb]]), cv2.COLOR_RGB2LAB).reshape(3).astype(float).tolist()

    glossy = SimpleNamespace(name="Collector's Edition (Glossy)", numbered_to=None)
    gold = SimpleNamespace(name="Gold Refractor", numbered_to=50)
    assert parallel_ranking([glossy], lab(parallel_color(glossy.name)), []) == []
    assert parallel_ranking([glossy, gold], lab(parallel_color(gold.name)), [])[0][0] is gold
    assert parallel_ranking([glossy], None, [(23, 50)]) == []  # nor by a serial of another print run


@pytest.mark.parametrize("name, colour", [("Gold Refractor", "gold"), ("Blue Wave", "blue"), ("Red-Hot", "red"),
                                          ("Numbered /99", None), ("Steal the Show", None), ("Aquapolis Holo", None)])
def test_a_parallels_colour_is_a_word_of_its_name_not_letters_inside_one(name, colour):
    # "red" inside "Numbered", "teal" inside "Steal", "aqua" inside "Aquapolis" say no colour
    assert named_color(name) == (COLOR_WORDS[colour] if colour else None)


def test_the_grey_closer_read_sees_the_same_image_as_a_grey_card_enlarged_in_colour(monkeypatch):
    # the grey read enlarges one channel, not three alike: what the OCR gets must not change
    from vision import pipeline

    card = render_card(OHTANI)
    seen: list[np.ndarray] = []
    monkeypatch.setattr(pipeline, "_ocr_lines", lambda img, *a, **k: seen.append(img) or [])
    pipeline.read_closer(card, grey=True)
    pipeline.read_closer(card)
    three = cv2.cvtColor(cv2.cvtColor(card, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
    for got, crop in zip(seen, (three, card)):
        big = cv2.resize(crop, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
        assert got.shape == big.shape
        assert np.array_equal(got, cv2.addWeighted(big, 1.8, cv2.GaussianBlur(big, (0, 0), 3), -0.8, 0))
