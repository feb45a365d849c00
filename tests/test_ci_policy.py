"""PostgreSQL cases skip on a developer machine without a server, but fail the run in CI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = "tests/api/test_auth.py::test_public_routes_need_no_key"


def _run(extra_env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "CARDWISE_REQUIRE_POSTGRES")}
    env.update(extra_env, CARDWISE_TEST_PG_URL="postgresql://postgres@127.0.0.1:9/postgres")
    return subprocess.run([sys.executable, "-m", "pytest", PROBE, "--db", "postgres", "-q", "-p", "no:cacheprovider",
                           "-rs"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_unreachable_postgres_skips_locally():
    proc = _run({})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "skipped" in proc.stdout and "PostgreSQL unreachable" in proc.stdout


def test_unreachable_postgres_fails_in_ci():
    proc = _run({"CI": "true"})
    assert proc.returncode != 0
    assert "PostgreSQL is required" in proc.stdout
