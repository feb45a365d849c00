"""TEMPORARY stand-in for ``store.search`` (branch ``search``, /work/wt/INTERFACE-search.md): the
same ``names()`` signature over names read from the database, so entity linking can be built
before the index lands. Deleted when ``search`` is merged."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from store.models import Card, CardSet, Manufacturer, Parallel, Release, Segment
from store.queries import catalog_version
from tools._linking import fold
from tools.context import ToolContext


@dataclass(frozen=True)
class NameHit:
    kind: str
    name: str
    score: float
    exact: bool
    distance: int
    count: int
    ids: tuple[str, ...]
    year: str | None = None
    segment: str | None = None


def _deletes(token: str) -> set[str]:
    return {token[:i] + token[i + 1:] for i in range(len(token))} | {token}


def _distance_le1(a: str, b: str) -> int:
    if a == b:
        return 0
    if abs(len(a) - len(b)) > 1:
        return 2
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return 1
        if len(diff) == 2 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]] and diff[1] == diff[0] + 1:
            return 1
        return 2
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    for i in range(len(long_)):
        if long_[:i] + long_[i + 1:] == short:
            return 1
    return 2


class StandInIndex:
    def __init__(self, entries: list[tuple[str, str, int, tuple[str, ...], str | None, str | None]]) -> None:
        self.entries = entries  # (kind, name, count, ids, year, segment)
        self.folded = [fold(e[1]).split() for e in entries]
        self.by_token: dict[str, set[int]] = defaultdict(set)
        self.deletes: dict[str, set[str]] = defaultdict(set)
        for i, toks in enumerate(self.folded):
            for t in toks:
                self.by_token[t].add(i)
        for t in self.by_token:
            if len(t) >= 4:
                for d in _deletes(t):
                    self.deletes[d].add(t)

    def _similar(self, token: str, prefix: bool, fuzzy: bool) -> dict[str, int]:
        out = {token: 0} if token in self.by_token else {}
        if fuzzy and len(token) >= 4:
            for d in _deletes(token):
                for t in self.deletes.get(d, ()):
                    if t not in out and _distance_le1(t, token) <= 1:
                        out[t] = 1
        if prefix and len(token) >= 3:
            for t in self.by_token:
                if t.startswith(token) and t not in out:
                    out[t] = 0
        return out

    def names(self, phrase: str, *, kinds: Iterable[str] | None = None, limit: int = 10, fuzzy: bool = True,
              prefix: bool = False) -> list[NameHit]:
        toks = fold(phrase).split()
        if not toks:
            return []
        want = set(kinds) if kinds else None
        per_token = [self._similar(t, prefix, fuzzy) for t in toks]
        if any(not s for s in per_token):
            return []
        cand: set[int] | None = None
        for sims in per_token:
            ids: set[int] = set()
            for t in sims:
                ids |= self.by_token[t]
            cand = ids if cand is None else cand & ids
        hits = []
        for i in cand or ():
            kind, name, count, ids_, year, seg = self.entries[i]
            if want and kind not in want:
                continue
            name_toks = self.folded[i]
            dist = sum(min((d for t, d in sims.items() if t in name_toks), default=0) for sims in per_token)
            exact = name_toks == toks
            cover = len(toks) / max(1, len(name_toks))
            score = (2.0 if exact else 0.0) + cover - 0.5 * dist + min(count, 1000) / 100000
            hits.append(NameHit(kind, name, round(score, 4), exact, dist, count, ids_, year, seg))
        hits.sort(key=lambda h: (-h.score, h.name))
        return hits[:limit]


async def _build(ctx: ToolContext) -> StandInIndex:
    entries: list[tuple[str, str, int, tuple[str, ...], str | None, str | None]] = []
    async with ctx.transaction() as s:
        seg = {r.id: r.name for r in (await s.execute(select(Segment.id, Segment.name))).all()}
        rel_rows = (await s.execute(select(Release.id, Release.name, Release.year, Release.segment_id))).all()
        rel_seg = {r.id: seg.get(r.segment_id) for r in rel_rows}
        rel_count = dict((await s.execute(select(Card.release_id, func.count()).group_by(Card.release_id))).all())
        for r in rel_rows:
            entries.append(("release", r.name, int(rel_count.get(r.id, 0)), (str(r.id),), r.year, rel_seg[r.id]))
        names: dict[tuple[str, str | None], list[Any]] = {}
        for name, release_id, cid in (await s.execute(select(Card.name, Card.release_id, Card.id)
                                                       .where(Card.variation_of.is_(None)))).all():
            item = names.setdefault((name, rel_seg.get(release_id)), [0, []])
            item[0] += 1
            if len(item[1]) < 20:
                item[1].append(str(cid))
        entries += [("name", n, c, tuple(ids), None, sg) for (n, sg), (c, ids) in names.items()]
        sets: dict[str, list[Any]] = {}
        for sid, name, year in (await s.execute(select(CardSet.id, CardSet.name, Release.year)
                                                 .join(Release, Release.id == CardSet.release_id))).all():
            item = sets.setdefault(name, [0, []])
            item[0] += 1
            if len(item[1]) < 20:
                item[1].append(str(sid))
        entries += [("set", n, c, tuple(ids), None, None) for n, (c, ids) in sets.items()]
        pars: dict[str, list[Any]] = {}
        for pid, name in (await s.execute(select(Parallel.id, Parallel.name))).all():
            item = pars.setdefault(name, [0, []])
            item[0] += 1
            if len(item[1]) < 20:
                item[1].append(str(pid))
        entries += [("parallel", n, c, tuple(ids), None, None) for n, (c, ids) in pars.items()]
        for mid, name in (await s.execute(select(Manufacturer.id, Manufacturer.name))).all():
            entries.append(("manufacturer", name, 1, (str(mid),), None, None))
    return StandInIndex(entries)


async def catalog_index(ctx: ToolContext) -> StandInIndex:
    async with ctx.transaction() as s:
        version = (await catalog_version.current(session=s),
                   int((await s.execute(select(func.count(Card.id)))).scalar_one()))
    return await ctx.service("catalog_index_standin", version, lambda: _build(ctx))
