"""Importers take an https:// URL of the same public data as well as a path: here a local HTTP server
serves the real files of ../shared/data (and archives made of them), as GitHub would."""

from __future__ import annotations

import http.server
import json
import tarfile
import threading
import zipfile
from functools import partial

import pytest

from cli.main import main
from store.importers import junkwax, psa_sales, tcgdex
from store.importers._fetch import fetch
from tests.conftest import shared_data
from tests.realdata import tcgdex_subset

CHROME = ("junkwax", "categories", "baseball", "2024", "2024-Topps-Chrome.json")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the test output stays readable
        pass


@pytest.fixture
def served(tmp_path):
    """(base URL, folder it serves): ``data/`` there is ../shared/data."""
    root = tmp_path / "www"
    root.mkdir()
    (root / "data").symlink_to(shared_data(), target_is_directory=True)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", root
    server.shutdown()
    server.server_close()
    thread.join()


async def test_tcgdex_and_psa_sales_from_urls_match_the_local_import(sessions, served, tmp_path):
    base, root = served
    subset = tcgdex_subset(tmp_path / "tcgdex")
    with tarfile.open(root / "cards-database.tar.gz", "w:gz") as t:  # a repository archive: one top folder
        t.add(subset, arcname="cards-database-master/data")
    counts = await tcgdex.run(sessions, f"{base}/cards-database.tar.gz")
    assert counts["cards"] == 215 and counts["bad_records"] == 0
    again = await tcgdex.run(sessions, str(subset))
    assert {k: again[k] for k in ("releases", "sets", "cards")} == {k: counts[k] for k in ("releases", "sets", "cards")}

    sales = await psa_sales.run(sessions, f"{base}/data/psa-sales/")  # a folder URL: its index lists the CSVs
    local = await psa_sales.run(sessions, str(shared_data("psa-sales")))
    assert sales["files"] == 26 and sales["matched_files"] == 25
    assert sales["records"] == local["records"] == 2285
    one = await psa_sales.run(sessions, f"{base}/data/psa-sales/1999-pokemon-game-charizard-holo.csv")
    assert one["files"] == 1 and one["matched_files"] == 1


async def test_junkwax_from_a_release_file_url_and_a_repository_archive(sessions, served):
    base, root = served
    by_url = await junkwax.run(sessions, f"{base}/data/{'/'.join(CHROME)}")
    by_path = await junkwax.run(sessions, str(shared_data(*CHROME)))
    assert by_url == by_path and by_url["cards"] > 0
    with zipfile.ZipFile(root / "CardLists-main.zip", "w") as z:
        for f in shared_data("junkwax", "categories", "basketball").rglob("*.json"):
            z.write(f, "CardLists-main/categories/basketball/" + str(f.relative_to(f.parents[1])))
    counts = await junkwax.run(sessions, f"{base}/CardLists-main.zip")
    assert counts["releases"] == 1 and counts["cards"] > 100 and counts["skipped"] == []


def test_fetch_says_what_failed(served, tmp_path):
    base, _ = served
    with pytest.raises(OSError, match="could not download .*/nope.tar.gz"):
        fetch(f"{base}/nope.tar.gz", tmp_path)
    with pytest.raises(ValueError, match="lists no .csv"):
        (tmp_path / "w").mkdir()
        fetch(f"{base}/data/junkwax/", tmp_path / "w")


def test_cli_import_from_a_url_is_quiet_off_a_terminal(db_url, served, monkeypatch, capsys):
    base, _ = served
    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    assert main(["import", "junkwax", f"{base}/data/{'/'.join(CHROME)}"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out.strip().splitlines()[-1])["cards"] > 0 and "download" not in out.err
    assert main(["import", "psa-sales", f"{base}/missing/"]) == 2
    assert "could not download" in capsys.readouterr().err


def test_zip_members_may_not_leave_the_folder(tmp_path):
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("../escape.json", "{}")
    from store.importers._fetch import _extract

    with pytest.raises(ValueError, match="unsafe path"):
        _extract(bad, tmp_path / "x")
    assert not (tmp_path / "escape.json").exists()


async def test_tcgdex_from_the_repository_archive_url(sessions, served):
    from tests.catalog.test_tcgdex_upstream import _archive, _real_files

    base, root = served
    _archive(root / "master.tar.gz", _real_files())
    counts = await tcgdex.run(sessions, f"{base}/master.tar.gz")
    assert (counts["cards"], counts["skipped_digital"], counts["bad_records"]) == (3, 1, 0)
