"""Deciding between namesakes by what is printed (the engine alone, no photo)."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

from identification.decide import decide
from identification.evidence import evidence


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
