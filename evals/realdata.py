"""The real-catalog eval fixture (``needs: [real]``): JunkWax + TCGdex + the real PSA sales, the
project's seeded SYNTHETIC population / sports prices / listings, and a collection and want list
of real cards owned by the ``cardwise-eval`` key.

The import takes minutes, so the built SQLite file is cached (``CARDWISE_EVAL_CACHE``, default
``~/.cache/cardwise``) under a key made from the data files, the importers and the migrations;
each run works on a fresh copy, so cases that write (want-list adds, feedback) never touch it.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data"
EVAL_KEY_NAME = "cardwise-eval"
COLLECTION = "My cards"
WANT_LIST = "Want list"
SYNTHETIC_CARDS = {"population-synthetic": 500, "prices-synthetic": 200, "listings-synthetic": 200}

# The collection: real cards a collector might own. (name, number, release name, year) find the card;
# parallel (a name or None), grade ("PSA 9" or None), buy price, buy date.
OWNED: list[dict[str, Any]] = [
    {"name": "Charizard", "number": "4", "release": "Base Set", "grade": "PSA 8", "buy": "450.00", "date": "2020-03-14"},
    {"name": "Blastoise", "number": "2", "release": "Base Set", "grade": None, "buy": "60.00", "date": "2021-06-02"},
    {"name": "Pikachu", "number": "58", "release": "Base Set", "grade": None, "buy": "4.00", "date": "2021-06-02"},
    {"name": "Ken Griffey Jr.", "number": "1", "release": "1989 Upper Deck Baseball", "grade": "PSA 9", "buy": "120.00",
     "date": "2019-08-20"},
    {"name": "Shining Charizard", "number": "107", "release": "Neo Destiny", "grade": "PSA 9", "buy": "700.00",
     "date": "2022-01-10"},
    {"name": "Ryne Sandberg", "number": "504", "release": "1984 Fleer Baseball", "grade": "PSA 9", "buy": "25.00",
     "date": "2023-05-01"},
    {"name": "Ozzie Smith", "number": "704", "release": "1986 Topps Baseball", "grade": None, "buy": "3.00",
     "date": "2023-05-01"},
    {"name": "Rickey Henderson", "number": "201", "release": "1995 Pinnacle Baseball", "grade": None, "buy": "2.00",
     "date": "2024-02-11"},
]
# The want list: (name, number, release).
WANTED: list[dict[str, Any]] = [
    {"name": "Venusaur", "number": "15", "release": "Base Set"},
    {"name": "Mewtwo", "number": "10", "release": "Base Set"},
]


def cache_dir() -> Path:
    return Path(os.environ.get("CARDWISE_EVAL_CACHE") or Path.home() / ".cache" / "cardwise")


def _stat_digest(h: Any, root: Path) -> None:
    for p in sorted(root.rglob("*")):
        if p.is_file() and "/img/" not in str(p):
            st = p.stat()
            h.update(f"{p.relative_to(root)}:{st.st_size}:{int(st.st_mtime)}\n".encode())


def code_digest(h: Any, files: list[Path]) -> None:
    for code in files:
        h.update(code.name.encode() + hashlib.sha1(code.read_bytes()).digest())


def import_digest(h: Any, data: Path, subs: tuple[str, ...], *code: Path) -> None:
    """Feed ``h`` the data folders ``subs`` of ``data``, every importer and migration, and the files ``code``."""
    for sub in subs:
        _stat_digest(h, data / sub)
    code_digest(h, [*sorted((ROOT / "store" / "importers").glob("*.py")),
                    *sorted((ROOT / "store" / "migrations" / "versions").glob("*.py")), *code])


def cache_key(data: Path) -> str:
    """Changes with the data, an importer, a migration, this module and the day."""
    h = hashlib.sha1()
    import_digest(h, data, ("junkwax", "tcgdex", "psa-sales"), Path(__file__))
    # the synthetic sales and listings are dated from the day they are generated
    h.update(repr((SYNTHETIC_CARDS, OWNED, WANTED, date.today().isoformat())).encode())
    return h.hexdigest()[:16]


@dataclass
class RealCatalog:
    path: Path              # the cached, read-only database file
    built_s: float          # seconds spent importing (0.0 when it came from the cache)
    steps: dict[str, float]

    def copy_to(self, dest: Path) -> str:
        """A working copy for one run; returns its database URL."""
        shutil.copyfile(self.path, dest)
        return f"sqlite+aiosqlite:///{dest}"


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def ensure_real_catalog(data: Path = DEFAULT_DATA, *, echo: Callable[[str], None] = _say,
                        progress: bool = True) -> RealCatalog:
    """The cached real-catalog database, built when missing (prints each step and its seconds)."""
    path = cache_dir() / f"eval-real-{cache_key(data)}.sqlite3"
    if path.exists():
        echo(f"real catalog: cached {path}")
        return RealCatalog(path, 0.0, {})
    path.parent.mkdir(parents=True, exist_ok=True)
    # one builder at a time: parallel test processes wait for the first one's file instead of importing twice
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            echo(f"real catalog: cached {path}")
            return RealCatalog(path, 0.0, {})
        return _build_file(path, data, echo, progress)


def _build_file(path: Path, data: Path, echo: Callable[[str], None], progress: bool) -> RealCatalog:
    import asyncio

    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    from store import migrations

    start = time.perf_counter()
    migrations.upgrade(f"sqlite+aiosqlite:///{tmp}")
    steps = asyncio.run(_build(f"sqlite+aiosqlite:///{tmp}", data, echo, progress))
    built = time.perf_counter() - start
    os.replace(tmp, path)
    echo(f"real catalog: built in {built:.1f} s -> {path}")
    return RealCatalog(path, built, steps)


async def _build(url: str, data: Path, echo: Callable[[str], None], progress: bool) -> dict[str, float]:
    from store.db import create_engine, sessionmaker
    from store.importers import available
    from store.importers._progress import Progress

    mods = available()
    engine = create_engine(url)
    steps: dict[str, float] = {}
    try:
        sessions = sessionmaker(engine)
        plan = [("grades", None), ("junkwax", str(data / "junkwax")), ("tcgdex", str(data / "tcgdex")),
                ("psa-sales", str(data / "psa-sales"))]
        plan += [(name, str(n)) for name, n in SYNTHETIC_CARDS.items()]
        for name, src in plan:
            t = time.perf_counter()
            echo(f"real catalog: import {name} ...")
            counts = await mods[name].run(
                sessions, src, progress=lambda label, total=None: Progress(label, total, enabled=progress))
            steps[name] = time.perf_counter() - t
            if progress:
                print(file=sys.stderr)
            echo(f"real catalog: import {name} {steps[name]:.1f} s {counts}")
        t = time.perf_counter()
        await _owner_data(sessions)
        steps["collection"] = time.perf_counter() - t
    finally:
        await engine.dispose()
    return steps


async def eval_context(sessions: Any, settings: Any) -> Any:
    """A ToolContext acting as the ``cardwise-eval`` key (created on first use)."""
    from store.queries import keys as key_queries
    from tools.context import Caller, ToolContext

    async with sessions() as s, s.begin():
        row = next((k for k in await key_queries.all_keys(session=s)
                    if k.name == EVAL_KEY_NAME and k.revoked_at is None), None)
        if row is None:
            row, _ = await key_queries.create(session=s, name=EVAL_KEY_NAME)
    return ToolContext(sessions=sessions, settings=settings, caller=Caller(key_id=row.id, name=EVAL_KEY_NAME))


async def find_card(ctx: Any, name: str, number: str, release: str) -> dict[str, Any]:
    """The catalog card named ``name`` with ``number`` in a release called ``release`` (exactly one)."""
    from tools._registry import invoke

    cards = (await invoke("catalog_cards", {"name": name, "number": number, "take": 100}, ctx)).get("cards", [])
    hits = [c for c in cards if (c.get("name") or "").lower() == name.lower()
            and (c.get("releaseName") or "").lower() == release.lower()]
    if len(hits) != 1:
        raise LookupError(f"{name} #{number} in {release}: {len(hits)} catalog matches")
    return hits[0]


async def _owner_data(sessions: Any) -> None:
    from config import Settings
    from store.reference import grades as ref
    from tools._registry import invoke

    ctx = await eval_context(sessions, Settings())
    items = []
    for o in OWNED:
        card = await find_card(ctx, o["name"], o["number"], o["release"])
        item = {"cardId": card["id"], "buyPrice": o["buy"], "buyDate": o["date"]}
        if o["grade"]:
            company, value = o["grade"].split()
            item["gradeId"] = str(ref.grade_id(company, "Card", value))
        items.append(item)
    collector = await invoke("collector_create", {"name": "Eval collector"}, ctx)
    coll = await invoke("collection_create", {"collectorId": collector["id"], "name": COLLECTION}, ctx)
    await invoke("collection_cards_add", {"collectionId": coll["id"], "items": items}, ctx)
    wl = await invoke("list_create", {"collectorId": collector["id"], "name": WANT_LIST}, ctx)
    wanted = [{"cardId": (await find_card(ctx, w["name"], w["number"], w["release"]))["id"]} for w in WANTED]
    await invoke("list_cards_add", {"listId": wl["id"], "items": wanted}, ctx)


if __name__ == "__main__":  # python -m evals.realdata [DATA]: build (or find) the cached database
    ensure_real_catalog(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DATA)
