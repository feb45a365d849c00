"""The one-way import rule: api -> tools, agent; agent -> tools; tools -> identification, store, vision;
identification -> vision; cli -> anything.

Nothing imports api or cli (but cli); store and vision import neither tools, agent nor api; identification
knows nothing of the store (the store implements its candidate lookup without importing it); evals is
imported only by cli; ``config`` (the settings) and ``metrics`` import nothing of ours and sit below
the layers that use them (config: all but vision; metrics: api, agent, tools); only agent/llm.py imports openai; only api/ and cli/ import aiohttp's server
(``aiohttp.web`` in any spelling; aiohttp's client is allowed in the agent for tests).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["api", "cli", "agent", "tools", "identification", "store", "vision", "evals", "config", "metrics"]
ALLOWED = {
    "cli": set(PACKAGES),
    "api": {"api", "agent", "tools", "config", "metrics"},
    "evals": {"evals", "agent", "tools", "identification", "store", "vision", "config"},
    "agent": {"agent", "tools", "config", "metrics"},
    "tools": {"tools", "identification", "store", "vision", "config", "metrics"},
    "identification": {"identification", "vision", "config"},
    "store": {"store", "config"},
    "vision": {"vision"},
    "config": {"config"},
    "metrics": {"metrics"},
}
AIOHTTP_SERVER = {"api", "cli"}


def _imports(path: Path) -> list[str]:
    """Every module a file imports, ``from pkg import name`` also as ``pkg.name`` (it may be a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
            out += [f"{node.module}.{a.name}" for a in node.names if a.name != "*"]
    return out


def _files():
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            yield pkg, path


def _violations(pkg: str, rel: str, names: list[str]) -> list[str]:
    bad = []
    for name in names:
        top = name.split(".")[0]
        if top in PACKAGES and top not in ALLOWED[pkg]:
            bad.append(f"{rel} imports {name}")
        if top == "openai" and not rel.startswith("agent/llm"):
            bad.append(f"{rel} imports {name}")
        if (name == "aiohttp.web" or name.startswith("aiohttp.web_")) and pkg not in AIOHTTP_SERVER:
            bad.append(f"{rel} imports {name}")
    return bad


def test_packages_import_only_downwards():
    bad = []
    for pkg, path in _files():
        bad += _violations(pkg, path.relative_to(ROOT).as_posix(), _imports(path))
    assert sorted(set(bad)) == []


def test_the_checker_catches_a_violation(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("from api.app import create_app\nimport tools.errors\nfrom aiohttp import web\n"
                 "from aiohttp.web_request import Request\nimport evals.runner\nfrom openai import OpenAI\n")
    names = _imports(f)
    assert "api.app" in names and "aiohttp.web" in names
    bad = _violations("tools", "tools/x.py", names)
    assert bad == ["tools/x.py imports api.app", "tools/x.py imports api.app.create_app",
                   "tools/x.py imports aiohttp.web", "tools/x.py imports aiohttp.web_request",
                   "tools/x.py imports aiohttp.web_request.Request", "tools/x.py imports evals.runner",
                   "tools/x.py imports openai", "tools/x.py imports openai.OpenAI"]
    assert _violations("api", "api/x.py", names) == ["api/x.py imports evals.runner", "api/x.py imports openai",
                                                     "api/x.py imports openai.OpenAI"]
    assert _violations("cli", "cli/x.py", names) == ["cli/x.py imports openai", "cli/x.py imports openai.OpenAI"]
    f.write_text("import metrics\nfrom config import Settings\nfrom tools.errors import ServiceError\n")
    assert _violations("metrics", "metrics/x.py", _imports(f)) == [
        "metrics/x.py imports config", "metrics/x.py imports config.Settings",
        "metrics/x.py imports tools.errors", "metrics/x.py imports tools.errors.ServiceError"]
    assert _violations("store", "store/x.py", _imports(f)) == [
        "store/x.py imports metrics", "store/x.py imports tools.errors", "store/x.py imports tools.errors.ServiceError"]


def test_identification_knows_neither_the_store_nor_the_tools(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("from store.queries import identify\nimport tools.errors\nfrom vision import pipeline\n")
    assert _violations("identification", "identification/x.py", _imports(f)) == [
        "identification/x.py imports store.queries", "identification/x.py imports store.queries.identify",
        "identification/x.py imports tools.errors"]
    assert _violations("tools", "tools/x.py", ["identification.engine"]) == []
