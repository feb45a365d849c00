"""The cardwise CLI: keys create/list/revoke and migrations, against the configured database."""

from __future__ import annotations

import re

import pytest

from cli.main import main


@pytest.fixture
def cli_db(db_url, monkeypatch):
    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    return db_url


def test_keys_create_list_revoke(cli_db, capsys):
    assert main(["keys", "create", "--name", "shop"]) == 0
    out = capsys.readouterr().out
    key = re.search(r"(cw_\S+)", out).group(1)
    key_id = re.search(r"created key (\S+)", out).group(1)
    assert main(["keys", "list"]) == 0
    listing = capsys.readouterr().out
    assert key_id in listing and "shop" in listing and "active" in listing
    assert key not in listing  # the secret is never shown again
    assert main(["keys", "revoke", key_id]) == 0
    capsys.readouterr()
    main(["keys", "list"])
    assert "revoked" in capsys.readouterr().out


def test_revoke_unknown_key_fails(cli_db, capsys):
    assert main(["keys", "revoke", "3f1c1d4e-4a2b-4c3d-8e9f-0a1b2c3d4e5f"]) == 1
    assert main(["keys", "revoke", "nope"]) == 2


def test_db_upgrade_and_current(cli_db, capsys):
    from alembic.script import ScriptDirectory

    from store.migrations import alembic_config

    head = ScriptDirectory.from_config(alembic_config(cli_db)).get_current_head()
    assert main(["db", "upgrade"]) == 0
    assert main(["db", "current"]) == 0
    assert head in capsys.readouterr().out


def test_import_grades_is_idempotent(cli_db, capsys):
    assert main(["import", "grades", "--quiet"]) == 0
    first = capsys.readouterr().out
    assert main(["import", "grades", "--quiet"]) == 0
    assert capsys.readouterr().out == first


def test_unknown_importer(cli_db, capsys):
    assert main(["import", "nothing-like-this"]) == 2
