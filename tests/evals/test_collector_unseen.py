"""The collector parts never tuned on (dev5, dev6, held-out, fresh), through the built-in agent on the
real catalog; a file apart from the tuned parts so that the two halves run in parallel."""

from __future__ import annotations

from tests.evals.collector_parts import UNSEEN, run_parts


async def test_the_unseen_parts_on_the_real_catalog(real_fixture, tmp_path, capsys):
    await run_parts(UNSEEN, real_fixture, tmp_path, capsys)
