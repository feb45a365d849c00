"""The one-way import rule: api -> tools, agent; agent -> tools; tools -> store, vision.

Nothing imports api; store and vision import neither tools, agent nor api; only agent/llm.py
imports openai; only api/ imports aiohttp.web (aiohttp's client is allowed in the agent for tests).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["api", "agent", "tools", "store", "vision", "evals"]
ALLOWED = {
    "api": {"api", "agent", "tools", "store", "vision", "evals"},
    "evals": {"evals", "agent", "tools", "store", "vision"},
    "agent": {"agent", "tools"},
    "tools": {"tools", "store", "vision"},
    "store": {"store"},
    "vision": {"vision"},
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


def _files():
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            yield pkg, path


def test_packages_import_only_downwards():
    bad = []
    for pkg, path in _files():
        for name in _imports(path):
            top = name.split(".")[0]
            if top in PACKAGES and top not in ALLOWED[pkg]:
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert bad == []


def test_openai_only_in_agent_llm_and_aiohttp_web_only_in_api():
    bad = []
    for pkg, path in _files():
        rel = path.relative_to(ROOT).as_posix()
        for name in _imports(path):
            if name.split(".")[0] == "openai" and not rel.startswith("agent/llm"):
                bad.append(f"{rel} imports {name}")
            if (name == "aiohttp.web" or name.startswith("aiohttp.web")) and pkg != "api":
                bad.append(f"{rel} imports {name}")
    assert bad == []


def test_the_checker_catches_a_violation(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("from api.app import create_app\nimport tools.errors\n")
    assert _imports(f) == ["api.app", "tools.errors"]
