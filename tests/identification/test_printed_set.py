"""Cards told apart by what their set prints: a number's letter prefix read with its digits blurred, and a
checklist, which prints no name, by its set's words (the engine alone, no photo)."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

from identification.decide import decide
from identification.evidence import evidence
from identification.lookup import text_candidates
from identification.numbers import digits_behind_prefix, number_read, prefix_spellings, prefixed_number_read, same_prefix
from identification.thresholds import THRESHOLDS


def _row(name: str, number: str, release: str, set_name: str, year: str = "1991-92") -> dict:
    card = SimpleNamespace(id=uuid.uuid4(), name=name, number=number, set_id=uuid.uuid4(), variation_of=None)
    return {"card": card, "release_name": release, "set_name": set_name, "year": year}


MCD = "1991-92 Upper Deck McDonald's All-Stars"
BASE = _row("Cam Neely", "Mc-1", MCD, "Upper Deck McDonald's All-Stars")
HOLO = _row("Cam Neely", "McH-05", MCD, "Holograms")
CC = _row("Cam Neely", "16", "1996-97 Upper Deck Collector's Choice", "Collector's Choice", "1996-97")
CHECKLIST = _row("Checklist", "Mc-25", MCD, "Upper Deck McDonald's All-Stars")
CC_CHECKLIST = _row("Checklist", "347", "1996-97 Upper Deck Collector's Choice", "Collector's Choice", "1996-97")
MAWILE = _row("Mawile VSTAR", "071", "Silver Tempest", "Silver Tempest", "2022")


def _by_id(*rows) -> dict:
    return {c["card"].id: c for c in rows}


def test_a_prefix_read_with_its_capitals_blurred_names_its_class_not_its_digits():
    # "McH" blurs into "Mell", "Me11", "MeH" ("H" as two strokes, "c" as "e"); "Mc" does not read as those
    assert all(same_prefix("mch05", t) for t in ("mell4", "mell-41", "me11-07", "meh-9"))
    assert not any(same_prefix("mc1", t) for t in ("mell4", "mell-41", "me11-07"))
    assert not same_prefix("mch06", "mel-46")  # "Mel" is as near "Mc" as "McH": neither
    assert not same_prefix("132", "mell4") and not same_prefix("u132", "u-4")  # no prefix of two letters


def test_a_hologram_whose_prefix_is_read_is_told_from_the_base_card_never_high():
    ev = evidence(["8", "Mell4", "Lam Neely", "Wee hoer"])
    assert number_read(ev, "McH-05") == THRESHOLDS.prefix_class and number_read(ev, "Mc-1") == 0.0
    for order in ((BASE, HOLO, CC), (CC, HOLO, BASE)):
        m = decide(ev, _by_id(*order), {})
        assert m is not None and m.best is HOLO and m.tier != "High"


def test_the_digits_read_still_decide_over_a_prefix_alone():
    ev = evidence(["Cam Neely", "Mc-1", "Mell4"])
    m = decide(ev, _by_id(HOLO, BASE), {})
    assert m is not None and m.best is BASE


def test_a_checklist_is_named_by_its_sets_words_never_high():
    # the McDonald's checklist prints its logo, "ALL-STARS" and "JOUEURS ETOILES", no name: "ALL-STARS"
    # fits "Mawile VSTAR" loosely (0.76), its set's words read decide
    ev = evidence(["ALL-STARS", "JOUEURS ÉTOILES"])
    m = decide(ev, _by_id(MAWILE, CC_CHECKLIST, CHECKLIST), {})
    assert m is not None and m.best is CHECKLIST and m.tier != "High"


def test_one_set_word_read_names_no_checklist():
    m = decide(evidence(["STARS", "JOUEURS"]), _by_id(CHECKLIST), {})
    assert m is None


class Lookup:
    async def by_names(self, names):
        return [CHECKLIST, CC_CHECKLIST] if "Checklist" in names else []

    async def by_text(self, read, *, numbers=()):
        return [MAWILE] if "STARS" in read else []

    async def by_trigrams(self, words):
        return []

    async def by_names_and_numbers(self, names, numbers):
        return []

    async def by_years_and_numbers(self, years, numbers):
        return []

    async def by_number_prefixes(self, prefixes):
        return []


async def test_checklists_become_candidates_only_while_no_name_is_read_clearly():
    cands, _ = await text_candidates(Lookup(), evidence(["ALL-STARS", "JOUEURS ÉTOILES"]))
    assert CHECKLIST["card"].id in cands and CC_CHECKLIST["card"].id not in cands  # its set's words read
    cands, _ = await text_candidates(Lookup(), evidence(["Mawile VSTAR", "ALL-STARS"]))
    assert CHECKLIST["card"].id not in cands


def test_the_real_checklist_scan_reads_its_sets_words():
    # the McDonald's checklist as scanned: its logo, "ALL-STARS", "JOUEURS ETOILES", no name, no number
    from tests.conftest import shared_data
    from vision import pipeline

    scan = shared_data("hockeycards", "img", "cards", "McD91-92", "56699-Mc-25Fr.jpg")
    (reading,) = pipeline.analyse(scan.read_bytes()).readings
    m = decide(evidence(reading.lines), _by_id(MAWILE, CC_CHECKLIST, CHECKLIST), {})
    assert m is not None and m.best is CHECKLIST and m.tier != "High"


ROY_HOLO = _row("Patrick Roy", "McH-06", MCD, "Holograms")
ROY_BASE = _row("Patrick Roy", "Mc-8", MCD, "Upper Deck McDonald's All-Stars")
BELL = _row("Derek Bell", "81T", "1990 Score Rookie & Traded Baseball", "Base Set", "1990")


def test_a_prefix_read_is_spelt_as_the_catalog_may_print_it():
    assert "mch" in prefix_spellings("mell-06") and "mch" in prefix_spellings("me11-07")
    assert prefix_spellings("11") == [] and "mc" not in prefix_spellings("mell4")


def test_a_loose_name_is_sought_among_the_class_its_numbers_prefix_names_never_above_low():
    # the hologram re-saved small: "McH-06" read "Mell-06", the name "uriek Ras" (0.62 like Patrick Roy),
    # closer in spelling to a baseball player's (Derek Bell 0.76) whose release nothing read names
    ev = evidence(["Mell-06", "Mel-46", "uriek Ras"])
    assert prefixed_number_read(ev, "McH-06") and not prefixed_number_read(ev, "81T")
    m = decide(ev, _by_id(BELL, ROY_BASE, ROY_HOLO), {})
    assert m is not None and m.best is ROY_HOLO and m.tier == "Low"


def test_a_prefix_read_names_no_card_whose_name_does_not_fit():
    ev = evidence(["Mell-06", "Derek Bell"])
    m = decide(ev, _by_id(BELL, ROY_HOLO), {})
    assert m is not None and m.best is BELL


class ClassLookup(Lookup):
    async def by_text(self, read, *, numbers=()):
        return [BELL]

    async def by_number_prefixes(self, prefixes):
        return [ROY_HOLO, HOLO] if "mch" in prefixes else []


async def test_the_class_a_prefix_read_names_is_looked_up_while_no_name_is_read_clearly():
    cands, _ = await text_candidates(ClassLookup(), evidence(["Mell-06", "uriek Ras"]))
    assert ROY_HOLO["card"].id in cands and HOLO["card"].id not in cands  # Cam Neely fits "uriek Ras" too loosely
    cands, _ = await text_candidates(ClassLookup(), evidence(["Mell-06", "Derek Bell"]))
    assert ROY_HOLO["card"].id not in cands


GRETZKY_BASE = _row("Wayne Gretzky", "Mc-17", MCD, "Upper Deck McDonald's All-Stars")
GRETZKY_HOLO = _row("Wayne Gretzky", "McH-01", MCD, "Holograms")
GRETZKY_EXTRA = _row("Wayne Gretzky", "NNO1", "1996-97 Upper Deck Collector's Choice", "Wayne Gretzky Extras", "1996-97")


def test_a_prefixed_numbers_digits_read_behind_an_illegible_prefix_tell_namesakes_apart_never_high():
    assert digits_behind_prefix("mch01", "tel-01") and not digits_behind_prefix("mch01", "tel-1")
    assert not digits_behind_prefix("nno1", "tel-01") and not digits_behind_prefix("mch01", "te-01")
    m = decide(evidence(["tel-01", "Wayee kiretrky", "Ersier"]), _by_id(GRETZKY_BASE, GRETZKY_EXTRA, GRETZKY_HOLO), {})
    assert m is not None and m.best is GRETZKY_HOLO and m.tier != "High"


NEST_BALL = _row("Nest Ball", "084", "Paldean Fates", "Paldean Fates", "2024")
HULL = _row("Brett Hull", "McH-04", MCD, "Holograms")


class NearLookup(Lookup):
    async def by_text(self, read, *, numbers=()):
        return [NEST_BALL]

    async def by_names(self, names):
        return [HULL] if "Brett Hull" in names else []


async def test_a_name_matching_one_word_of_a_name_line_does_not_stop_the_lookup_by_letter_pairs():
    # "Nest Ball" 0.85 by its word "Mall", 0.63 as the line: Brett Hull, the whole line, is looked up and comes first
    ev = evidence(["16", "Mrett Mall", "ller fest", "Mrinai", "Beett Mall", "i44"])
    cands, ev = await text_candidates(NearLookup(), ev, near=["Brett Hull"])
    assert HULL["card"].id in cands
    m = decide(ev, cands, {})
    assert m is not None and m.best is HULL and m.tier == "Low"
