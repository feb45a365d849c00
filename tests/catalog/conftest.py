from __future__ import annotations

import os
from pathlib import Path

import pytest

import tests.conftest as root_conftest
from tests.factories import seed_catalog

# Worktrees that do not sit beside ../shared can point the real-data tests at it.
if os.environ.get("CARDWISE_SHARED_DATA"):
    root_conftest.SHARED_DATA = Path(os.environ["CARDWISE_SHARED_DATA"])


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)
