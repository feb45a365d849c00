"""Shared fixtures: a fresh migrated database per test on SQLite and/or PostgreSQL, the real app.

Choose the databases with ``--db sqlite|postgres|all`` or ``CARDWISE_TEST_DB`` (default sqlite).
When PostgreSQL is asked for but unreachable the PostgreSQL cases skip with a message, except
when ``CI=true`` or ``CARDWISE_REQUIRE_POSTGRES=1``: then the run fails.

Each database is cloned from a template migrated once per session (a file copy on SQLite,
``CREATE DATABASE ... TEMPLATE`` on PostgreSQL), so every test starts from an empty schema
with the grading reference data loaded.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from config import Settings
from store import migrations
from store.db import create_engine, sessionmaker
from store.importers import grades as grades_importer
from store.queries import keys as key_queries
from tools.context import Caller, ToolContext

PG_ADMIN_URL = os.environ.get("CARDWISE_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--db", default=os.environ.get("CARDWISE_TEST_DB", "sqlite"),
                     choices=["sqlite", "postgres", "all"], help="database(s) the tests run on")


def _require_pg() -> bool:
    return os.environ.get("CI", "").lower() == "true" or os.environ.get("CARDWISE_REQUIRE_POSTGRES") == "1"


def _backends(config: pytest.Config) -> list[str]:
    choice = config.getoption("--db")
    return ["sqlite", "postgres"] if choice == "all" else [choice]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_backend" in metafunc.fixturenames:
        backends = _backends(metafunc.config)
        if metafunc.definition.get_closest_marker("postgres"):
            backends = [b for b in backends if b == "postgres"] or ["postgres"]
        metafunc.parametrize("db_backend", backends, scope="session")


# the longest files, started first so that parallel workers (scripts/test) finish together
LONGEST_FIRST = ("tests/evals/test_collector_suites.py", "tests/evals/test_collector_later.py",
                 "tests/catalog/test_importers.py", "tests/search/test_relevance.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::")[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)
    items.sort(key=rank)


def shared_data(*parts: str) -> Path:
    """Path into ../shared/data; skips the test when absent (fails in CI, where it must exist)."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{path} is missing in CI")
        pytest.skip(f"{path} not present")
    return path


# --------------------------------------------------------------------------- PostgreSQL admin
async def _pg_exec(sql: str, url: str = PG_ADMIN_URL) -> None:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"), timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _pg_url(dbname: str) -> str:
    base, _, _ = PG_ADMIN_URL.rpartition("/")
    return f"{base}/{dbname}".replace("postgresql://", "postgresql+asyncpg://", 1)


async def _load_grades(url: str) -> None:
    engine = create_engine(url)
    try:
        await grades_importer.run(sessionmaker(engine))
    finally:
        await engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tpl") / "template.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    migrations.upgrade(url)
    asyncio.run(_load_grades(url))
    return path


def create_pg_database(name: str) -> str:
    """Create an empty PostgreSQL database; skip the test when the server is unreachable (fail in CI)."""
    try:
        asyncio.run(_pg_exec(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # noqa: BLE001
        if _require_pg():
            pytest.fail(f"PostgreSQL is required here but unreachable at {PG_ADMIN_URL}: {exc!r}")
        pytest.skip(f"PostgreSQL unreachable at {PG_ADMIN_URL} ({exc!r}); set CARDWISE_TEST_PG_URL or use --db sqlite")
    return _pg_url(name)


@pytest.fixture(scope="session")
def pg_template() -> Iterator[str]:
    name = f"cw_tpl_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    url = create_pg_database(name)
    migrations.upgrade(url)
    asyncio.run(_load_grades(url))
    yield name
    asyncio.run(_pg_exec(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def filled_template(db_backend: str, request: pytest.FixtureRequest, fill, tmp_path_factory) -> Iterator[str]:
    """For a session-scoped fixture: a copy of this backend's template with ``fill(sessions)`` (async)
    run on it once; yields what ``copy_of`` takes (a file path, or a PostgreSQL database's name)."""
    async def run(url: str) -> None:
        engine = create_engine(url)
        try:
            await fill(sessionmaker(engine))
        finally:
            await engine.dispose()

    if db_backend == "sqlite":
        path = tmp_path_factory.mktemp("tpl") / "filled.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        asyncio.run(run(f"sqlite+aiosqlite:///{path}"))
        yield str(path)
        return
    name = f"cw_tpl_{uuid.uuid4().hex[:12]}"
    asyncio.run(_pg_exec(f'CREATE DATABASE "{name}" TEMPLATE "{request.getfixturevalue("pg_template")}"'))
    asyncio.run(run(_pg_url(name)))
    yield name
    asyncio.run(_pg_exec(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def db_url(db_backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A freshly migrated database (grades loaded) for this test."""
    template = request.getfixturevalue("sqlite_template" if db_backend == "sqlite" else "pg_template")
    yield from copy_of(db_backend, template, tmp_path)


def copy_of(db_backend: str, template, tmp_path: Path) -> Iterator[str]:
    """A database for one test copied from ``template`` (a SQLite file, or a PostgreSQL database's name),
    dropped after it."""
    if db_backend == "sqlite":
        path = tmp_path / "cardwise.sqlite3"
        shutil.copyfile(template, path)
        yield f"sqlite+aiosqlite:///{path}"
        return
    name = f"cw_t_{uuid.uuid4().hex[:12]}"
    asyncio.run(_pg_exec(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
    yield _pg_url(name)
    asyncio.run(_pg_exec(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(autouse=True)
def _search_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Commands run by a test (``cardwise import ...``) keep their search index in the test's folder."""
    monkeypatch.setenv("CARDWISE_SEARCH_DIR", str(tmp_path / "search"))


@pytest.fixture
def settings(db_url: str, tmp_path: Path) -> Settings:
    # the search index follows the test's own database (never shared or left behind); no time budget
    # per photo: what identification answers must not depend on how busy the machine is
    return Settings(database_url=db_url, log_format="text", db_pool_size=5, search_dir=str(tmp_path / "search"),
                    identify_budget_s=0)


@pytest.fixture
async def sessions(db_url: str) -> AsyncIterator:
    engine = create_engine(db_url, pool_size=5)
    yield sessionmaker(engine)
    await engine.dispose()


@pytest.fixture
async def api_key(sessions) -> tuple[uuid.UUID, str]:
    """(key id, plaintext) of a fresh API key."""
    async with sessions() as s, s.begin():
        row, plaintext = await key_queries.create(session=s, name="test")
    return row.id, plaintext


@pytest.fixture
async def other_key(sessions) -> tuple[uuid.UUID, str]:
    async with sessions() as s, s.begin():
        row, plaintext = await key_queries.create(session=s, name="other")
    return row.id, plaintext


@pytest.fixture
def ctx(sessions, settings: Settings, api_key) -> ToolContext:
    """A tool context acting as the ``api_key`` caller."""
    return ToolContext(sessions=sessions, settings=settings, caller=Caller(key_id=api_key[0], name="test"))


@pytest.fixture
def make_settings(settings: Settings):
    def _make(**changes) -> Settings:
        return replace(settings, **changes)

    return _make


@pytest.fixture
async def client(aiohttp_client, settings: Settings, sessions):
    """aiohttp test client on the real app factory (the ``sessions`` fixture shares its database)."""
    from api.app import create_app

    return await aiohttp_client(create_app(settings))


@pytest.fixture
def auth(api_key) -> dict[str, str]:
    return {"X-API-Key": api_key[1]}


@pytest.fixture
def other_auth(other_key) -> dict[str, str]:
    return {"X-API-Key": other_key[1]}


@pytest.fixture
async def sdk(client, api_key):
    """The official Python SDK (cardsightai), unchanged, pointed at the test server with ``api_key``."""
    cardsightai = pytest.importorskip("cardsightai")
    base = str(client.server.make_url("")).rstrip("/")
    async with cardsightai.AsyncCardSightAI(api_key=api_key[1], base_url=base) as c:
        yield c
