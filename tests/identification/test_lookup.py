"""Candidates for a name misread beyond the search index's typo budget (the engine alone, no photo, no
database)."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

from identification.catalog_names import CatalogNames
from identification.decide import decide
from identification.evidence import evidence
from identification.lookup import text_candidates

SEGMENT = uuid.uuid4()


def _row(name: str, number: str, set_name: str = "Base Set", year: str = "1989") -> dict:
    card = SimpleNamespace(id=uuid.uuid4(), name=name, number=number, set_id=uuid.uuid4(), variation_of=None)
    return {"card": card, "release_name": f"{year} {set_name}", "set_name": set_name, "year": year}


WAYNES = ["Wayne Kirby", "Gary Wayne", "Wayne Tolleson", "Wayne Edwards", "Wayne Gross", "Wayne Gomes",
          "Wayne Garland", "Wayne Wilson", "John Wayne", "Wayne Gretzky"]
OTHERS = ["Patrick Roy", "Mark Recchi", "Mark Grace", "Jaret Wright", "Mike Vernon", "Arcanine", "Eevee", "Seel"]


def test_a_name_misread_in_every_word_is_among_the_names_alike():
    names = CatalogNames([(n, SEGMENT) for n in [*WAYNES, *OTHERS]])
    assert "Patrick Roy" in names.alike(["33", "Parlek Bay"], k=3)
    assert "Wayne Gretzky" in names.alike(["Wayne Grvtaks"], k=3)
    assert names.alike(["33", "★", "DECI"]) == []  # no line that may be a name (a short one fits any)
    assert names.alike(["Parlek Bay"], segment_id=uuid.uuid4()) == []  # another segment's photo


class Lookup:
    """The search index found only the words it could: "Right Wing" is Jaret Wright's."""

    def __init__(self, rows: list[dict]):
        self.rows, self.asked = rows, []

    async def by_names(self, names):
        self.asked.append(list(names))
        return [r for r in self.rows if r["card"].name in names]

    async def by_text(self, read, *, numbers=()):
        return [r for r in self.rows if r["card"].name == "Jaret Wright"]

    async def by_trigrams(self, words):
        return []

    async def by_names_and_numbers(self, names, numbers):
        return []

    async def by_years_and_numbers(self, years, numbers):
        return []


async def test_the_name_alike_that_fits_a_line_is_looked_up_and_chosen():
    recchi, wright, grace = _row("Mark Recchi", "Mc-4"), _row("Jaret Wright", "430"), _row("Mark Grace", "1")
    lookup = Lookup([recchi, wright, grace])
    lines = ["Mark Reecehi", "Right Wing/Ailier droit"]
    cands, ev = await text_candidates(lookup, evidence(lines), alike=["Mark Grace", "Mark Recchi", "Jaret Wright"])
    assert recchi["card"].id in cands
    m = decide(ev, cands, {})
    assert m is not None and m.best is recchi


async def test_names_alike_are_not_looked_up_when_a_name_is_read_clearly():
    wright = _row("Jaret Wright", "430")
    lookup = Lookup([wright, _row("Jared Wright", "12")])
    cands, _ = await text_candidates(lookup, evidence(["Jaret Wright"]), alike=["Jared Wright"])
    assert [c["card"].name for c in cands.values()] == ["Jaret Wright"]
    assert all("Jared Wright" not in asked for asked in lookup.asked)


def test_a_name_read_loosely_is_never_high_whatever_number_is_read():
    # a hologram of Brett Hull re-saved small: "Klue Seat" is 0.7-0.8 like Kyle Seager, and "11" his number
    seager = _row("Kyle Seager", "11", "Retro 1984 Signatures", "2019")
    m = decide(evidence(["11", "HeB-01", "Beest Iull", "Klue Seat"]), {seager["card"].id: seager}, {})
    assert m is None or m.tier != "High"
