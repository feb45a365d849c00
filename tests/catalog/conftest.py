from __future__ import annotations

import os
from pathlib import Path

import pytest

import tests.conftest as root_conftest
from tests.conftest import copy_of
from tests.factories import seed_catalog

# Worktrees that do not sit beside ../shared can point the real-data tests at it.
if os.environ.get("CARDWISE_SHARED_DATA"):
    root_conftest.SHARED_DATA = Path(os.environ["CARDWISE_SHARED_DATA"])


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)


@pytest.fixture
def second_db(db_backend: str, request: pytest.FixtureRequest, tmp_path: Path):
    """Another fresh database beside ``db_url`` (a catalog imported another way, or never with the demo)."""
    template = request.getfixturevalue("sqlite_template" if db_backend == "sqlite" else "pg_template")
    (tmp_path / "second").mkdir()
    yield from copy_of(db_backend, template, tmp_path / "second")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "catalog_from(fixture): the test's database starts as a copy of that "
                                       "session-scoped imported catalog (tests/catalog/test_demo_layer.py)")
