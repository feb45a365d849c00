"""The collector-typing perturbations: each changes a question the way it says, and keeps the rest."""

from __future__ import annotations

import random

import pytest

from evals import perturb
from vision.text import edit_distance as _edit_distance  # plain Levenshtein: a swap is two edits


def _rng(seed: int = 0) -> random.Random:
    return random.Random(seed)


@pytest.mark.parametrize("seed", range(30))
def test_typo_changes_one_long_word_by_one_letter(seed: int) -> None:
    q = "what is a psa 9 charizard worth"
    out = perturb.typo(q, _rng(seed))
    changed = [(a, b) for a, b in zip(q.split(), out.split()) if a != b]
    assert len(out.split()) == len(q.split()) and len(changed) == 1
    before, after = changed[0]
    assert len(before) >= perturb.TYPO_MIN_LEN and before[0] == after[0]
    swapped = sorted(before) == sorted(after) and _edit_distance(before, after) == 2
    assert _edit_distance(before, after) == 1 or swapped


def test_typo_leaves_short_words_and_numbers() -> None:
    assert perturb.typo("psa 10 zard 4/102", _rng()) == "psa 10 zard 4/102"


def test_lower_no_punct_keeps_grades_numbers_and_apostrophes() -> None:
    assert perturb.lower_no_punct("What's a BGS 9.5 Jordan #57, 1986 Fleer?", _rng()) == \
        "what's a bgs 9.5 jordan #57 1986 fleer"


def test_drop_apostrophes_keeps_a_short_year() -> None:
    assert perturb.drop_apostrophes("what's my '87 topps bonds worth, don't guess", _rng()) == \
        "whats my '87 topps bonds worth, dont guess"


def test_lead_in_prefixes_filler_and_keeps_the_question() -> None:
    out = perturb.lead_in("How many cards in fossil", _rng(3))
    lead = next(w for w in perturb.LEAD_INS if out.startswith(w))
    assert out.endswith("how many cards in fossil") and len(out) > len(lead) + len("how many cards in fossil")


def test_abbreviate_uses_texting_forms() -> None:
    assert perturb.abbreviate("can you please show your cards with prices", _rng()) == \
        "can u pls show ur cards w/ prices"


@pytest.mark.parametrize("seed", range(6))
def test_year_style_rewrites_the_year_only(seed: int) -> None:
    out = perturb.year_style("1987 topps bonds #320 psa 10 $1999", _rng(seed))
    assert out in ("'87 topps bonds #320 psa 10 $1999", "87 topps bonds #320 psa 10 $1999")
    assert perturb.year_style("my '09 bowman trout", _rng(seed)) == "my 2009 bowman trout"


def test_swap_name_year_moves_the_year_across_the_name() -> None:
    case = {"_name": "Ken Griffey Jr."}
    assert perturb.swap_name_year("ken griffey jr 1989 upper deck", _rng(), case) == "1989 ken griffey jr upper deck"
    assert perturb.swap_name_year("89 Ken Griffey Jr. rookie", _rng(), case) == "Ken Griffey Jr 89 rookie"
    assert perturb.swap_name_year("griffey rookie", _rng(), case) == "griffey rookie"
    assert perturb.swap_name_year("psa 10 Ken Griffey Jr. value", _rng(), case) == "psa 10 Ken Griffey Jr. value"


def test_suite_keeps_facts_and_is_seeded() -> None:
    doc = {"suite": "s", "cards": {"z": {"name": "Charizard", "number": "4", "release": "Base Set"}},
           "cases": [{"id": f"c{i}", "family": "prices", "q": "what's a psa 9 base set charizard worth?",
                      "card": "z", "fact": {"price": "PSA 9"}} for i in range(20)]}
    one, again = perturb.perturb_suite(doc, 1), perturb.perturb_suite(doc, 1)
    assert one == again and one["suite"] == "s-perturbed-s1"
    assert all(c["fact"] == {"price": "PSA 9"} and c["card"] == "z" for c in one["cases"])
    assert sum(c["q"] != c["original"] for c in one["cases"]) >= 18
    assert perturb.perturb_suite(doc, 2)["cases"] != one["cases"]


def test_unseen_parts_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert perturb.main(["evals/suites/collector-heldout.yaml", "--out", str(tmp_path / "x.yaml")]) == 2
    assert not (tmp_path / "x.yaml").exists()
