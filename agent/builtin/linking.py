"""Question -> catalog entities, for the built-in model.

The words are read locally (``tools._linking.read``: year, number, grade, money, ordering...); the
names are linked by the ``catalog_link`` tool, whose result this module interprets: which card is
meant, whether the question is a follow-up of an earlier one, and how a reply to "which one?"
("the 1999 one", "#4", "the second one") picks among the candidates listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tools._linking import ATTRIBUTES, BRANDS, DOMAIN_WORDS, NEVER_NAMES, Reading, fold, read, runs

FILLER = {"and", "the", "a", "an", "what", "about", "how", "its", "it", "his", "her", "their", "one", "that", "this",
          "same", "card", "for", "of", "in", "then", "ok", "okay", "now", "also", "is", "there", "any", "version",
          "copy", "copies", "k", "kk", "cool", "nice", "thanks", "thx", "ty", "great", "alright", "gotcha"}

_GROUP = {"year": "year", "years": "year", "yr": "year", "yrs": "year", "release": "release", "releases": "release", "set": "release",
          "sets": "release", "grade": "grade", "grades": "grade", "player": "player", "players": "player",
          "character": "player", "manufacturer": "manufacturer", "manufacturers": "manufacturer",
          "brand": "manufacturer", "brands": "manufacturer", "company": "manufacturer", "maker": "manufacturer"}
# a reply's opening acknowledgement ("k and what about a psa 9 copy", "cool, and the 1st edition?")
ACK = r"(?:(?:k|kk|ok|okay|cool|nice|thanks|thx|ty|great|alright|got it|gotcha)[,.!]*\s+)?"
FOLLOW_UP = re.compile(rf"^\s*{ACK}(and|what about|how about|also|ok|okay|then|same|now)\b|"
                       r"\b(its|it|that one|that card|"
                       r"same card|this card|his|her|their|him|them|those|these|the same|that|this|one)\b", re.I)
# a word of acknowledgement that opens a sentence ("sweet, add it to my wants"): never a card's name
ACK_LEAD = re.compile(r"^\s*(sweet|awesome|perfect|nice|cool|great|dope|sick|neat|rad|lovely|excellent|brilliant|"
                      r"wow|sweet deal|yes|yeah|yep|sure|right|ok|okay|alright|thanks|thx|ty)\s*[,.!]+\s*(?=\S)", re.I)
ASKED_WHICH = re.compile(r"\bwhich (one|card|of them|of these)\b[^.]*\?|^I found \d+ cards?", re.I)


# "that 95 pinnacle card of mine" is mine too, and so is "rickey henderson i own, current value?" (not "do i own X")
MY = re.compile(r"\bmy\b|\bof mine\b|(?<!\bdo )(?<!\bdid )(?<!\bdoes )\bi (?:own|have)\b(?=\s*(?:[,?.:;-]|$|(?:is|are|was|worth|"
                r"now|right now|still|currently|up|down)\b))", re.I)


def says_my(text: str) -> bool:
    return MY.search(text) is not None


@dataclass
class Entities:
    reading: Reading
    text: str
    group_by: str | None = None
    follow_up: bool = False          # refers to a card named earlier in the conversation
    reply: bool = False              # answers our "which one do you mean?"

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["reading"], name)

    @property
    def has_card_words(self) -> bool:
        """Words that may name a card: a run with a non-domain word, a 2+ word domain run, a number."""
        r = self.reading
        name_runs = [run for run in runs(r) if len(run) > 1 or fold(run[0]) not in DOMAIN_WORDS]
        return bool(name_runs or r.number)

    @property
    def says_my(self) -> bool:
        """The asker's own card or collection is meant ("what is my X worth")."""
        return says_my(self.text)

    @property
    def elliptical(self) -> bool:
        """Only constraints and filler words ("and the PSA 9?", "what about 1990?")."""
        left = [w for _, w in self.reading.tokens if fold(w) not in FILLER]
        # a release, set or parallel word alone names no new card ("how about the shadowless one")
        return all(fold(w) in DOMAIN_WORDS or fold(w) in BRANDS for w in left)


def parse(text: str, history: list[str] | None = None, last_answer: str = "") -> Entities:
    r = read(text)
    e = Entities(r, text)
    whole = re.search(r"\b(which|what|all (the|my))\s+(players|characters|years|brands|manufacturers|grades|sets|releases)\b|"
                      r"\b(graded|raw)\s+(vs\.?|versus|or|and)\s+(graded|raw)\b|\b(vs\.?|versus|or)\s+raw\b", text, re.I)
    if whole:   # "which players are in my collection", "psa 9 vs psa 8 vs raw": grouped so
        e.group_by = _GROUP.get((whole.group(3) or "").lower(), "grade")
    for g in [] if e.group_by else re.finditer(r"\b(?:by|per|across|each|every|between|among|into)\s+(?:the\s+|their\s+)?(\w+)", text, re.I):
        if g.group(1).lower() in _GROUP:   # "split between brands", "per player", "by grade"
            e.group_by = _GROUP[g.group(1).lower()]
            break
    if history:
        e.reply = bool(ASKED_WHICH.search(last_answer or ""))
        # no words that could name a card: the card is the one the conversation is about
        e.follow_up = e.reply or bool(FOLLOW_UP.search(text)) or len(text.split()) <= 4 or not e.has_card_words
    return e


def listed_number(answer: str, ordinal: int) -> str | None:
    """The card number of the ``ordinal``-th card our previous answer listed ("1. ... #35; 2. ...")."""
    numbers = re.findall(r"#([A-Za-z0-9-]+)", answer or "")
    if not numbers:
        return None
    i = ordinal - 1 if ordinal > 0 else len(numbers) - 1
    return numbers[i] if 0 <= i < len(numbers) else None


def listed_by_words(answer: str, reply: str) -> str | None:
    """The card number of the one card our previous answer listed whose description holds every word of the
    reply ("the topps traded one" after "1986 Fleer Update #U-14 and 1986 Topps Traded #11T")."""
    words = [w for w in fold(reply).split() if w not in FILLER and w not in NEVER_NAMES]
    parts = re.split(r"#([A-Za-z0-9-]+)", answer or "")
    if not words or len(parts) < 5:
        return None
    texts = parts[0::2]
    options = []
    for k, number in enumerate(parts[1::2]):
        before = re.sub(r"^\s*\([^)]*\)", " ", texts[k]) if k else texts[k]   # "(holo rare)" is the previous card's
        after = re.match(r"^\s*\(([^)]*)\)", texts[k + 1])
        text = fold(before + " " + (after.group(1) if after else ""))
        text = re.sub(r"\bnon (\w+)", " ", text)   # "non-holo" is not holo
        options.append((number, set(text.split())))
    hits = {number for number, toks in options if all(w in toks for w in words)}
    return hits.pop() if len(hits) == 1 else None


def _listed_options(answer: str) -> list[tuple[str, set[str]]]:
    """The cards our previous answer listed, each as (number, the words that describe it)."""
    parts = re.split(r"#([A-Za-z0-9-]+)", answer or "")
    out = []
    for k, number in enumerate(parts[1::2]):
        before = re.split(r"[:;]|\d+\.\s|\band\b", parts[2 * k])[-1]
        after = re.match(r"^\s*\(([^)]*)\)", parts[2 * k + 2])
        out.append((number, set(fold(before + " " + (after.group(1) if after else "")).split())))
    return out


def listed_pick(e: Entities, answer: str, names: list[str]) -> str | None:
    """The number of the one card our previous answer listed that a follow-up picks: "delete the first one",
    "the shining one - whats it worth", "do i own the mewtwo" after a list naming one Mewtwo. Every word the
    question may name a card by (``names``) must describe it; a year or number of its own asks for another."""
    options = _listed_options(answer)
    if len(options) < 2 or e.number or e.year or e.reading.years:
        return None
    if e.ordinal and not names:
        i = e.ordinal - 1 if e.ordinal > 0 else len(options) - 1
        return options[i][0] if 0 <= i < len(options) else None
    described = set().union(*(toks for _, toks in options))
    words = [w for w in (fold(x) for _, x in e.tokens) if len(w) >= 3 and w not in FILLER and w not in NEVER_NAMES
             and w in described]
    if not words or any(fold(n) not in described for n in names):
        return None
    if not (e.follow_up or any(re.search(rf"\bthe\s+{re.escape(w)}\b", fold(e.text)) for w in words)):
        return None
    hits = [number for number, toks in options if all(w in toks for w in words)]
    return hits[0] if len(hits) == 1 else None


PICK_BACK = 2   # answers back a follow-up may pick a listed card from ("and the ozzie?" after one more answer)


def link_text(e: Entities, history: list[str], last_answer: str = "", names: list[str] | None = None,
              answers: list[str] | None = None) -> str:
    """The text to link: a reply to "which one?" is read together with the question it answers
    ("the second one" becomes the number of the second card listed); a follow-up that picks one card of a
    list we gave (``listed_pick``; ``names``: the words that may name a card; ``answers``: our earlier
    answers, the last one last) links that card."""
    if history and not e.reply and names is not None:
        for said in [last_answer, *[a for a in reversed(answers or []) if a != last_answer][:PICK_BACK - 1]]:
            picked = listed_pick(e, said, names) if not e.ordinal or said == last_answer else None
            if picked:
                return f"{_listed_words(said, picked)} #{picked}"
    if e.reply and history:
        reply = e.text
        number = listed_number(last_answer, e.ordinal) if e.ordinal and not e.number else \
            listed_by_words(last_answer, e.text) if not e.number else None
        asked = history[-1]
        if number:
            # the card picked from our list by its number, with the words the list gave it ("1987 Fleer Update");
            # "rookie" or "auto" asked first no longer filters (the catalog may not mark the listed card so)
            reply = f"{_listed_words(last_answer, number)} #{number}"
            asked = _ATTRIBUTE_WORDS.sub(" ", asked)
        return f"{asked} {reply}"[:500]
    return ACK_LEAD.sub("", e.text)[:500]


_ATTRIBUTE_WORDS = re.compile(r"\b(" + "|".join(map(re.escape, sorted(ATTRIBUTES, key=len, reverse=True))) + r")\b",
                              re.I)


def _listed_words(answer: str, number: str) -> str:
    """The words our list wrote just before ``#number`` ("... and 1987 Fleer Update Baseball #U-68"): up to
    six, back to the card listed before it, without attribute words."""
    at = (answer or "").find(f"#{number}")
    if at < 0:
        return ""
    before = re.split(r"#[A-Za-z0-9-]+|[:;]|\d+\.\s", answer[:at])[-1]
    before = re.sub(r"\([^)]*\)", " ", before)   # "(double rare)" after the card listed before is that card's
    words = [w for w in re.findall(r"[A-Za-z0-9'&.-]+", _ATTRIBUTE_WORDS.sub(" ", before)) if w.lower() not in
             ("and", "or", "the", "a", "his", "her", "cards", "card", "here", "has", "have")]
    return " ".join(words[-6:])


def link_history(e: Entities, history: list[str]) -> list[str] | None:
    return history[-5:] if e.follow_up and history else None


def card_fields(c: dict[str, Any]) -> tuple[Any, ...]:
    return (c.get("name"), c.get("releaseName"), c.get("setName"), c.get("number"))


def tied(link: dict[str, Any]) -> list[dict[str, Any]]:
    """The candidates as good as the first (the ones a "which one?" question lists)."""
    cards = [c for c in link.get("cards") or [] if isinstance(c, dict)]
    if not cards:
        return []
    top = cards[0].get("score", 0)
    # when the link could not decide, cards apart only by small preferences (base set, has a price) are listed too
    margin = 0.2 if link.get("ambiguous") else 1e-6
    out, seen = [], set()
    for c in cards:
        if c.get("score", 0) >= top - margin and not c.get("variationOf") and card_fields(c) not in seen:
            seen.add(card_fields(c))
            out.append(c)
    return out


def chosen_card(link: dict[str, Any] | None, e: Entities, priced: bool = False,
                with_data: set[str] | None = None) -> dict[str, Any] | None:
    """The card the question means, or None when the link found none or several equally good."""
    if not link or not isinstance(link, dict):
        return None
    cards = [c for c in link.get("cards") or [] if isinstance(c, dict)]
    coded = _number_said(cards, e)
    if coded is not None:
        return coded
    if link.get("best"):
        return next((c for c in cards if c.get("id") == link["best"]), cards[0] if cards else None)
    if e.ordinal and cards:
        options = tied(link) or cards
        i = e.ordinal - 1 if e.ordinal > 0 else len(options) - 1
        return options[i] if 0 <= i < len(options) else None
    named = any(x.get("kind") == "name" and not x.get("alternate") for x in link.get("entities") or [])
    options = tied(link)
    # never between players the words do not tell apart ("ozzie 89 score": Smith, Guillen, Virgil): asked which
    one_name = len({re.sub(r"\s*\([^()]*\)$", "", fold(c.get("name") or "")) for c in options}) == 1
    if priced and named and one_name and link.get("ambiguous") and len(options) >= 2 and not link.get("unlinked"):
        # a price question about cards the words do not tell apart: the one with market data (in the grade asked)
        if e.grade:
            key = f"{(e.company or 'PSA').lower()}-{e.grade}"
            graded = [c for c in options if (c.get("gradePrices") or {}).get(key)]
            if len(graded) == 1:
                return graded[0]
        priced_cards = [c for c in options if c.get("gradePrices") or c.get("rawPrice")]
        if len(priced_cards) == 1:
            return priced_cards[0]
    if with_data and named and link.get("ambiguous"):
        # cards the words do not tell apart, only one with a population report: that one
        known = [c for c in options if c.get("id") in with_data]
        if len(known) == 1:
            return known[0]
    return None


def _number_said(cards: list[dict[str, Any]], e: Entities) -> dict[str, Any] | None:
    """A letter-and-dash card number said as a word ("cal ripken 2024 topps goga-cr"), which the reading
    does not take for a number: the candidate bearing it, when the first one does not."""
    if e.number or not cards:
        return None
    said = {w for w in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)+", e.text.lower()) if re.search(r"[a-z]", w)}
    if not said:
        return None
    bearing = [c for c in cards if str(c.get("number") or "").lower() in said]
    return bearing[0] if bearing and bearing[0] is not cards[0] else None


def few_tied(link: dict[str, Any] | None, most: int = 4) -> list[str]:
    """Ids of the candidates an undecided link could not tell apart, when they are few."""
    if not link or not link.get("ambiguous") or link.get("unlinked"):
        return []
    ids = [str(c["id"]) for c in tied(link) if c.get("id")]
    return ids if 2 <= len(ids) <= most else []
