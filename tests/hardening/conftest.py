"""Fixtures for the hardening tests: a private PostgreSQL server the fault tests may restart."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hardening.pgcluster import PrivateCluster, find_bindir


def _require_pg() -> bool:
    return os.environ.get("CI", "").lower() == "true" or os.environ.get("CARDWISE_REQUIRE_POSTGRES") == "1"


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
