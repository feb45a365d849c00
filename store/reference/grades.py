"""Grading companies, their grading types and every grade, from each company's published scale.

Identifiers are uuid5 values derived from names, so loading is idempotent and the ids are the
same on every installation (a client may hard-code PSA 10).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://cardwise.invalid/grades")

# The ten-point scale shared (with small wording differences) by most companies.
_TEN_POINT = [
    ("9", "Mint"), ("8.5", "Near Mint-Mint+"), ("8", "Near Mint-Mint"), ("7.5", "Near Mint+"),
    ("7", "Near Mint"), ("6.5", "Excellent-Mint+"), ("6", "Excellent-Mint"), ("5.5", "Excellent+"),
    ("5", "Excellent"), ("4.5", "Very Good-Excellent+"), ("4", "Very Good-Excellent"),
    ("3.5", "Very Good+"), ("3", "Very Good"), ("2.5", "Good+"), ("2", "Good"), ("1.5", "Fair"),
    ("1", "Poor"),
]
_WHOLE = [(v, c) for v, c in _TEN_POINT if "." not in v]


@dataclass(frozen=True)
class TypeSpec:
    name: str
    description: str
    grades: list[tuple[str, str | None]]


@dataclass(frozen=True)
class CompanySpec:
    abbreviation: str
    name: str
    description: str
    types: list[TypeSpec]
    qualifiers: list[tuple[str, str]] | None = None
    note: str | None = None


PSA_QUALIFIERS = [
    ("OC", "Off Center"), ("ST", "Staining"), ("PD", "Print Defect"),
    ("OF", "Out of Focus"), ("MK", "Marks"), ("MC", "Miscut"),
]

COMPANIES: list[CompanySpec] = [
    CompanySpec(
        "PSA", "Professional Sports Authenticator",
        "The largest third-party grader; 1-10 scale with half grades from 1.5 to 8.5.",
        [
            TypeSpec("Card", "Card condition grade", [("10", "Gem Mint")] + _TEN_POINT
                     + [("Authentic", "Authentic"), ("Authentic Altered", "Authentic Altered")]),
            TypeSpec("Autograph", "PSA/DNA autograph grade", [("10", "Gem Mint")] + _WHOLE),
        ],
        qualifiers=PSA_QUALIFIERS,
        note="A qualifier (OC, ST, PD, OF, MK, MC) marks a specific flaw; qualified cards are counted separately in population reports.",
    ),
    CompanySpec(
        "BGS", "Beckett Grading Services",
        "Four subgrades (centering, corners, edges, surface) and an overall grade in half steps.",
        [
            TypeSpec("Card", "Overall card grade", [("10 Black Label", "Pristine"), ("10", "Pristine"), ("9.5", "Gem Mint")]
                     + _TEN_POINT + [("Authentic", "Authentic")]),
            TypeSpec("Subgrade", "Centering, corners, edges or surface subgrade",
                     [("10", "Pristine"), ("9.5", "Gem Mint")] + _TEN_POINT),
            TypeSpec("Autograph", "Beckett autograph grade", [("10", "Gem Mint")] + _WHOLE),
        ],
        note="Black Label: a 10 overall with four 10 subgrades.",
    ),
    CompanySpec(
        "SGC", "Sportscard Guaranty Corporation", "1-10 scale with half grades; Pristine 10 on a gold label.",
        [TypeSpec("Card", "Card condition grade", [("10 Pristine", "Pristine"), ("10", "Gem Mint"), ("9.5", "Mint+")]
                  + _TEN_POINT + [("Authentic", "Authentic"), ("Authentic Altered", "Authentic Altered")]),
         TypeSpec("Autograph", "SGC autograph grade", [("10", "Gem Mint")] + _WHOLE)],
    ),
    CompanySpec(
        "CGC", "CGC Trading Cards", "1-10 scale with half grades; Pristine 10 above Gem Mint 10.",
        [TypeSpec("Card", "Card condition grade", [("10 Pristine", "Pristine"), ("10", "Gem Mint"), ("9.5", "Mint+")]
                  + _TEN_POINT + [("Authentic", "Authentic"), ("Authentic Altered", "Authentic Altered")])],
    ),
    CompanySpec(
        "TAG", "Technical Authentication & Grading", "Computer-vision grading on a 1-10 scale with a 1000-point score.",
        [TypeSpec("Card", "Card condition grade", [("10 Pristine", "Pristine"), ("10", "Gem Mint"), ("9.5", "Mint+")]
                  + _TEN_POINT)],
    ),
    CompanySpec(
        "HGA", "Hybrid Grading Approach", "1-10 scale with half grades and custom labels.",
        [TypeSpec("Card", "Card condition grade", [("10 Pristine", "Pristine"), ("10", "Gem Mint"), ("9.5", "Mint+")]
                  + _TEN_POINT)],
    ),
    CompanySpec(
        "CSG", "Certified Sports Guaranty", "CGC's sports-card grader; Perfect 10 and Pristine 10 above Gem Mint 10.",
        [TypeSpec("Card", "Card condition grade", [("10 Perfect", "Perfect"), ("10 Pristine", "Pristine"), ("10", "Gem Mint"),
                                                   ("9.5", "Mint+")] + _TEN_POINT + [("Authentic", "Authentic")])],
    ),
    CompanySpec(
        "BRCR", "Beckett Raw Card Review", "Beckett's review of ungraded (raw) cards, returned without a slab.",
        [TypeSpec("Raw Review", "Raw card condition review", [("10", "Gem Mint")] + _WHOLE)],
    ),
    CompanySpec(
        "ISA", "International Sports Authentication", "1-10 scale with half grades.",
        [TypeSpec("Card", "Card condition grade", [("10", "Gem Mint")] + _TEN_POINT + [("Authentic", "Authentic")])],
    ),
]


def company_id(abbreviation: str) -> uuid.UUID:
    return uuid.uuid5(NAMESPACE, f"company:{abbreviation}")


def type_id(abbreviation: str, type_name: str) -> uuid.UUID:
    return uuid.uuid5(NAMESPACE, f"type:{abbreviation}:{type_name}")


def grade_id(abbreviation: str, type_name: str, value: str) -> uuid.UUID:
    return uuid.uuid5(NAMESPACE, f"grade:{abbreviation}:{type_name}:{value}")


def numeric_value(value: str) -> float | None:
    head = value.split(" ")[0]
    try:
        return float(head)
    except ValueError:
        return None
