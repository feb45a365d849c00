from __future__ import annotations

import pytest

from tests.factories import seed_catalog


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)
