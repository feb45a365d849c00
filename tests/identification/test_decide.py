"""Deciding between namesakes by what is printed (the engine alone, no photo)."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

from identification.decide import decide
from identification.evidence import evidence
from identification.names import name_similarity


def _row(name: str, number: str, release: str, set_name: str, year: str) -> dict:
    card = SimpleNamespace(id=uuid.uuid4(), name=name, number=number, set_id=uuid.uuid4(), variation_of=None)
    return {"card": card, "release_name": release, "set_name": set_name, "year": year}


MCD = _row("Kevin Stevens", "Mc-3", "1991-92 Upper Deck McDonald's All-Stars", "Upper Deck McDonald's All-Stars",
           "1991-92")
CC = _row("Kevin Stevens", "124", "1996-97 Upper Deck Collector's Choice", "Collector's Choice", "1996-97")


def test_a_brand_every_namesake_prints_favours_none_of_them():
    # the McDonald's front prints the name and the Upper Deck logo, as the Collector's Choice card does:
    # the shorter release name must not win on a larger share of its words read
    for order in ([MCD, CC], [CC, MCD]):
        m = decide(evidence(["UPPER", "Kevin Stevens", "Left Wing/Ailier gauche"]),
                   {c["card"].id: c for c in order}, {})
        assert m is not None and m.tier != "High"
        assert m.best is order[0] and m.alternatives[0] is order[1]  # a tie, the namesake suggested


def test_a_word_of_one_release_read_picks_it():
    m = decide(evidence(["Kevin Stevens", "ALL-STARS"]), {c["card"].id: c for c in (CC, MCD)}, {})
    assert m is not None and m.best is MCD and CC in m.alternatives
    m = decide(evidence(["Kevin Stevens", "Collector's Choice"]), {c["card"].id: c for c in (MCD, CC)}, {})
    assert m is not None and m.best is CC


def test_a_name_inside_a_longer_word_read_is_not_read():
    # "Seott Stevens" read: the Pokemon card "Steven" #95 had won on "steven" inside "stevens"
    steven = _row("Steven", "95", "Ancient Origins", "Ancient Origins", "2015")
    scott = _row("Scott Stevens", "Mc-24", "1991-92 Upper Deck McDonald's All-Stars", "Upper Deck McDonald's All-Stars",
                 "1991-92")
    m = decide(evidence(["3", "Seott Stevens", "Defense/Défenseur"]), {c["card"].id: c for c in (steven, scott)}, {})
    assert m is not None and m.best is scott


def test_a_set_named_after_the_player_is_not_read_by_reading_the_name():
    # "Wayne Gretzky Extras" is a set of Collector's Choice: the name read is not its set read
    extras = _row("Wayne Gretzky", "NNO1", "1996-97 Upper Deck Collector's Choice", "Wayne Gretzky Extras", "1996-97")
    mcd = _row("Wayne Gretzky", "Mc-17", "1991-92 Upper Deck McDonald's All-Stars", "Upper Deck McDonald's All-Stars",
               "1991-92")
    m = decide(evidence(["Wayne Gretzky", "Centre/Centre"]), {c["card"].id: c for c in (mcd, extras)}, {})
    assert m is not None and m.best is mcd and m.tier != "High" and extras in m.alternatives


def test_a_name_read_with_confusable_letters_inside_a_longer_one_is_not_read():
    # "Seott Stevens" is Scott Stevens read with "c" as "e"; the trainer card "Scott" had tied with him
    from identification.names import names_read_whole

    trainer = _row("Scott", "84", "Emerald", "Emerald", "2005")
    scott = _row("Scott Stevens", "Mc-24", "1991-92 Upper Deck McDonald's All-Stars", "Upper Deck McDonald's All-Stars",
                 "1991-92")
    for order in ([trainer, scott], [scott, trainer]):
        ev = evidence(["Seott Stevens", "Defense/Défenseur"])
        ev = ev.with_read_whole(names_read_whole(ev, order))
        m = decide(ev, {c["card"].id: c for c in order}, {})
        assert m is not None and m.best is scott


def test_a_name_read_clearly_comes_first_over_a_loose_one_lifted_by_a_number():
    # "KARIYA" / "PAUL" read, and "41": Hariyama #41 (a loose fit of the words) had been the answer
    hariyama = _row("Hariyama", "41", "Great Encounters", "Great Encounters", "2008")
    kariya = _row("Paul Kariya", "1", "1996-97 Upper Deck Collector's Choice", "Collector's Choice", "1996-97")
    m = decide(evidence(["KARIYA", "PAUL", "41"]), {c["card"].id: c for c in (hariyama, kariya)}, {})
    assert m is not None and m.best is kariya and m.tier != "High" and hariyama in m.alternatives


def test_a_sure_picture_is_not_sunk_by_print_that_names_no_card_clearly():
    # the McDonald's checklist prints no name; "ALL-STARS" fits "Mawile VSTAR" loosely
    checklist = _row("Checklist", "Mc-25", "1991-92 Upper Deck McDonald's All-Stars",
                     "Upper Deck McDonald's All-Stars", "1991-92")
    mawile = _row("Mawile VSTAR", "071", "Silver Tempest", "Silver Tempest", "2022")
    other = _row("Rick Tocchet", "Mc-2", "1991-92 Upper Deck McDonald's All-Stars", "Upper Deck McDonald's All-Stars",
                 "1991-92")  # another card of the set, its picture alike in part
    cands = {c["card"].id: c for c in (mawile, checklist, other)}
    m = decide(evidence(["ALL-STARS", "JOUEURS ÉTOILES"]), cands, {checklist["card"].id: 0.88, other["card"].id: 0.6})
    assert m is not None and m.best is checklist
    # a name read clearly is not overruled by another card's picture
    neely = _row("Cam Neely", "Mc-1", "1991-92 Upper Deck McDonald's All-Stars", "Upper Deck McDonald's All-Stars",
                 "1991-92")
    m = decide(evidence(["Cam Neely"]), {c["card"].id: c for c in (neely, checklist)}, {checklist["card"].id: 0.88})
    assert m is not None and m.best is neely


def test_a_picture_ahead_of_the_rest_beats_a_loose_name_but_is_never_high():
    # a re-save 0.5-0.7 like its own scan (every other card's 0.2-0.3), the print fitting a name loosely
    checklist = _row("Checklist", "Mc-25", "1991-92 Upper Deck McDonald's All-Stars",
                     "Upper Deck McDonald's All-Stars", "1991-92")
    mawile = _row("Mawile VSTAR", "071", "Silver Tempest", "Silver Tempest", "2022")
    other = _row("Andy Moog", "Mc-9", "1991-92 Upper Deck McDonald's All-Stars", "Upper Deck McDonald's All-Stars",
                 "1991-92")
    cands = {c["card"].id: c for c in (mawile, checklist, other)}
    visual = {checklist["card"].id: 0.71, other["card"].id: 0.31}
    m = decide(evidence(["ALL-STARS", "VSTAS"]), cands, visual)  # Mawile VSTAR 0.76 like it
    assert m is not None and m.best is checklist and m.tier != "High"
    # not when another name is read clearly
    m = decide(evidence(["Mawile VSTAR"]), cands, visual)
    assert m is not None and m.best is mawile


def test_a_sure_picture_is_not_sunk_by_a_loose_fit_of_garbled_print():
    # "Airlin" fits Kirlia at 0.8 by its outline: no name read clearly
    gretzky = _row("Wayne Gretzky", "Mc-17", "1991-92 Upper Deck McDonald's All-Stars",
                   "Upper Deck McDonald's All-Stars", "1991-92")
    kirlia = _row("Kirlia", "60", "Legendary Treasures", "Legendary Treasures", "2013")
    other = _row("Vincent Damphousse", "Mc-16", "1991-92 Upper Deck McDonald's All-Stars",
                 "Upper Deck McDonald's All-Stars", "1991-92")
    cands = {c["card"].id: c for c in (kirlia, gretzky, other)}
    m = decide(evidence(["Airlin", "Bayer Snody"]), cands, {gretzky["card"].id: 0.9, other["card"].id: 0.43})
    assert m is not None and m.best is gretzky


def test_a_picture_ahead_of_its_namesakes_pictures_tells_the_card_once_the_name_is_read():
    # a hologram re-saved small: 0.42 like its scan, 0.30 like another hologram, 0.2 like the player's
    # base card; the name read, nothing of the set, the year of another namesake read
    holo = _row("Ray Bourque", "McH-03", "1991-92 Upper Deck McDonald's All-Stars", "Holograms", "1991-92")
    base = _row("Ray Bourque", "Mc-10", "1991-92 Upper Deck McDonald's All-Stars", "Upper Deck McDonald's All-Stars",
                "1991-92")
    other = _row("Ray Bourque", "304", "1996-97 Upper Deck Collector's Choice", "Collector's Choice", "1996-97")
    holo2 = _row("Chris Chelios", "McH-02", "1991-92 Upper Deck McDonald's All-Stars", "Holograms", "1991-92")
    cands = {c["card"].id: c for c in (other, base, holo, holo2)}
    visual = {holo["card"].id: 0.42, holo2["card"].id: 0.3, base["card"].id: 0.2}
    m = decide(evidence(["Ray Bourque", "1996"]), cands, visual)
    assert m is not None and m.best is holo and m.tier != "High"


def test_a_name_found_only_by_its_letter_pairs_is_a_guess_never_high():
    # a 85 % re-save of Brett Hull's hologram: "Klue Seat" found Kyle Seager by the letter pairs they share,
    # and the "11" read beside it had made him High
    seager = _row("Kyle Seager", "11", "2018 Donruss Baseball", "Retro 1984 Signatures", "2018")
    lines = ["11", "HeB-01", "Beest Iull", "Klue Seat"]
    cands = {seager["card"].id: seager}
    m = decide(evidence(lines), cands, {})
    assert m is not None and m.tier == "High"  # as any name the lookups had found
    m = decide(evidence(lines).with_near({"Kyle Seager"}), cands, {})
    assert m is not None and m.best is seager and m.tier == "Low"


def test_a_name_that_is_the_whole_line_read_beats_a_shorter_one_matching_one_word_never_high():
    # "thrie thelios": Shellos 0.91 by its one word (0.60 as the line), Chris Chelios 0.85 (0.77 as the line)
    def row(name, number, release):
        card = SimpleNamespace(id=uuid.uuid4(), name=name, number=number, set_id=uuid.uuid4(), variation_of=None)
        return {"card": card, "release_name": release, "set_name": release, "year": "1991"}

    shellos, chelios = row("Shellos", "046", "Surging Sparks"), row("Chris Chelios", "McH-02", "McDonald's")
    ev = evidence(["1.842", "thrie thelios", "1i842", "thric thellos"])
    m = decide(ev, {c["card"].id: c for c in (shellos, chelios)}, {})
    assert m is not None and m.best is chelios and m.tier == "Low"
    m = decide(evidence(["Shellos", "thrie"]), {c["card"].id: c for c in (shellos, chelios)}, {})
    assert m is not None and m.best is shellos  # read as is: the line is the name


def test_a_prefixed_number_read_names_its_card_while_its_letters_name_no_one():
    # an 84 % re-save of Patrick Roy's hologram McH-06: "Mell-06" is its number, not "Bell" of Derek Bell
    # (who came first by it); with the digits read, the hologram is the answer although its name is not read
    bell, adams = (_row(n, num, r, "Base Set", "1990") for n, num, r in (("Derek Bell", "81T", "1990 Score"),
                                                                         ("Rick Adams", "85", "1990 Topps")))
    roy = _row("Patrick Roy", "McH-06", "1991-92 Upper Deck McDonald's All-Stars", "Holograms", "1991-92")
    ev = evidence(["Mel-46", "Mell-06", "uriek Ras"])
    assert name_similarity(ev, "Derek Bell") < 0.6
    m = decide(ev, {c["card"].id: c for c in (adams, bell, roy)}, {})
    assert m is not None and m.best is roy and m.tier == "Low"
    m = decide(evidence(["Mell-06"]), {roy["card"].id: roy}, {})  # the number alone: still an answer, Low
    assert m is not None and m.best is roy and m.tier == "Low"


def test_a_foil_look_breaks_a_tie_between_a_hologram_and_its_namesakes():
    base = _row("Patrick Roy", "Mc-8", "1991-92 Upper Deck McDonald's All-Stars", "Upper Deck McDonald's All-Stars",
                "1991-92")
    holo = _row("Patrick Roy", "McH-06", "1991-92 Upper Deck McDonald's All-Stars", "Holograms", "1991-92")
    cands = {c["card"].id: c for c in (base, holo)}
    ev = evidence(["Patriek ay", "seente"])
    for foil, want in ((True, holo), (False, base), (None, base)):
        m = decide(ev, cands, {}, foil=foil)
        assert m is not None and m.best is want and m.tier != "High"


def test_a_name_whose_words_match_only_against_the_reading_order_is_a_weaker_fit():
    # "Cam breb" (a small re-save of Cam Neely): Drew Beam by "breb" then "cam" no longer beats him
    ev = evidence(["8", "Cam breb"])
    assert name_similarity(ev, "Cam Neely") > name_similarity(ev, "Drew Beam")
    assert name_similarity(evidence(["Pral Callry"]), "Paul Coffey") >= 0.7  # in order: as before


def test_a_hologram_looks_foil_and_a_printed_card_does_not():
    import numpy as np

    from identification.thresholds import THRESHOLDS as T
    from vision.features import sheen

    rng = np.random.default_rng(1)
    pastel = np.clip(rng.normal((225, 200, 230), 15, (140, 100, 3)), 0, 255).astype(np.uint8)  # tinted sheen
    printed = np.full((140, 100, 3), 250, np.uint8)  # white paper, a saturated photo in its middle
    printed[30:110, 15:85] = (20, 60, 160)
    assert sheen(pastel) >= T.foil_sheen > sheen(printed)


def test_a_name_spotted_nearly_as_like_the_print_comes_before_a_loose_read_never_high():
    # a closer read's "Dama Bayr" fits another catalog name a little better than the name the first read's line
    # was spotted as (the clear best fit of the recogniser's output there, over every catalog name)
    spotted = _row("Dana Royce", "Mc-8", "1991-92 Upper Deck McDonald's All-Stars", "Upper Deck McDonald's All-Stars",
                   "1991-92")
    loose = _row("Dana Bayer", "40", "2024 Topps Baseball", "Base Set", "2024")
    cands = {c["card"].id: c for c in (loose, spotted)}
    ev = evidence(["33", "Dama tey", "Dama Bayr"])
    assert 0.8 <= name_similarity(ev, "Dana Bayer") < 0.9
    m = decide(ev, cands, {})
    assert m is not None and m.best is loose  # nothing spotted: the read decides
    m = decide(ev.with_spotted(names={"Dana Royce": name_similarity(ev, "Dana Bayer") - 0.05}), cands, {})
    assert m is not None and m.best is spotted and m.tier == "Low"
    m = decide(ev.with_spotted(names={"Dana Royce": name_similarity(ev, "Dana Bayer") - 0.15}), cands, {})
    assert m is not None and m.best is loose  # spotted far less like the print than the name read
