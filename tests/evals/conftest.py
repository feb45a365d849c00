"""The cached real-catalog fixture the collector parts run on (built once per test process)."""

from __future__ import annotations

import time

import pytest

from tests.conftest import shared_data


@pytest.fixture(scope="session")
def real_fixture():
    from evals.realdata import ensure_real_catalog

    data = shared_data()
    for sub in ("junkwax", "tcgdex", "psa-sales"):
        shared_data(sub)
    t = time.perf_counter()
    fixture = ensure_real_catalog(data, echo=lambda line: None, progress=False)
    return fixture, f"real catalog fixture: {time.perf_counter() - t:.1f} s ({'built' if fixture.built_s else 'cached'})"
