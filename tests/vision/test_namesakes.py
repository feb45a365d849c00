"""Cards that share the name read, told apart when their number was not read: by the words of their
release and set spotted in blurred print, and by a number read in a card's corner."""

from __future__ import annotations

import io
import string
import uuid
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from PIL import Image

from tests.factories import seed_catalog
from tests.vision.helpers import judge_in, photo
from tests.vision.ocr_fakes import frames_of, kept, read_lines, tiny_print
from identification import namesakes as ns
from identification.thresholds import THRESHOLDS
from tools._models import Upload
from tools.identify import IdentifyIn, identify_card
from vision import ocr, pipeline, smallprint
from vision.render import CardSpec, render_card
from vision.spotting import alphabet


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)


async def _identify(ctx, data: bytes):
    return await identify_card(ctx, IdentifyIn(image=Upload(data=data, content_type="image/jpeg")))


async def test_the_release_spotted_in_blurred_print_tells_namesakes_apart(ctx, sessions, cat, monkeypatch):
    # the name reads; the header "2023 Donruss Baseball" only as a blur: of the three Aaron Judge
    # cards (2024 Topps Chrome #2, 2023 Bowman #77, 2023 Donruss #78) the Donruss one comes first,
    # and the Bowman one when the blur spells Bowman: a guess (not High), the others suggested
    bowman, donruss = await judge_in(sessions, cat, [("2023 Bowman Baseball", "77"),
                                                      ("2023 Donruss Baseball", "78")])
    for printed, want in (("2023 Donruss Baseball", donruss), ("2023 Bowman Baseball", bowman)):
        tiny_print(monkeypatch, [], reads=["Aaron Judge"], numbers=[printed])
        (d,) = (await _identify(ctx, photo(cat, ["judge"], seed=7))).detections
        assert d.card.id == str(want.id), printed
        assert d.confidence != "High"
        assert {s.number for s in d.card.suggestions or []} >= {"2", "77", "78"} - {want.number}


async def test_the_release_spotted_narrows_the_numbers_spotted_among_many_namesakes(ctx, sessions, cat,
                                                                                       monkeypatch):
    # a name with more cards than numbers are spotted among (a player in ten releases): no number
    # is spotted among them all, but among the two of the release spotted it is
    others = await judge_in(sessions, cat, [(f"{1980 + i} Release{string.ascii_lowercase[i]} Baseball", str(30 + i))
                                             for i in range(THRESHOLDS.spot_numbers)])
    a, b = await judge_in(sessions, cat, [("2023 Donruss Baseball", "77"), ("2023 Donruss Baseball", "78")])
    assert len({c.number for c in [*others, a, b]}) > THRESHOLDS.spot_numbers
    tiny_print(monkeypatch, [], reads=["Aaron Judge"], numbers=["2023 Donruss Baseball", "#78"])
    (d,) = (await _identify(ctx, photo(cat, ["judge"], seed=7))).detections
    assert d.card.id == str(b.id)
    assert d.confidence != "High"


async def test_the_release_spotted_tells_apart_cards_of_one_name_and_number(ctx, sessions, cat, monkeypatch):
    # the name and number read whole ("Aaron Judge", "#2"), the header only as a blur: 2024 Topps
    # Chrome #2 and 2023 Donruss #2 are two cards the text cannot tell apart, so the card is read
    # closer and the release spotted names it, either way round (a guess: not High)
    (donruss,) = await judge_in(sessions, cat, [("2023 Donruss Baseball", "2")])
    chrome = cat.cards["judge"]
    for printed, want in (("2023 Donruss Baseball", donruss), ("2024 Topps Chrome", chrome)):
        tiny_print(monkeypatch, [], reads=["Aaron Judge", "#2"], numbers=[printed])
        (d,) = (await _identify(ctx, photo(cat, ["judge"], seed=7))).detections
        assert (d.card.id, d.card.number) == (str(want.id), "2"), printed
        assert d.confidence != "High"


async def test_cards_of_one_name_and_number_that_nothing_tells_apart_are_a_low_guess(ctx, sessions, cat,
                                                                                     monkeypatch):
    # "Aaron Judge" "#2" read, nothing of the header: 2024 Topps Chrome #2 or 2023 Donruss #2 is a
    # coin flip, so the answer is Low (not the Medium a sure name and number would get), with the
    # other set's card among the suggestions
    (donruss,) = await judge_in(sessions, cat, [("2023 Donruss Baseball", "2")])
    tiny_print(monkeypatch, [], reads=["Aaron Judge", "#2"])
    (d,) = (await _identify(ctx, photo(cat, ["judge"], seed=7))).detections
    assert (d.card.name, d.card.number, d.confidence) == ("Aaron Judge", "2", "Low")
    other = ({str(donruss.id), str(cat.cards["judge"].id)} - {d.card.id}).pop()
    assert other in {c.id for c in d.card.suggestions or []}


async def test_a_number_read_in_the_cards_corner_settles_a_name_tie(ctx, sessions, cat, monkeypatch):
    # no read finds a line in the corner, but the recogniser on the corner itself reads "#78"
    _, twin = await judge_in(sessions, cat, [("2023 Bowman Baseball", "77"), ("2023 Donruss Baseball", "78")])
    read_lines(monkeypatch, ["Aaron Judge"])
    corners = []

    def read_corners(crop, classes, upside_down=None):
        corners.append(crop.shape)
        return ["#78"], []

    monkeypatch.setattr(smallprint, "read_corners", read_corners)
    (d,) = (await _identify(ctx, photo(cat, ["judge"], seed=7))).detections
    assert corners
    assert d.card.id == str(twin.id)


async def test_a_card_named_at_first_sight_has_its_corners_left_unread(ctx, cat, monkeypatch):
    read_lines(monkeypatch, ["Aaron Judge"])
    corners = []
    monkeypatch.setattr(smallprint, "read_corners", lambda crop, classes, upside_down=None: corners.append(1) or ([], []))
    (d,) = (await _identify(ctx, photo(cat, ["judge"], seed=7))).detections
    assert d.card.name == "Aaron Judge" and not corners


def test_a_number_the_text_detector_passes_over_is_read_in_the_corner():
    # a card a few hundred pixels tall, blurred and compressed, straightened back to 500 x 700: the
    # first read finds the name but no line where "#43" is printed; the corner read reads it
    spec = CardSpec(id="krabby-43", name="Krabby", number="43", set_name="Sword & Shield",
                    release_name="Sword & Shield", year="2020", team="WATER POKEMON BASIC", segment="Pokemon")
    small = cv2.GaussianBlur(cv2.resize(render_card(spec), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA),
                             (0, 0), 1.5)
    buf = io.BytesIO()
    Image.fromarray(small).save(buf, "JPEG", quality=60)
    crop = cv2.resize(np.asarray(Image.open(buf)), (500, 700), interpolation=cv2.INTER_LINEAR)
    first = [t for t, _, _ in pipeline._ocr_lines(crop)]
    assert "Krabby" in first and not any("43" in t for t in first), first
    _, classes = alphabet(["0123456789"], ocr.charset())
    texts, probs = smallprint.read_corners(crop, classes)
    assert "43" in texts, texts
    assert len(probs) == len(smallprint.corner_crops(crop))
    # upside down, the same corner is read from the card turned
    texts, _ = smallprint.read_corners(np.ascontiguousarray(crop[::-1, ::-1]), classes)
    assert "43" in texts, texts


def _cand(release: str, set_name: str = "Base Set", number: str = "1") -> dict:
    card = SimpleNamespace(id=uuid.uuid4(), name="Jesse Orosco", number=number)
    return {"card": card, "release_name": release, "set_name": set_name}


def _scores(printed: str, words: list[str]) -> dict[str, float]:
    """Spotting scores as a blurred header gives them: a word printed near 0, others far below."""
    return {w: (-0.3 if w in printed.split() else -2.5) for w in words}


def test_the_release_printed_wins_over_its_namesakes_releases():
    topps, traded, fleer = (_cand("1989 Topps Baseball", number="513"), _cand("1989 Topps Traded Baseball",
                                                                                number="91T"),
                            _cand("1989 Fleer Baseball", number="68"))
    group = [topps, traded, fleer]
    words = ns.word_forms(set().union(*ns.distinguishing_words(group).values()))
    assert "Baseball" not in words and "Topps" in words and "TOPPS" in words  # every namesake's word: no evidence
    assert ns.spotted_context(group, _scores("1989 Topps Baseball Base Set", words)) == {topps["card"].id: 1.0}
    # the more specific release wins when its further word is printed too
    assert ns.spotted_context(group, _scores("1989 Topps Traded Baseball", words)) == {traded["card"].id: 1.0}
    assert ns.spotted_context(group, _scores("1989 FLEER BASEBALL".title(), words)) == {fleer["card"].id: 1.0}


def test_a_release_spotted_no_better_than_another_or_unscored_is_no_evidence():
    topps, fleer = _cand("1989 Topps Baseball", number="513"), _cand("1989 Fleer Baseball", number="68")
    words = ["Fleer", "FLEER", "TOPPS", "Topps"]
    assert ns.spotted_context([topps, fleer], {**_scores("Topps Fleer", words)}) == {}  # both printed alike
    assert ns.spotted_context([topps, fleer], _scores("Score", words)) == {}  # neither printed
    assert ns.spotted_context([topps, fleer], {"Topps": -0.2}) == {}  # Fleer's words could not be scored


def test_cards_of_the_release_spotted_share_its_credit():
    a, b, c = (_cand("Plasma Freeze", "Plasma Freeze", "54"), _cand("Plasma Freeze", "Plasma Freeze", "55"),
               _cand("Dark Explorers", "Dark Explorers", "51"))
    words = ns.word_forms(set().union(*ns.distinguishing_words([a, b, c]).values()))
    got = ns.spotted_context([a, b, c], _scores("2013 Plasma Freeze Plasma Freeze", words))
    assert got == {a["card"].id: 1.0, b["card"].id: 1.0}
    assert ns.numbers_to_spot([x for x in (a, b, c) if x["card"].id in got]) == ["54", "55"]


async def test_a_number_is_spotted_among_a_dozen_cards_of_one_name(ctx, sessions, cat, monkeypatch):
    # a Pokemon with fifteen cards (Larvesta): the blurred "#78" still tells them apart
    cards = await judge_in(sessions, cat, [(f"{1980 + i} Release{string.ascii_lowercase[i]} Baseball", str(67 + i))
                                            for i in range(12)])
    assert 8 < len(cards) + 1 <= THRESHOLDS.spot_numbers
    tiny_print(monkeypatch, [], reads=["Aaron Judge"], numbers=["#78"])
    (d,) = (await _identify(ctx, photo(cat, ["judge"], seed=7))).detections
    assert d.card.number == "78"
    assert d.confidence != "High"


def _blurred_number(first: str, last: dict[str, float]) -> np.ndarray:
    """The recogniser's per-frame output for "#" and ``first`` read surely, then a last digit blurred
    between the digits of ``last`` (digit -> probability)."""
    return frames_of([[("#", 0.95)], [(first, 0.95)], list(last.items())])


async def test_a_number_blurred_past_spotting_still_breaks_a_tie_between_namesakes(ctx, sessions, cat, monkeypatch):
    # the name reads; the number "#78" (or "#77") only as a blur whose last digit is nearly as much
    # the other: no number is spotted clearly, yet of the Aaron Judge cards (#2, #77, #78) the one the
    # blur fits best comes first, whichever it is; still a guess, no surer than a tie
    cards = await judge_in(sessions, cat, [("2023 Topps Baseball", "77"), ("2023 Topps Baseball", "78")])
    read_lines(monkeypatch, ["Aaron Judge"])
    monkeypatch.setattr(smallprint, "read", lambda crop, classes, upside_down=None: smallprint.SmallPrint(
        texts=[], boxes=[], turned=False))
    for want, last in ((cards[1], {"8": 0.5, "7": 0.4}), (cards[0], {"7": 0.5, "8": 0.4})):
        monkeypatch.setattr(smallprint, "spotting_probs", lambda crop, found, line_crops, classes, upside_down=None, known=None,
                            last=last: ([], [kept(_blurred_number("7", last), classes)]))
        (d,) = (await _identify(ctx, photo(cat, ["judge"], seed=7))).detections
        assert d.card.id == str(want.id), last
        assert d.confidence == "Low"  # as a tie is: the blur is a guess


def test_a_number_spotted_must_come_near_the_reading_and_clear_of_the_rest():
    assert ns.spotted_number(["698", "599", "103"], {"698": -0.6, "599": -1.8, "103": -1.9}) == {"698": 0.2}
    assert ns.spotted_number(["698", "599"], {"698": -1.5, "599": -3.0}) == {}  # nothing near what was read
    assert ns.spotted_number(["55", "54"], {"55": -0.45, "54": -0.61}) == {}  # two fit alike
    assert ns.spotted_number(["55", "54"], {"55": -0.2}) == {}  # one could not be scored


def test_digits_alone_spotted_among_numbers_printed_with_letters_are_no_evidence():
    # blur fits plain digits better per character whatever is printed: a lone "304" ahead of "Mc-10" and
    # "McH-03" says nothing; a lettered number ahead despite that does, and so do digits among digits
    assert ns.spotted_number(["304", "Mc-10", "McH-03"], {"304": -0.3, "Mc-10": -1.4, "McH-03": -1.2}) == {}
    assert ns.spotted_number(["304", "McH-03"], {"304": -1.4, "McH-03": -0.3}) == {"McH-03": 0.2}
    assert ns.spotted_number(["304", "13"], {"304": -0.3, "13": -1.4}) == {"304": 0.2}


def test_the_likeliest_number_is_only_one_ahead_of_every_other_all_scored():
    assert ns.likeliest_number(["55", "54", "5"], {"55": -2.4, "54": -2.5, "5": -3.0}) == "55"
    assert ns.likeliest_number(["55", "54"], {"55": -2.4, "54": -2.4}) is None  # a tie breaks no tie
    assert ns.likeliest_number(["55", "54"], {"55": -0.2}) is None  # one could not be scored
    # only numbers printed alike break a tie: "16" fits blur better than "Mc-1" whatever is printed
    assert ns.printed_alike(["55", "54", "5"]) and ns.printed_alike(["Mc-1", "UD41"])
    assert not ns.printed_alike(["Mc-1", "16", "UD41"])


def test_the_cards_edge_read_beside_a_corners_number_is_dropped(monkeypatch):
    # the border cut into the corner comes back as a dash or a stroke: "一16" is the number 16
    read = ["一16", "一*26", "Krabby ~", "一", "7"]
    monkeypatch.setattr(ocr, "frames", lambda crops, classes: [(t, 0.9, np.zeros((2, 3), np.float32)) for t in read])
    texts, probs = smallprint.read_corners(np.zeros((700, 500, 3), np.uint8), np.arange(2))
    assert texts == ["16", "26", "Krabby"]  # a lone dash or digit is no print (as in the small print read)
    assert len(probs) == len(read)


def test_a_number_read_with_its_prefix_blurred_counts_but_not_in_full():
    # the McDonald's holograms print "McH-05": read "Mell-05" or "MeH-05", the digits exact
    from identification.evidence import evidence
    from identification.numbers import number_read

    for read in ("Mell-05", "MeH-05"):
        assert number_read(evidence(["Cam Neely", read]), "McH-05") == THRESHOLDS.prefix_misread
    # other digits: only the prefix's class (``same_prefix``), less than the card's number
    assert number_read(evidence(["Cam Neely", "MeH-05"]), "McH-06") == THRESHOLDS.prefix_class
    assert number_read(evidence(["Cam Neely", "Mell-01"]), "Mc-1") == 0.0  # a prefix two letters longer
    assert number_read(evidence(["Wayne Gretzky", "NO1"]), "NNO1") == 0.0  # "No. 1" is no "NNO1"
    # a letter of the prefix read as a digit: "Me11-01" for McH-01, the digits after it exact
    assert number_read(evidence(["Wayne Gretzky", "Me11-01"]), "McH-01") == THRESHOLDS.prefix_misread
    assert number_read(evidence(["Wayne Gretzky", "Me11-01"]), "McH-02") == THRESHOLDS.prefix_class  # its class
    assert number_read(evidence(["Wayne Gretzky", "Me11-01"]), "Mc-1") == 0.0


def test_a_loose_name_lifted_by_a_number_is_never_sure_over_a_name_read_clearly():
    # a re-saved Paul Kariya scan: "KARIYA" / "PAUL" read, then "41" in a noisier read lifted Hariyama #41
    # (0.71 like the words read) over Paul Kariya (0.95) and it came back High
    from types import SimpleNamespace

    from identification.decide import name_read_better as _name_read_better
    from identification.evidence import evidence

    ev = evidence(["KARIYA", "PAUL", "41"])
    hariyama, kariya = ({"card": SimpleNamespace(name=n)} for n in ("Hariyama", "Paul Kariya"))
    assert _name_read_better(ev, hariyama, [kariya])
    assert not _name_read_better(ev, kariya, [hariyama])
