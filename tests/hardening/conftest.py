"""Fixtures for the hardening tests: a private PostgreSQL server the fault tests may restart."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import _require_pg, create_pg_database
from tests.hardening.pgcluster import PrivateCluster, find_bindir


@pytest.fixture
def private_pg(request: pytest.FixtureRequest) -> Iterator[PrivateCluster]:
    """A started private PostgreSQL cluster with a database ``cardwise``; destroyed afterwards."""
    if request.config.getoption("--db") == "sqlite":
        pytest.skip("PostgreSQL fault test (run with --db postgres or --db all)")
    if find_bindir() is None:
        if _require_pg():
            pytest.fail("PostgreSQL server binaries are required here (initdb, pg_ctl)")
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) not installed")
    # not under pytest's tmp dir: that is private to root, and the server runs as ``postgres``
    root = Path(tempfile.mkdtemp(prefix="cardwise-pgfault-"))
    root.chmod(0o755)
    cluster = PrivateCluster(root / "cluster").init()
    cluster.start()
    try:
        asyncio.run(_create_db(cluster.admin_url, "cardwise"))
        yield cluster
    finally:
        cluster.destroy()
        shutil.rmtree(root, ignore_errors=True)


async def _create_db(admin_url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url, timeout=10)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def live_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """A seeded Cardwise server in a background thread (shared by a module's tests), on each
    database ``--db`` asks for."""
    from tests.conftest import _pg_exec
    from tests.hardening import liveserver

    choice = request.config.getoption("--db")
    if request.param not in (("sqlite", "postgres") if choice == "all" else (choice,)):
        pytest.skip(f"{request.param} not selected (--db {choice})")
    if request.param == "sqlite":
        server = liveserver.start(liveserver.sqlite_url(tmp_path_factory.mktemp("live")))
        yield server
        server.stop()
        return
    name = f"cw_live_{uuid.uuid4().hex[:10]}"
    url = create_pg_database(name)
    try:
        server = liveserver.start(url)
        yield server
        server.stop()
    finally:
        asyncio.run(_pg_exec(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
