"""Without Chromium the browser tests skip on a developer machine but fail the run in CI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = "tests/e2e/test_console.py::test_a_wrong_key_is_refused_and_nothing_is_kept"


def _run(extra_env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update(extra_env, CARDWISE_CHROMIUM="/nonexistent/chromium")
    return subprocess.run([sys.executable, "-m", "pytest", PROBE, "--db", "sqlite", "-q", "-p", "no:cacheprovider", "-rs"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_missing_browser_skips_locally():
    proc = _run({})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "skipped" in proc.stdout and "/nonexistent/chromium is missing" in proc.stdout


def test_missing_browser_fails_in_ci():
    proc = _run({"CI": "true"})
    assert proc.returncode != 0
    assert "browser tests must run in CI" in proc.stdout
