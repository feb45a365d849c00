"""`cardwise demo remove --dry-run` on a collector with many demo entries: a readable summary."""

from __future__ import annotations

import json

from cli import main as cli_main
from store.queries import demo


def _plan(removed: int) -> dict:
    entries = [{"kind": "collection", "in": "Binder 1", "card": f"Demo card #{i}"} for i in range(removed)]
    return {"releases": 3, "cards": 40, "moved_collection_entries": 0, "moved_want_list_entries": 0,
            "moved": [], "removed": entries}


def test_a_long_removal_list_is_cut_on_screen_but_complete_in_the_json(tmp_path, monkeypatch, capsys):
    async def summary(*, session):
        return _plan(57)

    monkeypatch.setattr(demo, "summary", summary)
    assert cli_main._remove_demo(f"sqlite+aiosqlite:///{tmp_path / 'x.sqlite3'}", dry_run=True) == 0
    out, err = capsys.readouterr()
    shown = [line for line in err.splitlines() if "Demo card #" in line]
    assert len(shown) == cli_main.SHOWN_ENTRIES
    assert "57 entries of demo cards" in err and "and 37 more" in err
    assert len(json.loads(out)["removed"]) == 57


def test_a_short_removal_list_is_shown_whole(tmp_path, monkeypatch, capsys):
    async def summary(*, session):
        return _plan(3)

    monkeypatch.setattr(demo, "summary", summary)
    cli_main._remove_demo(f"sqlite+aiosqlite:///{tmp_path / 'x.sqlite3'}", dry_run=True)
    err = capsys.readouterr().err
    assert [line.strip() for line in err.splitlines() if "Demo card #" in line] == [
        "collection 'Binder 1': Demo card #0", "collection 'Binder 1': Demo card #1", "collection 'Binder 1': Demo card #2"]
    assert "more" not in err
