"""Importer sources given as a URL: the same public data, downloaded to a temporary folder first.

``async with fetched(source, holds=...) as path`` yields ``Path(source)`` for a local path. For an
``https://`` URL (``http://`` works too, for a server of one's own) it streams the download with a
progress bar (tqdm, silent when stderr is not a terminal) and yields:

- for an archive (``.zip``, ``.tar.gz``, ``.tgz``, ``.tar``, e.g. a GitHub repository archive):
  the extracted folder that ``holds`` accepts, the shallowest one first;
- for a file (``.json``, ``.csv``): the downloaded file;
- for a folder URL (ending in ``/``): the files named in ``files`` fetched beside each other, or,
  without names, every ``.csv`` / ``.json`` its index page links to.

The temporary folder is removed when the block ends.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from tqdm import tqdm

ARCHIVES = (".zip", ".tar.gz", ".tgz", ".tar")
FILES = (".json", ".csv")
TIMEOUT_S = 60
CHUNK = 1 << 16


def is_url(source: str | None) -> bool:
    return bool(source) and str(source).lower().startswith(("https://", "http://"))


def download(url: str, dest: Path) -> Path:
    """Stream ``url`` into ``dest`` with a progress bar; a failed request raises OSError with the URL."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as resp, dest.open("wb") as out:  # noqa: S310
            total = int(resp.headers.get("Content-Length") or 0) or None
            with tqdm(total=total, unit="B", unit_scale=True, desc=f"download {dest.name}", leave=False,
                      disable=not sys.stderr.isatty()) as bar:
                while chunk := resp.read(CHUNK):
                    out.write(chunk)
                    bar.update(len(chunk))
    except urllib.error.HTTPError as exc:
        exc.close()  # its response holds the connection
        raise OSError(f"could not download {url}: HTTP {exc.code} {exc.reason}") from None
    except OSError as exc:  # URLError is one
        raise OSError(f"could not download {url}: {exc}") from exc
    return dest


def _extract(archive: Path, into: Path) -> None:
    """Unpack without letting a member land outside ``into``."""
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            for name in z.namelist():
                if name.startswith("/") or ".." in Path(name).parts:
                    raise ValueError(f"unsafe path in archive: {name}")
            z.extractall(into)
        return
    with tarfile.open(archive) as t:
        t.extractall(into, filter="data")


def _found(root: Path, holds: Callable[[Path], bool]) -> Path:
    for folder in sorted((p for p in [root, *root.rglob("*")] if p.is_dir()), key=lambda p: len(p.parts)):
        if holds(folder):
            return folder
    raise ValueError("the archive holds none of the files this importer reads")


def _links(url: str, html: str) -> list[str]:
    """The .csv / .json files an index page links to, as absolute URLs."""
    hrefs = re.findall(r'href="([^"?#]+)"', html)
    return sorted({urllib.parse.urljoin(url, h) for h in hrefs if h.lower().endswith(FILES)})


def _name(url: str) -> str:
    return urllib.parse.unquote(Path(urllib.parse.urlparse(url).path).name) or "download"


def fetch(url: str, work: Path, *, files: Sequence[str] = (), holds: Callable[[Path], bool] | None = None) -> Path:
    """Download ``url`` into ``work`` and return the local path the importer reads (see the module doc)."""
    path = urllib.parse.urlparse(url).path.lower()
    if path.endswith(ARCHIVES):
        archive = download(url, work / _name(url))
        _extract(archive, work / "x")
        return _found(work / "x", holds or (lambda p: True))
    if path.endswith(FILES):  # kept under its last folders (JunkWax reads the sport and year from them)
        parts = [urllib.parse.unquote(p) for p in urllib.parse.urlparse(url).path.split("/") if p][-3:]
        dest = work.joinpath("file", *parts)
        dest.parent.mkdir(parents=True)
        return download(url, dest)
    base = url if url.endswith("/") else url + "/"
    folder = work / "files"
    folder.mkdir()
    if files:
        for name in files:
            download(urllib.parse.urljoin(base, urllib.parse.quote(name)), folder / name)
        return folder
    index = download(base, work / "index.html").read_text(errors="replace")
    links = _links(base, index)
    if not links:
        raise ValueError(f"{url} lists no .csv or .json files")
    for link in links:
        download(link, folder / _name(link))
    return folder


@asynccontextmanager
async def fetched(source: str, *, files: Sequence[str] = (),
                  holds: Callable[[Path], bool] | None = None) -> AsyncIterator[Path]:
    """``Path(source)``, or the downloaded copy of a URL (removed afterwards)."""
    if not is_url(source):
        yield Path(source)
        return
    work = Path(tempfile.mkdtemp(prefix="cardwise-import-"))
    try:
        yield await asyncio.to_thread(fetch, source, work, files=files, holds=holds)
    finally:
        shutil.rmtree(work, ignore_errors=True)
