"""Rewrite a collector suite's questions the way collectors type, keeping every expected fact.

    python -m evals.perturb evals/suites/collector-dev.yaml --seed 1 --out /tmp/dev-p1.yaml

Each question gets one to three of the named perturbations below (seeded per case, so a rerun
with the same seed writes the same file); the case keeps its id, card and fact, and records the
original wording (``original``) and what was done to it (``perturbed``). Only for tuned suites:
the unseen parts stay unread.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

UNSEEN = ("collector-heldout", "collector-fresh", "collector-dev9")   # never perturbed (never read)

# QWERTY neighbours of each letter, for a finger that lands one key off
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
NEIGHBOURS = {c: "".join(r[j] for j in (i - 1, i + 1) if 0 <= j < len(r)) for r in _ROWS for i, c in enumerate(r)}
TYPO_MIN_LEN = 5          # typos only in words this long or longer (short words are too often a new word)
_TYPO_WORD = re.compile(rf"\b[A-Za-z]{{{TYPO_MIN_LEN},}}\b")


def _one_typo(word: str, rng: random.Random) -> str:
    """One letter dropped, doubled, swapped with its neighbour, or hit one key off (never the first)."""
    i = rng.randrange(1, len(word) - 1)
    how = rng.choice(("drop", "double", "swap", "key"))
    if how == "drop":
        return word[:i] + word[i + 1:]
    if how == "double":
        return word[:i] + word[i] + word[i:]
    if how == "swap" and word[i] != word[i + 1]:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    near = NEIGHBOURS.get(word[i].lower(), "")
    return word[:i] + rng.choice(near) + word[i + 1:] if near else word[:i] + word[i + 1:]


def typo(text: str, rng: random.Random, case: dict[str, Any] | None = None) -> str:
    """One one-letter typo in one word of 5+ letters (card names included)."""
    words = list(_TYPO_WORD.finditer(text))
    if not words:
        return text
    m = rng.choice(words)
    return text[:m.start()] + _one_typo(m.group(0), rng) + text[m.end():]


_PUNCT = re.compile(r"[?!,;:]|\.(?!\d)|(?<!\d)\.")


def lower_no_punct(text: str, rng: random.Random, case: dict[str, Any] | None = None) -> str:
    """All lower case, sentence punctuation gone (decimals like 9.5, '#', '/' and apostrophes kept)."""
    return re.sub(r"\s{2,}", " ", _PUNCT.sub(" ", text.lower())).strip()


_APOSTROPHE = re.compile(r"(?<=[A-Za-z])['\u2019](?=[A-Za-z])")


def drop_apostrophes(text: str, rng: random.Random, case: dict[str, Any] | None = None) -> str:
    """No apostrophe inside a word: "what's" -> "whats", "don't" -> "dont" ('87 keeps its own)."""
    return _APOSTROPHE.sub("", text)


LEAD_INS = ("hey quick q", "so", "ok so", "quick question", "hey", "hi there", "yo", "random q but")


def lead_in(text: str, rng: random.Random, case: dict[str, Any] | None = None) -> str:
    """A filler opening before the question ("hey quick q, ...", "so ...")."""
    lead = rng.choice(LEAD_INS)
    sep = rng.choice((" ", ", ", " - ")) if len(lead.split()) > 1 else " "
    return f"{lead}{sep}{text[:1].lower()}{text[1:]}"


ABBREVIATIONS = ((r"\byou are\b|\byou're\b|\byoure\b", "ur"), (r"\byour\b", "ur"), (r"\byou\b", "u"),
                 (r"\bplease\b", "pls"), (r"\bwith\b", "w/"), (r"\bwithout\b", "w/o"),
                 (r"\bbecause\b", "cuz"), (r"\bthanks\b", "thx"), (r"\bi don'?t know\b", "idk"))


def abbreviate(text: str, rng: random.Random, case: dict[str, Any] | None = None) -> str:
    """Texting short forms: you -> u, your -> ur, please -> pls, with -> w/."""
    for pattern, short in ABBREVIATIONS:
        text = re.sub(pattern, short, text, flags=re.I)
    return text


_FULL_YEAR = re.compile(r"(?<![\d#/$.-])(19[5-9]\d|20[0-2]\d)(?![\d/.-])")
_SHORT_YEAR = re.compile(r"(?<![\w#/$.])'(\d\d)\b")


def year_style(text: str, rng: random.Random, case: dict[str, Any] | None = None) -> str:
    """A year written another way: 1987 -> '87 or 87, and '87 -> 1987."""
    if _SHORT_YEAR.search(text):
        return _SHORT_YEAR.sub(lambda m: ("19" if int(m.group(1)) > 30 else "20") + m.group(1), text)
    style = rng.choice(("'", ""))
    return _FULL_YEAR.sub(lambda m: style + m.group(1)[2:], text)


def _card_name(case: dict[str, Any] | None, cards: dict[str, Any]) -> str | None:
    card = (case or {}).get("card")
    entity = cards.get(card) if isinstance(card, str) else card
    return entity.get("name") if isinstance(entity, dict) else None


_GRADED = "(?:psa|bgs|sgc|cgc|tag|hga|csg|grade)"   # a number after these is a grade, not a year


def swap_name_year(text: str, rng: random.Random, case: dict[str, Any] | None = None) -> str:
    """The card's name and the year beside it in the other order ("griffey 1989" <-> "1989 griffey")."""
    name = (case or {}).get("_name")
    if not name:
        return text
    n = re.escape(name.rstrip("."))
    after = re.search(rf"(?i)\b({n})\.?\s+('?\d{{2}}|\d{{4}})\b", text)
    if after:
        return text[:after.start()] + f"{after.group(2)} {after.group(1)}" + text[after.end():]
    before = re.search(rf"(?i)(?<![\w'#])('?\d{{2}}|\d{{4}})\s+({n})\b\.?", text)
    if before and not re.search(rf"(?i)\b{_GRADED}\s*$", text[:before.start()]):
        return text[:before.start()] + f"{before.group(2)} {before.group(1)}" + text[before.end():]
    return text


Perturbation = Callable[[str, random.Random, "dict[str, Any] | None"], str]
PERTURBATIONS: dict[str, Perturbation] = {
    "typo": typo, "lower": lower_no_punct, "apostrophes": drop_apostrophes, "lead_in": lead_in,
    "abbreviate": abbreviate, "year": year_style, "swap_name_year": swap_name_year,
}
MAX_KINDS = 3     # at most this many perturbations on one question
LEAD_IN_SHARE = 0.4   # share of questions given a filler opening (it always applies, so it would crowd out the rest)
LAST = ("lead_in",)   # applied after the others, so a typo lands in the question and not in the filler


def perturb_question(text: str, rng: random.Random, case: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    """``text`` rewritten by one to MAX_KINDS perturbations that change it; the names of those applied."""
    kinds = [k for k in PERTURBATIONS if k not in LAST]
    rng.shuffle(kinds)
    if rng.random() < LEAD_IN_SHARE:
        kinds.insert(rng.randrange(len(kinds) + 1), "lead_in")
    if (case or {}).get("kind") == "typo":
        kinds.remove("typo")   # already mistyped: a second typo in the same word is not how people type
    kinds.sort(key=lambda k: k in LAST)
    want, done = rng.randint(1, MAX_KINDS), list[str]()
    for kind in kinds:
        if len(done) == want:
            break
        changed = PERTURBATIONS[kind](text, rng, case)
        if changed != text:
            text, done = changed, done + [kind]
    return text, done


def perturb_suite(doc: dict[str, Any], seed: int) -> dict[str, Any]:
    """A copy of a suite document with every question perturbed (seed and case id fix the choices)."""
    cards = dict(doc.get("cards") or {})
    out = dict(doc)
    out["suite"] = f"{doc.get('suite', 'suite')}-perturbed-s{seed}"
    out["min_pass"] = 0.0
    cases = []
    for raw in doc.get("cases") or []:
        case = dict(raw)
        if "q" in case:
            rng = random.Random(f"{seed}/{case['id']}")
            q, kinds = perturb_question(case["q"], rng, {**case, "_name": _card_name(case, cards)})
            case.update(q=q, original=raw["q"], perturbed=",".join(kinds))
        cases.append(case)
    out["cases"] = cases
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evals.perturb", description=__doc__.splitlines()[0])
    p.add_argument("suite", type=Path)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    if args.suite.stem in UNSEEN:
        print(f"{args.suite.stem} is an unseen part: not perturbed", file=sys.stderr)
        return 2
    doc = yaml.safe_load(args.suite.read_text(encoding="utf-8")) or {}
    args.out.write_text(yaml.safe_dump(perturb_suite(doc, args.seed), sort_keys=False, allow_unicode=True,
                                       width=200), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
