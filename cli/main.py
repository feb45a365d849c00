"""The ``cardwise`` command line.

    cardwise serve [--host H] [--port P] [--workers N] [--no-migrate]   migrate, load reference data, serve
    cardwise db upgrade | db current                      run / show migrations
    cardwise keys create [--name N] | keys list | keys revoke ID
    cardwise import NAME [SOURCE]                         run an importer (see `cardwise import --help`)
    cardwise demo remove [--dry-run]                      remove the demo catalog (and its prices, listings...)
    cardwise identifiable on|off [--set ID] [--release ID] [--segment NAME|CODE|ID]   sets photos identify
    cardwise search reindex [--quiet]                     rebuild the catalog search index now
    cardwise openapi                                      print the OpenAPI document
    cardwise mcp [--allow-writes]                         the tools over MCP on stdio (key: CARDWISE_API_KEY)
    cardwise model serve [--port P]                       the built-in model as an OpenAI-compatible server
    cardwise eval run SUITE... [--backend builtin|openai] [--record|--replay]   agent eval suites
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import gc
import inspect
import json
import logging
import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from api.settings import ConfigError, load_settings
from cli.progress import factory as progress_factory
from store import migrations
from store.db import create_engine, sessionmaker
from store.importers import available as importers
from store.queries import catalog_version
from store.queries import keys as key_queries
from vision import memory

# other packages' commands: name -> (configure(subparser), run(args) -> int)
EXTRA_COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {}


def _agent_commands() -> None:
    from cli.agent_cli import COMMANDS

    EXTRA_COMMANDS.update(COMMANDS)


_agent_commands()


def _mcp_commands() -> None:
    from cli.mcp_cli import COMMANDS

    EXTRA_COMMANDS.update(COMMANDS)


_mcp_commands()


async def _with_sessions(url: str, fn: Callable[[Any], Any]) -> Any:
    engine = create_engine(url)
    try:
        return await fn(sessionmaker(engine))
    finally:
        await engine.dispose()


def cmd_db(args: argparse.Namespace) -> int:
    url = load_settings().database_url
    if args.action == "upgrade":
        migrations.upgrade(url)
        print(f"database at {_safe(url)} is at {migrations.current(url)}")
    else:
        print(migrations.current(url) or "(empty)")
    return 0


def _safe(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def cmd_keys(args: argparse.Namespace) -> int:
    url = load_settings().database_url
    migrations.upgrade(url)

    async def run(sessions: Any) -> int:
        async with sessions() as s, s.begin():
            if args.action == "create":
                row, plaintext = await key_queries.create(session=s, name=args.name)
                if args.quiet:
                    print(plaintext)
                else:
                    print(f"created key {row.id} ({row.name or 'unnamed'}); it is shown only once:")
                    print(plaintext)
                return 0
            if args.action == "list":
                for row in await key_queries.all_keys(session=s):
                    state = f"revoked {row.revoked_at:%Y-%m-%d}" if row.revoked_at else "active"
                    print(f"{row.id}  {row.prefix}…  {row.name or '-':20}  {state}")
                return 0
            try:
                key_id = uuid.UUID(args.id)
            except ValueError:
                print(f"not a key id: {args.id}", file=sys.stderr)
                return 2
            revoked = await key_queries.revoke(session=s, key_id=key_id)
            if revoked is None:
                print(f"no key {args.id}", file=sys.stderr)
                return 1
            print(f"revoked {revoked.id}")
            return 0

    return asyncio.run(_with_sessions(url, run))


async def _changing_catalog(url: str, fn: Callable[[Any], Any]) -> Any:
    """``_with_sessions`` for commands that change the catalog: the catalog version is raised when
    they end (also after a failure: earlier batches are committed), so running servers drop their
    cached catalog answers within ``CARDWISE_CATALOG_VERSION_CHECK_S``."""
    async def run(sessions: Any) -> Any:
        try:
            return await fn(sessions)
        finally:
            try:
                async with sessions() as s, s.begin():
                    await catalog_version.bump(session=s)
            except Exception as exc:  # the command's own outcome (or error) is what the user needs to see
                print(f"warning: the catalog version was not raised ({exc.__class__.__name__}); running "
                      "servers show the change within CARDWISE_CATALOG_CACHE_S", file=sys.stderr)
            await _reindex(sessions)

    return await _with_sessions(url, run)


async def _reindex(sessions: Any, *, quiet: bool = True) -> dict[str, Any]:
    """Build the search index of the catalog as it is now (servers then open it instead of building it);
    a failure is reported, not raised: servers rebuild a missing index themselves."""
    import time

    from store.search import index_root, open_current

    settings = load_settings()
    started = time.perf_counter()
    try:
        index = await open_current(sessions, index_root(settings.database_url, settings.search_dir or None))
    except Exception as exc:  # noqa: BLE001
        print(f"warning: the search index was not rebuilt ({exc!r}); servers build it on first use", file=sys.stderr)
        return {"error": repr(exc)}
    out = {"path": str(index.path), "documents": index.num_docs, "seconds": round(time.perf_counter() - started, 2)}
    if not quiet:
        print(f"search index {index.path} ({index.num_docs:,} documents) ready in {out['seconds']} s", file=sys.stderr)
    return out


def cmd_search(args: argparse.Namespace) -> int:
    """``cardwise search reindex``: build the catalog search index from the database now (it is derived
    data: also rebuilt automatically when missing or behind the catalog)."""
    import shutil

    from store.search import index_root

    settings = load_settings()
    migrations.upgrade(settings.database_url)
    root = index_root(settings.database_url, settings.search_dir or None)

    async def run(sessions: Any) -> dict[str, Any]:
        from store.search import fingerprint

        async with sessions() as s:
            fp = await fingerprint(s)
        if (root / fp).is_dir():  # a reindex asked for by hand builds afresh
            shutil.rmtree(root / fp, ignore_errors=True)
        return await _reindex(sessions, quiet=args.quiet)

    out = asyncio.run(_with_sessions(settings.database_url, run))
    print(json.dumps(out))
    return 1 if "error" in out else 0


def cmd_import(args: argparse.Namespace) -> int:
    found = importers()
    if args.name not in found:
        print(f"unknown importer {args.name!r}; available: {', '.join(sorted(found))}", file=sys.stderr)
        return 2
    mod = found[args.name]
    if getattr(mod, "NEEDS_SOURCE", True) and not args.source:
        print(f"cardwise import {args.name} needs a SOURCE path or URL", file=sys.stderr)
        return 2
    url = load_settings().database_url
    migrations.upgrade(url)
    if args.if_empty and asyncio.run(_with_sessions(url, _catalog_has_cards)):
        print(json.dumps({"importer": args.name, "skipped": "the catalog already has cards"}))
        return 0
    progress = progress_factory(quiet=args.quiet)
    extra: dict[str, Any] = {}
    if "search_root" in inspect.signature(mod.run).parameters:  # it asks the catalog search index
        from store.search import index_root

        settings = load_settings()
        extra["search_root"] = index_root(settings.database_url, settings.search_dir or None)
    try:
        counts = asyncio.run(_changing_catalog(url, lambda s: mod.run(s, args.source, progress=progress, **extra)))
    except (ValueError, OSError) as exc:  # a bad SOURCE: say so without a traceback
        print(f"cardwise import {args.name}: {exc}", file=sys.stderr)
        return 2
    if args.name == "images" or (counts or {}).get("images"):  # reference images (``import images``, the
        # hockeycards scans) are useful to identification once their features exist
        from tools._reference_images import index_images

        indexed = asyncio.run(_changing_catalog(url, lambda s: index_images(s, progress=progress)))
        counts = {**(counts or {}), **indexed}
    print(json.dumps({"importer": args.name, **(counts or {})}))
    if args.name in REAL_CATALOGS:
        _offer_demo_removal(url, quiet=args.quiet)
    return 0


REAL_CATALOGS = {"junkwax", "tcgdex", "hockeycards"}


def _offer_demo_removal(url: str, *, quiet: bool) -> None:
    """After a real catalog import: say when the demo catalog holds cards of the same game or sport,
    and offer to remove it (asked only at a terminal; elsewhere the command to run is printed)."""
    from store.queries import demo

    async def look(sessions: Any) -> dict[str, int]:
        async with sessions() as s:
            return await demo.overlap(session=s)

    overlap = asyncio.run(_with_sessions(url, look))
    if not overlap:
        return
    where = ", ".join(f"{n} {seg}" for seg, n in overlap.items())
    print(f"note: the demo catalog is loaded beside this real catalog ({where} demo cards, marked as demo); "
          "remove it with `cardwise demo remove`", file=sys.stderr)
    if not quiet and sys.stdin.isatty() and sys.stderr.isatty():
        print("Remove the demo catalog now? [y/N] ", end="", file=sys.stderr, flush=True)
        if sys.stdin.readline().strip().lower() in ("y", "yes"):
            _remove_demo(url, dry_run=False)


def cmd_demo(args: argparse.Namespace) -> int:
    """``cardwise demo remove``: delete the demo catalog and what hangs from it; users' collections stay."""
    url = load_settings().database_url
    migrations.upgrade(url)
    return _remove_demo(url, dry_run=args.dry_run)


def _remove_demo(url: str, *, dry_run: bool) -> int:
    from store.queries import demo

    async def run(sessions: Any) -> dict[str, Any]:
        async with sessions() as s, s.begin():
            return await (demo.summary if dry_run else demo.remove)(session=s)

    counts = asyncio.run(_with_sessions(url, run) if dry_run else _changing_catalog(url, run))
    verb = "would remove" if dry_run else "removed"
    print(f"{verb} the demo catalog: {counts['releases']} releases, {counts['cards']} cards with their prices, "
          f"populations and listings; collections, lists and binders stay", file=sys.stderr)
    moved = counts["moved_collection_entries"] + counts["moved_want_list_entries"]
    if moved:
        print(f"  {counts['moved_collection_entries']} collection entries and {counts['moved_want_list_entries']} "
              f"want-list items {'would move' if dry_run else 'moved'} to the real card each demo card copies",
              file=sys.stderr)
    _print_capped([f"  {e['kind']} {e['in']!r}: {e['card']} moved as the base card (the real card has no "
                   f"{e['without_parallel']!r} parallel)" for e in counts["moved"] if e.get("without_parallel")])
    if counts["removed"]:
        print(f"  {len(counts['removed'])} entries of demo cards with no real card {'would go' if dry_run else 'went'} "
              "with the demo:", file=sys.stderr)
        _print_capped([f"    {e['kind']} {e['in']!r}: {e['card']}" for e in counts["removed"]])
    print(json.dumps({"demo": "dry-run" if dry_run else "removed", **counts}))
    return 0


SHOWN_ENTRIES = 20  # the JSON on stdout lists every entry; the human summary stops here


def _print_capped(lines: list[str]) -> None:
    for line in lines[:SHOWN_ENTRIES]:
        print(line, file=sys.stderr)
    if len(lines) > SHOWN_ENTRIES:
        print(f"    ... and {len(lines) - SHOWN_ENTRIES} more (every entry is in the JSON on stdout)", file=sys.stderr)


async def _catalog_has_cards(sessions: Any) -> bool:
    from sqlalchemy import select

    from store.models import Card

    async with sessions() as s:
        return (await s.scalar(select(Card.id).limit(1))) is not None


def cmd_serve(args: argparse.Namespace) -> int:
    settings = load_settings()
    workers = settings.workers if args.workers is None else args.workers
    if workers < 1:
        print("--workers must be at least 1", file=sys.stderr)
        return 2
    if workers > 1 and multiprocess_metrics() is None:  # before the app (and prometheus_client) is imported
        print("note: /metrics shows the counters of the worker that answers it (prometheus_client was loaded "
              "before the workers were set up)", file=sys.stderr)

    from aiohttp import web

    from api import logs
    from api.app import create_app

    logs.configure(settings.log_level, settings.log_format)
    if not args.no_migrate:
        migrations.upgrade(settings.database_url)
        mod = importers()["grades"]
        asyncio.run(_changing_catalog(settings.database_url, lambda s: mod.run(s, None)))
    host, port = args.host or settings.host, args.port or settings.port

    def serve() -> None:
        app = create_app(settings)
        app.on_startup.append(_warm_identification)
        # the objects that live as long as the process (modules, models, the app) leave the collector's
        # view, so a full collection no longer pauses a request for tens of milliseconds scanning them
        gc.collect()
        gc.freeze()
        web.run_app(app, host=host, port=port, access_log=None, reuse_port=workers > 1,
                    print=lambda m: print(m, file=sys.stderr), shutdown_timeout=10)

    if workers == 1:
        serve()
        return 0
    from cli.workers import run_workers

    return run_workers(serve, workers)


_WARMING: set[asyncio.Task] = set()  # the warm-up task, held until it ends


async def _warm_identification(app) -> None:
    """Once the server listens: photo identification's models and indexes readied in the background
    (``tools.identify.warm_up``), so the first upload is not 2-4 s slower than the rest."""
    from api.keys import CONTEXT
    from tools.identify import warm_up

    async def warm() -> None:
        try:
            await warm_up(app[CONTEXT])
        except Exception:  # a failed warm-up only leaves the work to the first upload
            logging.getLogger("cardwise.vision").warning("identification warm-up failed", exc_info=True)

    _WARMING.add(task := asyncio.get_running_loop().create_task(warm()))
    task.add_done_callback(_WARMING.discard)


def multiprocess_metrics() -> str | None:
    """prometheus_client's multiprocess mode for ``serve --workers N``: a fresh directory the workers
    write their samples to (removed at exit), so /metrics sums every worker. Must run before
    prometheus_client is first imported; returns the directory, or None when that is too late."""
    if "prometheus_client" in sys.modules and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return None
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if path:
        for stale in Path(path).glob("*.db"):  # counters of an earlier run
            stale.unlink()
        return path
    path = tempfile.mkdtemp(prefix="cardwise-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = path
    atexit.register(shutil.rmtree, path, True)
    return path


def cmd_vision(args: argparse.Namespace) -> int:
    """``cardwise vision index``: features of stored images; ``vision render``: draw faces for cards without one."""
    from tools._reference_images import index_images, render_missing

    url = load_settings().database_url
    migrations.upgrade(url)
    fn = index_images if args.action == "index" else render_missing
    progress = progress_factory(quiet=args.quiet)
    print(json.dumps(asyncio.run(_changing_catalog(url, lambda s: fn(s, progress=progress)))))
    return 0


def cmd_identifiable(args: argparse.Namespace) -> int:
    """``cardwise identifiable on|off``: the sets photo identification matches, by set, release or segment
    (every set of it). Nothing changes unless every one named exists."""
    from store.models import CardSet, Release
    from store.queries import identify as iq

    if not (args.set or args.release or args.segment):
        print("cardwise identifiable: name at least one --set, --release or --segment", file=sys.stderr)
        return 2
    url = load_settings().database_url
    migrations.upgrade(url)

    async def run(sessions: Any) -> int:
        async with sessions() as s, s.begin():
            ids: dict[str, list[uuid.UUID]] = {"set": [], "release": [], "segment": []}
            for kind, model, given in (("set", CardSet, args.set or []), ("release", Release, args.release or [])):
                for ident in given:
                    try:
                        found = await s.get(model, uuid.UUID(ident))
                    except ValueError:
                        found = None
                    if found is None:
                        print(f"cardwise identifiable: no {kind} {ident}", file=sys.stderr)
                        return 2
                    ids[kind].append(found.id)
            for ident in args.segment or []:
                seg = await iq.resolve_segment(session=s, ident=ident)
                if seg is None:
                    print(f"cardwise identifiable: no segment {ident}", file=sys.stderr)
                    return 2
                ids["segment"].append(seg.id)
            named, changed = await iq.mark_identifiable(session=s, on=args.state == "on", set_ids=ids["set"],
                                                        release_ids=ids["release"], segment_ids=ids["segment"])
        print(json.dumps({"identifiable": args.state == "on", "sets": named, "changed": changed}))
        return 0

    return asyncio.run(_changing_catalog(url, run))


def cmd_openapi(args: argparse.Namespace) -> int:
    from api.app import route_table
    from api.openapi import build_openapi

    print(json.dumps(build_openapi(route_table()), indent=2))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardwise", description="Cardwise trading-card service",
                                epilog="Configuration: CARDWISE_* environment variables (see the README).")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="migrate, load reference data and serve the API")
    s.add_argument("--host", help="address to listen on (default CARDWISE_HOST or 127.0.0.1)")
    s.add_argument("--port", type=int, help="port to listen on (default CARDWISE_PORT or 8080)")
    s.add_argument("--workers", type=int, help="server processes sharing the port (SO_REUSEPORT); "
                                               "default CARDWISE_WORKERS or 1")
    s.add_argument("--no-migrate", action="store_true",
                   help="start without running database migrations or loading the grading reference data")
    s.set_defaults(func=cmd_serve)

    d = sub.add_parser("db", help="database migrations")
    d.add_argument("action", choices=["upgrade", "current"])
    d.set_defaults(func=cmd_db)

    k = sub.add_parser("keys", help="API keys")
    ksub = k.add_subparsers(dest="action", required=True)
    kc = ksub.add_parser("create", help="create a key and print it once")
    kc.add_argument("--name")
    kc.add_argument("--quiet", action="store_true", help="print only the key")
    ksub.add_parser("list", help="list keys (never the secrets)")
    kr = ksub.add_parser("revoke", help="revoke a key by id")
    kr.add_argument("id")
    k.set_defaults(func=cmd_keys)

    found = importers()
    i = sub.add_parser("import", help="import data: " + ", ".join(sorted(found)),
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Load a data set into the catalog, market or reference tables.",
                       epilog="importers (NAME SOURCE: what it loads):\n" + _importer_list(found))
    i.add_argument("name", metavar="NAME", help="which importer (listed below)")
    i.add_argument("source", nargs="?", metavar="SOURCE",
                   help="what to read: a folder, file or URL for the data-set importers, a count for the "
                        "synthetic ones; the grades, demo and prices-refresh importers take none")
    i.add_argument("--quiet", action="store_true", help="no progress bar")
    i.add_argument("--if-empty", action="store_true", help="do nothing when the catalog already has cards")
    i.set_defaults(func=cmd_import)

    dm = sub.add_parser("demo", help="the demo catalog: `demo remove` deletes it with its prices, populations "
                                      "and listings (users' collections stay)")
    dm.add_argument("action", choices=["remove"])
    dm.add_argument("--dry-run", action="store_true", help="only say what would be removed")
    dm.set_defaults(func=cmd_demo)

    v = sub.add_parser("vision", help="reference images for photo identification")
    v.add_argument("action", choices=["index", "render"],
                   help="index: compute missing image features; render: draw a face for every card without an image "
                        "(generated/demo catalogs)")
    v.add_argument("--quiet", action="store_true", help="no progress bar")
    v.set_defaults(func=cmd_vision)

    ident = sub.add_parser("identifiable", help="turn photo identification on or off for sets, releases or "
                                                "segments (every set of them)")
    ident.add_argument("state", choices=["on", "off"])
    ident.add_argument("--set", action="append", metavar="ID", help="a set's id (repeatable)")
    ident.add_argument("--release", action="append", metavar="ID", help="every set of a release (repeatable)")
    ident.add_argument("--segment", action="append", metavar="NAME|CODE|ID",
                       help="every set of a segment (repeatable)")
    ident.set_defaults(func=cmd_identifiable)

    sr = sub.add_parser("search", help="the catalog search index")
    sr.add_argument("action", choices=["reindex"], help="rebuild it from the database now")
    sr.add_argument("--quiet", action="store_true")
    sr.set_defaults(func=cmd_search)

    o = sub.add_parser("openapi", help="print the OpenAPI document")
    o.set_defaults(func=cmd_openapi)

    for name, (configure, run) in EXTRA_COMMANDS.items():
        sp = sub.add_parser(name)
        configure(sp)
        sp.set_defaults(func=run)
    return p


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardwise")
    except PackageNotFoundError:  # run from a checkout that was not installed
        return "(not installed)"


def _importer_list(found: dict[str, Any]) -> str:
    """One line per importer from the first line of its docstring (``cardwise import NAME SOURCE``: what)."""
    lines = []
    for name in sorted(found):
        first = ((found[name].__doc__ or "").strip().splitlines() or [""])[0]
        usage, _, what = first.partition(":")
        usage = usage.strip("` ").removeprefix("cardwise import ").strip() if what else name
        lines.append(f"  {usage:<26} {(what or first).strip()}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if argv is None and args.func is cmd_serve:  # run as the program (not called by a test): the
            load_settings()  # (a bad variable is reported before the process is replaced)
            memory.exec_tuned()  # server's allocator tuned for image work (``vision.memory``)
        return int(args.func(args) or 0)
    except ConfigError as exc:  # a bad CARDWISE_* variable: say which and what it expects, no traceback
        print(f"cardwise: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
