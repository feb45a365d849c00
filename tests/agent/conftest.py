"""Agent test fixtures: the seeded catalog plus fake tools for capabilities of other branches."""

from __future__ import annotations

import pytest

from tests.agent import fakes
from tests.factories import seed_catalog


@pytest.fixture
def fake_tools(monkeypatch):
    fakes.install(monkeypatch)
    return fakes


@pytest.fixture
async def catalog(sessions):
    return await seed_catalog(sessions)


@pytest.fixture(autouse=True)
def _no_real_model(monkeypatch):
    """No test reaches a real model server: any non-builtin endpoint must be mocked explicitly."""
    monkeypatch.delenv("CARDWISE_LLM_BASE_URL", raising=False)
