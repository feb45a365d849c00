"""Names read too garbled for the search index found by the letter pairs they share with the line."""

from __future__ import annotations

import uuid

from identification.catalog_names import CatalogNames

SEGMENT = uuid.uuid4()
NAMES = ["Ray Bourque", "Ray Burris", "Bob Murray", "Brett Hull", "Marc Hill", "Net Ball", "Wayne Gretzky",
         "Wayne Gross", "Wayne Garland", "Vincent Damphousse", "Shellos", "Chris Chelios", "Patrick Roy",
         "Patrick Bailey", "Kirlia"]


def test_a_garbled_name_line_finds_the_name_among_its_neighbours():
    names = CatalogNames([(n, SEGMENT) for n in NAMES])
    assert "Ray Bourque" in names.near_in(["Ray Boaryur"])
    assert "Brett Hull" in names.near_in(["16", "Mrett Mall"])
    assert "Wayne Gretzky" in names.near_in(["Wayne Grvtaks"])
    assert "Vincent Damphousse" in names.near_in(["Vizernt Dunghossse"])
    assert "Chris Chelios" in names.near_in(["thrie thelios"])


def test_only_name_lines_are_used_and_few_names_each():
    names = CatalogNames([(n, SEGMENT) for n in NAMES])
    assert names.near_in(["Airlin", "33", "Mrlin"]) == []  # one word: too little to tell a name by
    assert len(names.near_in(["Wayne Grvtaks"])) <= 5
