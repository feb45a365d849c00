"""The later collector parts (dev6, dev7, dev8, held-out, fresh), through the built-in agent on the
real catalog; a file apart from the earlier parts so that the two halves run in parallel."""

from __future__ import annotations

from tests.evals.collector_parts import LATER, run_parts


async def test_the_later_parts_on_the_real_catalog(real_fixture, tmp_path, capsys):
    await run_parts(LATER, real_fixture, tmp_path, capsys)
