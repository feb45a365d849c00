"""Importer sources given as a URL: the same public data, downloaded to a temporary folder first.

``async with fetched(source, holds=...) as path`` yields ``Path(source)`` for a local folder or file,
and the extracted folder that ``holds`` accepts for a local archive. For an ``https://`` URL
(``http://`` works too, for a server of one's own) it streams the download with a progress bar
(tqdm, silent when stderr is not a terminal) and yields:

- for an archive (``.zip``, ``.tar.gz``, ``.tgz``, ``.tar``, e.g. a GitHub repository archive):
  the extracted folder that ``holds`` accepts, the shallowest one first;
- for a file (``.json``, ``.csv``): the downloaded file;
- for a folder URL (ending in ``/``): the files named in ``files`` fetched beside each other, or,
  without names, every ``.csv`` / ``.json`` its index page links to.

``keep`` (a member name -> bool) limits what is extracted from an archive (a repository archive
holds more than an importer reads). The temporary folder is removed when the block ends.
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


def _extract(archive: Path, into: Path, keep: Callable[[str], bool] | None = None) -> None:
    """Unpack (the members ``keep`` accepts) without letting a member land outside ``into``; a progress
    bar counts the files on a terminal."""
    with tqdm(unit=" files", desc=f"unpack {archive.name}", leave=False, disable=not sys.stderr.isatty()) as bar:
        if archive.name.lower().endswith(".zip"):
            with zipfile.ZipFile(archive) as z:
                names = z.namelist()
                for name in names:
                    if name.startswith("/") or ".." in Path(name).parts:
                        raise ValueError(f"unsafe path in archive: {name}")
                for name in names:
                    if keep is None or keep(name):
                        z.extract(name, into)
                        bar.update()
            return
        with tarfile.open(archive, "r|*") as t:  # read once, front to back
            for member in t:
                if keep is None or keep(member.name):
                    t.extract(member, into, filter="data")
                    bar.update()


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


def is_archive(name: str) -> bool:
    return name.lower().endswith(ARCHIVES)


def unpack(archive: Path, work: Path, *, holds: Callable[[Path], bool] | None = None,
           keep: Callable[[str], bool] | None = None) -> Path:
    """Extract a local archive under ``work``; the folder in it that ``holds`` accepts."""
    _extract(archive, work / "x", keep)
    return _found(work / "x", holds or (lambda p: True))


def fetch(url: str, work: Path, *, files: Sequence[str] = (), holds: Callable[[Path], bool] | None = None,
          keep: Callable[[str], bool] | None = None) -> Path:
    """Download ``url`` into ``work`` and return the local path the importer reads (see the module doc)."""
    path = urllib.parse.urlparse(url).path.lower()
    if is_archive(path):
        return unpack(download(url, work / _name(url)), work, holds=holds, keep=keep)
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
async def fetched(source: str, *, files: Sequence[str] = (), holds: Callable[[Path], bool] | None = None,
                  keep: Callable[[str], bool] | None = None) -> AsyncIterator[Path]:
    """``Path(source)``, or the extracted or downloaded copy of an archive or URL (removed afterwards)."""
    local = not is_url(source)
    if local and not (Path(source).is_file() and is_archive(source)):
        yield Path(source)
        return
    work = Path(tempfile.mkdtemp(prefix="cardwise-import-"))
    try:
        if local:
            yield await asyncio.to_thread(unpack, Path(source), work, holds=holds, keep=keep)
        else:
            yield await asyncio.to_thread(fetch, source, work, files=files, holds=holds, keep=keep)
    finally:
        shutil.rmtree(work, ignore_errors=True)
