"""Agent commands for the ``cardwise`` CLI.

    cardwise model serve [--host H] [--port P]                    the built-in model over HTTP
    cardwise eval run SUITE... [--backend builtin|openai] [--record|--replay]
                     [--base-url URL] [--model M] [--cassettes DIR]

``eval run`` uses the configured database (migrated, grades loaded) and acts as an API key named
``cardwise-eval`` (created on first use). Suites that need the demo catalog (``needs: [demo]``)
run only when the catalog has cards (``cardwise import demo``). Suites that need the real catalog
(``needs: [real]``, the collector suites) run on a copy of a cached import of ``--data`` (default
../shared/data; built once, see evals/realdata.py) and report right / wrong card / unhelpful per
part, family and kind; they run live (no cassettes: --record/--replay apply to the other suites).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

EVAL_KEY_NAME = "cardwise-eval"


def configure_model(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True)
    s = sub.add_parser("serve", help="serve the built-in model as an OpenAI-compatible endpoint")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8765)


def run_model(args: argparse.Namespace) -> int:
    from aiohttp import web

    from cli.model_server import create_model_app

    web.run_app(create_model_app(), host=args.host, port=args.port, access_log=None,
                print=lambda m: print(m, file=sys.stderr))
    return 0


def configure_eval(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True)
    r = sub.add_parser("run", help="run eval suites (YAML files or directories)")
    r.add_argument("suites", nargs="+")
    r.add_argument("--backend", choices=["builtin", "openai"], default="builtin")
    mode = r.add_mutually_exclusive_group()
    mode.add_argument("--record", action="store_true", help="record model HTTP traffic to cassettes")
    mode.add_argument("--replay", action="store_true", help="replay cassettes offline (fails on unmatched calls)")
    r.add_argument("--base-url", help="OpenAI-compatible endpoint (default CARDWISE_LLM_BASE_URL)")
    r.add_argument("--model", help="model name (default CARDWISE_LLM_MODEL)")
    r.add_argument("--cassettes", help="cassette directory (default evals/cassettes)")
    r.add_argument("--data", help="real data folder for needs: [real] suites (default ../shared/data)")
    r.add_argument("--check", action="store_true",
                   help="real-catalog suites: compute every expectation from the catalog, run no question")
    r.add_argument("--show", choices=["fail", "all", "none"], default="all",
                   help="case lines to print (collector cases print the answer's verdict)")


def suite_files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.glob("*.yaml")) if p.is_dir() else [p]
    return out


def build_llm(settings: Any, backend: str, base_url: str | None, model: str | None, replay: bool,
              record: bool = False) -> Any:
    from agent.llm import OpenAILLM, make_llm, openai_client

    if backend == "builtin" and not replay:
        return make_llm(replace(settings, llm_base_url=""), recordable=record)
    url = base_url or settings.llm_base_url or "http://127.0.0.1:8765/v1"
    client = openai_client(url, settings.llm_api_key or "none", timeout=settings.llm_timeout_s)
    return OpenAILLM(client, model or settings.llm_model, attempts=1 if replay else settings.llm_max_retries)


def run_eval(args: argparse.Namespace) -> int:
    from api.settings import load_settings
    from evals.runner import CASSETTES, run_cases
    from evals.suite import load_suite
    from store import migrations
    from store.db import create_engine, sessionmaker
    from store.importers import grades
    from store.queries import keys as key_queries
    from tools.context import Caller, ToolContext

    settings = load_settings()
    all_cases = [c for f in suite_files(args.suites) for c in load_suite(f)]
    cases = [c for c in all_cases if "real" not in c.needs]
    real = [c for c in all_cases if "real" in c.needs]
    mode = "record" if args.record else "replay" if args.replay else None
    failed = run_real(args, settings, real, mode) if real else 0
    if not cases:
        return failed
    migrations.upgrade(settings.database_url)

    async def main() -> int:
        engine = create_engine(settings.database_url)
        try:
            sessions = sessionmaker(engine)
            await grades.run(sessions)
            async with sessions() as s, s.begin():
                row = next((k for k in await key_queries.all_keys(session=s)
                            if k.name == EVAL_KEY_NAME and k.revoked_at is None), None)
                if row is None:
                    row, _ = await key_queries.create(session=s, name=EVAL_KEY_NAME)
                has_cards = await _has_cards(s)
            ctx = ToolContext(sessions=sessions, settings=settings, caller=Caller(key_id=row.id, name=EVAL_KEY_NAME))
            collection = await ensure_eval_collection(ctx) if has_cards else None
            llm = build_llm(settings, args.backend, args.base_url, args.model, args.replay, args.record)
            report = await run_cases(cases, ctx, llm, mode=mode,
                                     cassettes=Path(args.cassettes) if args.cassettes else CASSETTES,
                                     has=lambda need: (need == "demo" and has_cards) or (
                                         need == "collections" and collection is not None),
                                     values={"collection": collection})
            return 1 if report.failed else 0
        finally:
            await engine.dispose()

    return max(asyncio.run(main()), failed)


def _echo_for(show: str) -> Any:
    def echo(line: str) -> None:
        if show == "all" or (show == "fail" and not line.startswith(("PASS", "SKIP"))) or not line.startswith(
                ("PASS", "FAIL", "SKIP")):
            print(line, flush=True)
    return echo


def run_real(args: argparse.Namespace, settings: Any, cases: list[Any], mode: str | None) -> int:
    """The real-catalog cases, on a working copy of the cached fixture; 1 when any is not right."""
    import tempfile
    import time

    from evals.collector import check_expectations, real_catalog
    from evals.realdata import DEFAULT_DATA, ensure_real_catalog
    from evals.runner import CASSETTES, run_cases

    data = Path(args.data) if args.data else DEFAULT_DATA
    if not all((data / sub).is_dir() for sub in ("junkwax", "tcgdex", "psa-sales")):
        print(f"skipping {len(cases)} real-catalog questions: no junkwax/, tcgdex/ and psa-sales/ under {data} "
              "(--data DIR)", file=sys.stderr)
        return 0
    fixture = ensure_real_catalog(data)

    async def main() -> int:
        with tempfile.TemporaryDirectory(prefix="cardwise-eval-") as tmp:
            async with real_catalog(fixture, Path(tmp), settings) as (ctx, values, judging):
                if args.check:
                    problems = await check_expectations(cases, judging)
                    print("\n".join(problems) or f"{len(cases)} expectations computed")
                    return 1 if problems else 0
                llm = build_llm(settings, args.backend, args.base_url, args.model, args.replay, args.record)
                t = time.perf_counter()
                report = await run_cases(cases, ctx, llm, mode=mode, echo=_echo_for(args.show), values=values,
                                         judging=judging, cassettes=Path(args.cassettes) if args.cassettes
                                         else CASSETTES, has=lambda need: need == "real")
                print(f"{len(cases)} real-catalog questions in {time.perf_counter() - t:.1f} s")
                return 1 if report.failed else 0

    return asyncio.run(main())


EVAL_COLLECTION = "Cardwise eval"
_COLLECTION_TOOLS = ("collections_list", "collector_create", "collection_create", "collection_cards_add",
                     "catalog_cards")


async def ensure_eval_collection(ctx: Any) -> str | None:
    """The eval key's collection (created once: a Base Set Charizard and a 2024 Topps Chrome Ohtani #1)."""
    from tools._registry import get_tool, invoke

    if any(get_tool(n) is None for n in _COLLECTION_TOOLS):
        return None
    found = await invoke("collections_list", {"take": 100}, ctx)
    for c in found.get("collections", []):
        if c.get("name") == EVAL_COLLECTION:
            return c["id"]
    picks = []
    for args in ({"name": "Charizard", "number": "4"}, {"name": "Shohei Ohtani", "number": "1", "year": "2024"}):
        cards = (await invoke("catalog_cards", {**args, "take": 1}, ctx)).get("cards", [])
        picks += [{"cardId": c["id"], "buyPrice": "100.00", "buyDate": "2026-01-15"} for c in cards]
    if not picks:
        return None
    collector = await invoke("collector_create", {"name": EVAL_COLLECTION}, ctx)
    collection = await invoke("collection_create", {"collectorId": collector["id"], "name": EVAL_COLLECTION}, ctx)
    await invoke("collection_cards_add", {"collectionId": collection["id"], "items": picks}, ctx)
    return collection["id"]


async def _has_cards(session: Any) -> bool:
    from sqlalchemy import select

    from store.models import Card

    return (await session.scalar(select(Card.id).limit(1))) is not None


def run(args: argparse.Namespace) -> int:
    return run_model(args) if args.command == "model" else run_eval(args)


COMMANDS = {"model": (configure_model, run), "eval": (configure_eval, run)}
