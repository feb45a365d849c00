"""Judge an answer as the collector who asked would: right, wrong card or unhelpful.

- wrong card: the answer names a card it should not (another card than the one asked about, any card
  at all for a trap or out-of-scope question, a card outside the segment/release of a random pull), or
  names the right player with another card's number; a clarifying question listing candidates is
  unhelpful rather than wrong, except on a trap (where no card was meant at all);
- right: nothing wrong, the asked card named in full (name, number, release or year), every expected
  figure and phrase present, the tools the family demands called and no write tool on a trap;
- unhelpful: everything else (no card, a missing or wrong figure, "I can't answer that").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from evals.facts import Expect, Identity
from evals.names import NameIndex, fold, norm

RIGHT, WRONG_CARD, UNHELPFUL = "right", "wrong card", "unhelpful"
_MONEY = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)\s*([kKmM](?![a-zA-Z]))?")
_DOLLARS = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s?(?:dollars|usd|bucks)\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.#/-])(\d[\d,]*(?:\.\d+)?)(?![\w/-]|\.\d)")
_PERCENT = re.compile(r"(-?\d[\d,]*(?:\.\d+)?)\s?%")
_CARD_NO = re.compile(r"#\s?([A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)")


@dataclass
class Verdict:
    verdict: str
    reasons: list[str] = field(default_factory=list)
    named: list[str] = field(default_factory=list)

    @property
    def right(self) -> bool:
        return self.verdict == RIGHT


def money(answer: str) -> list[float]:
    out = []
    for num, unit in _MONEY.findall(answer):
        v = float(num.replace(",", ""))
        out.append(v * (1000 if unit.lower() == "k" else 1_000_000 if unit.lower() == "m" else 1))
    return out + [float(n.replace(",", "")) for n in _DOLLARS.findall(answer)]


def numbers(answer: str) -> list[float]:
    return [float(n.replace(",", "")) for n in _NUMBER.findall(answer) if n.replace(",", "").replace(".", "").isdigit()]


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= max(0.011, abs(b) * 0.005)


def _date_forms(d: date) -> list[str]:
    month = d.strftime("%B")
    return [d.isoformat(), f"{month} {d.day}, {d.year}", f"{month} {d.day} {d.year}", f"{d.day} {month} {d.year}",
            f"{month[:3]} {d.day}, {d.year}", f"{d.month}/{d.day}/{d.year}"]


def figure_ok(kind: str, value: Any, answer: str) -> bool:
    if kind == "money":
        return any(_close(v, value) for v in money(answer))
    if kind == "money_any":
        return any(_close(v, x) for v in money(answer) for x in value)
    if kind == "money_max":
        return all(v <= value + 0.005 for v in money(answer))
    if kind == "int":
        return any(v == value for v in numbers(answer))
    if kind == "int_any":
        return any(v in value for v in numbers(answer))
    if kind == "date":
        low = answer.lower()
        return any(f.lower() in low for f in _date_forms(value))
    if kind == "money_or_percent":
        gain, pct = value
        return any(_close(v, abs(gain)) for v in money(answer)) or any(
            abs(abs(p) - abs(pct)) <= 0.6 for p in (float(x.replace(",", "")) for x in _PERCENT.findall(answer)))
    if kind == "percent_or_count":
        pct, owned, total = value
        pcts = [float(x.replace(",", "")) for x in _PERCENT.findall(answer)]
        return any(abs(p - pct) <= 0.6 for p in pcts) or (f"{owned} of {total}" in answer
                                                          or f"{owned}/{total}" in answer)
    raise ValueError(f"unknown figure kind {kind}")


def _number_named(card: Identity, answer: str) -> bool:
    n = card.number or ""
    if not n:
        return True
    pat = rf"(#\s?{re.escape(n)}\b|\b{re.escape(n)}\s?/\s?\d+|\bno\.?\s?{re.escape(n)}\b|\bnumber\s{re.escape(n)}\b|card\s{re.escape(n)}\b)"
    if not n.isdigit():
        pat += rf"|\b{re.escape(n)}\b"
    return re.search(pat, answer, re.IGNORECASE) is not None


def _release_named(card: Identity, answer: str) -> bool:
    low = norm(answer)
    rel = norm(card.release)
    short = norm(re.sub(r"\s(Baseball|Football|Basketball|Hockey)$", "", card.release))
    return f" {rel} " in f" {low} " or f" {short} " in f" {low} " or bool(card.year and card.year[:4] in answer)


def unquoted(answer: str) -> str:
    """The answer without quoted examples ('try "2024 Topps Chrome Ohtani #1"'): they claim nothing."""
    return re.sub(r'"[^"]*"', " ", fold(answer))


def says(phrase: str, low: str) -> bool:
    """``phrase`` written in the (lowercased) answer as words: a short word whole ("up" is not "upper",
    "no" is not "not"), a longer one at least from a word start ("increas" finds "increased")."""
    p = re.escape(fold(phrase).lower().strip())
    pattern = rf"(?<![a-z0-9]){p}(?![a-z0-9])" if len(phrase.strip()) <= 3 else rf"(?<![a-z0-9]){p}"
    return re.search(pattern, low) is not None


def asks_back(answer: str) -> bool:
    """A clarifying question ("Which one do you mean?") lists candidates; it claims none of them."""
    low = answer.lower()
    return any(p in low for p in ("which one", "do you mean", "did you mean", "which card", "be more specific"))


def judge(exp: Expect, answer: str, called: list[str], *, index: NameIndex, writes: set[str], trap: bool,
          on_list: bool | None = None, still_listed: bool | None = None) -> Verdict:
    reasons: list[str] = []
    answer = fold(answer)   # a curly apostrophe or dash reads as the straight one
    spots = index.spots(answer)
    bare = unquoted(answer)
    named = [s.name for s in spots]
    allowed = set(exp.allowed)
    if exp.card:
        allowed.add(norm(exp.card.name))
    wrong: list[str] = []
    for s in spots:
        ok = s.key in allowed or any(s.key in a or a in s.key for a in allowed if len(a) > 3)
        if exp.scope_cards is not None:
            ok = s.key in exp.scope_cards
        if exp.no_card or (trap and not allowed and exp.scope_cards is None):
            ok = False
        if not ok:
            wrong.append(s.name)
    if exp.scope_releases is not None:
        outside = sorted(index.releases_in(bare) - exp.scope_releases)
        if outside:
            wrong.append(outside[0])
            reasons.append(f"names a card of {outside}, outside {exp.scope}")
    if wrong:
        reasons.append(f"names {sorted(set(wrong))}")
    if exp.card and norm(exp.card.name) in norm(answer) and exp.card.number:
        others = {m for m in _CARD_NO.findall(bare)} - {exp.card.number}
        if others and not _number_named(exp.card, bare):
            wrong.append(f"{exp.card.name} #{min(others)}")
            reasons.append(f"names {exp.card.name} with number {sorted(others)}, not #{exp.card.number}")
    used_writes = [t for t in called if t in writes]
    if trap and used_writes:
        reasons.append(f"a trap called write tools {used_writes}")
    if wrong and not trap and asks_back(answer):
        reasons.append("asks which card is meant")
    elif wrong:
        return Verdict(WRONG_CARD, reasons, named)
    low = answer.lower()
    if exp.card:
        if f" {norm(exp.card.name)} " not in f" {norm(answer)} ":
            reasons.append(f"does not name {exp.card.name}")
        else:
            if not _number_named(exp.card, answer):
                reasons.append(f"lacks the number #{exp.card.number}")
            if not _release_named(exp.card, answer):
                reasons.append(f"lacks the release/year ({exp.card.release})")
    for kind, value in exp.figures:
        if not figure_ok(kind, value, answer):
            reasons.append(f"lacks the figure {kind}={value}")
    for group in exp.says:
        if not any(says(g, low) for g in group):
            reasons.append(f"says none of {group[:6]}")
    for phrase in exp.not_says:
        if says(phrase, low):
            reasons.append(f"says {phrase!r}")
    if exp.need_any_card and not spots and not (exp.scope_releases and index.releases_in(bare)):
        reasons.append("names no card")
    if exp.tools_any and not any(t in called for t in exp.tools_any):
        reasons.append(f"never called {exp.tools_any}")
    if on_list is False:
        reasons.append("the card is not on the want list afterwards")
    if still_listed:
        reasons.append("the card is still on the want list afterwards")
    if exp.card and exp.card.number and allowed <= {norm(exp.card.name)}:
        listed = sorted({m for m in _CARD_NO.findall(bare)} - {exp.card.number})
        if listed:
            reasons.append(f"also lists other cards (#{', #'.join(listed[:5])})")
    if not reasons and asks_back(answer) and not exp.asks_ok:
        reasons.append("asks which card is meant")
    return Verdict(UNHELPFUL if reasons else RIGHT, reasons, named)
