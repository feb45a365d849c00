"""A vision-free listing-title matcher: "2024 Topps Chrome Shohei Ohtani #1 Gold Refractor /50 PSA 10"
-> catalog card, parallel and grade, or nothing when unsure.

``await TitleMatcher.load(session, index)`` reads the parallels and grading scales; the candidate cards of
a title come from the catalog search index (``store.search``: the cards whose whole name is a run of the
title's words), so nothing is held per card. Without an index, ``load`` reads every card's name, number,
set and release into memory instead (the same rules). ``match(title)`` is then pure. The rules:

1. Card: a catalog card name must appear in the title as a whole phrase (the longest names win,
   so "Shining Charizard" beats "Charizard"). A ``#number`` in the title must equal the card's
   number; a four-digit year must agree with the release year. Candidates are scored on number,
   year and how many release/set words appear; the best must be unique (a clear margin) and have
   evidence beyond the name (number, or most of the release words), otherwise: unsure.
2. Parallel: the longest parallel name of the card's set whose words all appear (outside the
   card name); a serial "/N" must agree with the parallel's print run (or the card's own);
   "/N" with no named parallel picks the set's only parallel numbered to N. Disagreement: unsure.
3. Grade: "<grader> <value>" (PSA 10, BGS 9.5, SGC 9, CGC 8.5, BGS Black Label 10...) mapped to the
   company's card-grade scale; a grader with an unknown value leaves the grade out.
"""

from __future__ import annotations

import re
import uuid
from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from store.models import Card, CardSet, Grade, GradingCompany, GradingType, Parallel, ParallelCard, Release
from store.queries.demo import matchable
from store.search import CatalogIndex
from store.search.fold import fold

GRADERS = {"psa": "PSA", "bgs": "BGS", "beckett": "BGS", "sgc": "SGC", "cgc": "CGC", "tag": "TAG", "hga": "HGA",
           "csg": "CSG", "isa": "ISA"}
GRADE_RE = re.compile(r"\b(psa|bgs|beckett|sgc|cgc|tag|hga|csg|isa)\s*(black label\s+|pristine\s+|gem mi?n?t\s+|mint\s+)?"
                      r"(10|[1-9](?:\.5)?|auth(?:entic)?)\b")
NUMBER_RE = re.compile(r"#\s*([a-z0-9][a-z0-9-]*)")
SERIAL_RE = re.compile(r"(?:\d+\s*)?/\s*(\d+)\b")
YEAR_RE = re.compile(r"(?<![/\d])(19[5-9]\d|20[0-4]\d)\b")
MAX_NAME_WORDS = 6
MAX_RUNS_KEPT = 200_000


def tokens(text: str) -> list[str]:
    """Words folded as the search index folds them (case, accents, punctuation, initials)."""
    return fold(text).split()


def _context(release: str, set_name: str) -> frozenset[str]:
    """A card's release and set words a title may repeat (years and "base" aside)."""
    return frozenset(t for t in tokens(f"{release} {set_name}") if not YEAR_RE.fullmatch(t) and t != "base")


@dataclass
class CardEntry:
    id: uuid.UUID
    name_tokens: tuple[str, ...]
    number: str | None
    numbered_to: int | None
    set_id: uuid.UUID
    year: str | None
    context_tokens: frozenset[str]


@dataclass
class ParallelEntry:
    id: uuid.UUID
    tokens: tuple[str, ...]
    numbered_to: int | None
    partial_cards: set[uuid.UUID] | None


@dataclass
class Match:
    card_id: uuid.UUID
    parallel_id: uuid.UUID | None
    grade_id: uuid.UUID | None
    score: float


@dataclass
class TitleMatcher:
    by_name: dict[tuple[str, ...], list[CardEntry]] = field(default_factory=lambda: defaultdict(list))
    parallels: dict[uuid.UUID, list[ParallelEntry]] = field(default_factory=lambda: defaultdict(list))
    grades: dict[tuple[str, str], uuid.UUID] = field(default_factory=dict)
    index: CatalogIndex | None = None
    _runs: dict[str, list[CardEntry]] = field(default_factory=dict)  # run of title words -> cards so named

    @classmethod
    async def load(cls, session: AsyncSession, index: CatalogIndex | None = None) -> "TitleMatcher":
        """The matcher over ``index`` (the catalog's current search index), else over every card read here;
        demo cards only where their game or sport has no real release (a real listing title is never
        matched to a demo card)."""
        m = cls(index=index)
        if index is None:
            await m._load_cards(session)
        await m._load_parallels_and_grades(session)
        return m

    async def _load_cards(self, session: AsyncSession) -> None:
        m = self
        stmt = (select(Card.id, Card.name, Card.number, Card.numbered_to, Card.set_id, CardSet.name, Release.name,
                       Release.year)
                .join(CardSet, CardSet.id == Card.set_id).join(Release, Release.id == Card.release_id)
                .where(Card.variation_of.is_(None)))
        stmt = stmt.where(matchable(Card.demo, Release.segment_id))
        for cid, name, number, numbered_to, set_id, set_name, rel_name, year in (await session.execute(stmt)).all():
            name_t = tuple(tokens(name))
            if not name_t:
                continue
            ctx = _context(rel_name, set_name)
            m.by_name[name_t].append(CardEntry(cid, name_t, (number or "").lower() or None, numbered_to, set_id,
                                               (year or "")[:4] or None, ctx))

    async def _load_parallels_and_grades(self, session: AsyncSession) -> None:
        m = self
        partial: dict[uuid.UUID, set[uuid.UUID]] = defaultdict(set)
        for pid, cid in (await session.execute(select(ParallelCard.parallel_id, ParallelCard.card_id))).all():
            partial[pid].add(cid)
        for p in (await session.scalars(select(Parallel))).all():
            m.parallels[p.set_id].append(ParallelEntry(p.id, tuple(tokens(p.name)), p.numbered_to,
                                                       partial.get(p.id, set()) if p.is_partial else None))
        gstmt = (select(GradingCompany.abbreviation, Grade.value, Grade.id)
                 .join(GradingType, GradingType.company_id == GradingCompany.id)
                 .join(Grade, Grade.type_id == GradingType.id).where(GradingType.name == "Card"))
        for abbr, value, gid in (await session.execute(gstmt)).all():
            m.grades[(abbr, value.lower())] = gid

    # ----------------------------------------------------------------------------- matching
    def grade(self, title: str) -> tuple[bool, uuid.UUID | None]:
        """(a grader is named, its grade id or None when the value is unknown)."""
        found = GRADE_RE.search(title.lower())
        if not found:
            return (any(t in GRADERS for t in tokens(title)), None)
        company = GRADERS[found.group(1)]
        value = found.group(3)
        value = "authentic" if value.startswith("auth") else value
        if found.group(2) and found.group(2).startswith("black") and value == "10":
            value = "10 black label"
        return True, self.grades.get((company, value))

    def _indexed(self, toks: list[str]) -> dict[tuple[str, ...], list[CardEntry]]:
        """The cards the index holds under a run of the title's words, by their name's words. Runs already
        looked up come from ``_runs`` (titles repeat names): one index query for the new ones."""
        assert self.index is not None
        runs = {" ".join(toks[i:i + n]) for i in range(len(toks)) for n in range(1, min(MAX_NAME_WORDS, len(toks) - i) + 1)}
        new = {run for run in runs if run not in self._runs}
        if new:
            if len(self._runs) > MAX_RUNS_KEPT:
                self._runs.clear()
            for run in new:
                self._runs[run] = []
            for hit in self.index.cards_named(new):
                d = hit.data() or {}
                if not d or d.get("stand_in"):
                    continue
                name_t = tuple(tokens(d["name"]))
                self._runs.setdefault(" ".join(name_t), []).append(CardEntry(
                    uuid.UUID(d["id"]), name_t, (d.get("number") or "").lower() or None, d.get("numbered_to"),
                    uuid.UUID(d["set_id"]), (d.get("release_year") or "")[:4] or None,
                    _context(d.get("release_name") or "", d.get("set_name") or "")))
        return {tuple(run.split()): self._runs[run] for run in runs if self._runs.get(run)}

    def _candidates(self, toks: list[str]) -> list[tuple[CardEntry, tuple[int, int]]]:
        by_name = self._indexed(toks) if self.index is not None else self.by_name
        spans: list[tuple[tuple[str, ...], tuple[int, int]]] = []
        for i in range(len(toks)):
            for n in range(min(MAX_NAME_WORDS, len(toks) - i), 0, -1):
                key = tuple(toks[i:i + n])
                if key in by_name:
                    spans.append((key, (i, i + n)))
        # drop names contained in a longer matched name
        spans = [s for s in spans if not any(o[1][0] <= s[1][0] and s[1][1] <= o[1][1] and o[1] != s[1] for o in spans)]
        return [(c, span) for key, span in spans for c in by_name[key]]

    def match(self, title: str) -> Match | None:
        low = title.lower()
        toks = tokens(low)
        numbers = {n.strip("-") for n in NUMBER_RE.findall(low)}
        years = set(YEAR_RE.findall(low))
        serial = {int(s) for s in SERIAL_RE.findall(low)}
        scored = []
        for card, span in self._candidates(toks):
            if numbers and card.number not in numbers:
                continue
            if years and card.year and card.year not in years:
                continue
            rest = set(toks[:span[0]] + toks[span[1]:])
            ctx = len(card.context_tokens & rest) / max(1, len(card.context_tokens))
            number_hit = bool(numbers) and card.number in numbers
            if not number_hit and ctx < 0.5:
                continue
            score = len(card.name_tokens) + 2 * number_hit + (1 if years else 0) + 2 * ctx
            scored.append((score, card, span))
        if not scored:
            return None
        scored.sort(key=lambda x: -x[0])
        best_score, card, span = scored[0]
        if len(scored) > 1 and scored[1][0] > best_score - 0.5 and scored[1][1].id != card.id:
            return None
        ok, parallel_id = self._parallel(card, toks[:span[0]] + toks[span[1]:], serial)
        if not ok:
            return None
        named, grade_id = self.grade(title)
        return Match(card.id, parallel_id, grade_id if named else None, best_score)

    def _parallel(self, card: CardEntry, rest: list[str], serial: set[int]) -> tuple[bool, uuid.UUID | None]:
        words = set(rest)
        options = [p for p in self.parallels.get(card.set_id, [])
                   if p.partial_cards is None or card.id in p.partial_cards]
        named = [p for p in options if p.tokens and set(p.tokens) <= words]
        if named:
            longest = max(len(p.tokens) for p in named)
            named = [p for p in named if len(p.tokens) == longest]
            if serial:
                named = [p for p in named if p.numbered_to in serial] or named
            if len(named) != 1:
                return False, None
            p = named[0]
            if serial and p.numbered_to not in serial and card.numbered_to not in serial:
                return False, None
            return True, p.id
        if serial and card.numbered_to not in serial:
            by_run = [p for p in options if p.numbered_to in serial]
            return (True, by_run[0].id) if len(by_run) == 1 else (False, None)
        return True, None
