"""Cached test and eval databases beside the real-catalog fixture (``~/.cache/cardwise``) and the
search indexes built from them, so a run imports and indexes a real catalog once, not every run.

A cached database is keyed on its data and the code that builds it (importers, migrations, the
caller's own files); its index is keyed on the index code (``store/search``) and opened only when
the catalog's fingerprint matches, else built as usual.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from evals.realdata import ROOT, cache_dir, code_digest, import_digest


def import_key(data: Path, subs: tuple[str, ...], *code: Path) -> str:
    """Changes with the data folders ``subs`` of ``data``, an importer, a migration and the files ``code``."""
    h = hashlib.sha1()
    import_digest(h, data, subs, *code)
    return h.hexdigest()[:16]


def cached_database(name: str, key: str, build: Callable[[Path], None]) -> Path:
    """The cached SQLite file ``<name>-<key>.sqlite3``, made by ``build(path)`` when missing (copy it
    before use: opening a SQLite file writes beside it)."""
    path = cache_dir() / f"{name}-{key}.sqlite3"
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    build(tmp)
    os.replace(tmp, path)
    return path


def _kept(db: Path) -> Path:
    h = hashlib.sha1()
    code_digest(h, sorted((ROOT / "store" / "search").glob("*.py")))
    return db.with_name(f"{db.stem}.search-{h.hexdigest()[:12]}")


def restore_index(db: Path, root: Path) -> None:
    """Copy the index kept for the cached database ``db`` into ``root`` (a working copy's index folder)."""
    kept = _kept(db)
    if kept.is_dir():
        for folder in kept.iterdir():
            if not (root / folder.name).exists():
                shutil.copytree(folder, root / folder.name)


def keep_index(db: Path, root: Path) -> None:
    """Keep the one index built in ``root`` for the cached database ``db`` (once)."""
    kept = _kept(db)
    built = [p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")] if root.is_dir() else []
    if kept.exists() or len(built) != 1:
        return
    tmp = kept.with_name(f"{kept.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(built[0], tmp / built[0].name)
    try:
        os.replace(tmp, kept)
    except OSError:  # another process kept it first
        shutil.rmtree(tmp, ignore_errors=True)
