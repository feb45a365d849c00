"""Collector suites on the real catalog: open a working copy of the cached fixture, compute each
case's expectation from it and judge the answers (see ``evals/judge.py``)."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evals.cache import keep_index, restore_index
from evals.facts import FACTS, Env, Expect, identity
from evals.judge import Verdict, judge
from evals.names import NameIndex, build_index, norm
from evals.realdata import RealCatalog
from evals.suite import Case


@dataclass
class Judging:
    env: Env
    index: NameIndex
    writes: set[str]

    async def expect(self, case: Case) -> Expect:
        (name, arg), = case.fact.items()
        if name not in FACTS:
            raise ValueError(f"unknown fact {name!r}")
        card = await identity(self.env, case.card, case.entities) if case.card else None
        exp = await FACTS[name](self.env, card, arg, case.entities)
        exp.allowed |= {norm(a) for a in case.allow}
        exp.says += case.says
        return exp

    async def judge(self, case: Case, exp: Expect, answer: str, called: list[str]) -> Verdict:
        listed = await self._on_list(exp.on_list) if exp.on_list else None
        kept = await self._on_list(exp.off_list) if exp.off_list else None
        return judge(exp, answer, called, index=self.index, writes=self.writes, trap=case.kind == "trap",
                     on_list=listed, still_listed=kept)

    async def _on_list(self, card: Any) -> bool:
        from sqlalchemy import select

        from store.models import WantListCard

        async with self.env.sessions() as s:
            found = await s.scalar(select(WantListCard.id).where(
                WantListCard.list_id == uuid.UUID(str(self.env.values["wantlist"])),
                WantListCard.card_id == card.card_id))
        return found is not None


@asynccontextmanager
async def real_catalog(fixture: RealCatalog, workdir: Path, settings: Any, *,
                       echo: Any = print) -> AsyncIterator[tuple[Any, dict[str, Any], Judging]]:
    """(tool context, placeholder values, judging) on a fresh copy of the cached real catalog
    (``ensure_real_catalog()`` builds it; call that outside the event loop)."""
    from dataclasses import replace

    from evals.realdata import eval_context
    from store.db import create_engine, sessionmaker
    from tools._registry import all_tools, invoke

    t = time.perf_counter()
    url = fixture.copy_to(workdir / "eval-real.sqlite3")
    engine = create_engine(url)
    try:
        sessions = sessionmaker(engine)
        ctx = await eval_context(sessions, replace(settings, database_url=url))
        values = {"collection": (await invoke("collections_list", {}, ctx))["collections"][0]["id"],
                  "wantlist": (await invoke("lists_list", {}, ctx))["lists"][0]["id"]}
        index = await build_index(sessions)
        from store.search import index_root
        from tools._search import catalog_index

        # the catalog search index, as `cardwise import` leaves it in a deployment (built once per cached catalog)
        root = index_root(ctx.settings.database_url, ctx.settings.search_dir or None)
        restore_index(fixture.path, root)
        await catalog_index(ctx)
        keep_index(fixture.path, root)
        echo(f"real catalog: working copy and name index ready in {time.perf_counter() - t:.1f} s "
             f"({len(index.names):,} card names)")
        yield ctx, values, Judging(Env(ctx, sessions, values), index, {x.name for x in all_tools() if x.writes})
    finally:
        await engine.dispose()


async def check_expectations(cases: list[Case], judging: Judging) -> list[str]:
    """Every case's expectation computed from the catalog; the problems, one line each."""
    problems = []
    for case in cases:
        try:
            await judging.expect(case)
        except (LookupError, KeyError, ValueError, StopIteration) as exc:
            problems.append(f"{case.key}: {type(exc).__name__}: {exc}")
    return problems
