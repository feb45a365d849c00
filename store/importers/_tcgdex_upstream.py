"""The tcgdex/cards-database repository itself (its TypeScript sources) read as the records of its JSON export.

Layout: ``data/<Serie>.ts`` (a series), ``data/<Serie>/<Set>.ts`` (a set, ``serie: <import>``),
``data/<Serie>/<Set>/<localId>.ts`` (a card, ``set: <import>``). Each file is one object literal,
read by ``_tsliteral`` (never executed). ``sets(root)`` and ``cards(root)`` yield what
``sets.json`` and ``cards.json`` hold: a set gets ``serie`` (its series folder) and ``_file``
(``<Serie>/<Set>.ts``); a card gets ``serieDir``, ``set`` (its set folder) and ``localId`` (its
file name), in the export's order (series, set, then local id as text). The cards of the digital
series are passed on unread (``serieDir`` only): the importer leaves them out.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from store.importers._tsliteral import Ref, module_value

# (file, row, record or the error that kept it from being read)
Item = tuple[Path, int | None, "dict[str, Any] | Exception"]


def holds(folder: Path) -> bool:
    """Whether ``folder`` is a checkout (or extracted archive) of tcgdex/cards-database."""
    data = folder / "data"
    return data.is_dir() and any(data.glob("*.ts")) and any(p.is_dir() for p in data.iterdir())


def nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def _read(path: Path) -> dict[str, Any]:
    value = module_value(path.read_text(encoding="utf-8"))
    if not isinstance(value, dict):
        raise ValueError("the module's value is not an object")
    return value


def _plain(value: Any) -> Any:
    """References (``set: Set``) left out, the rest as JSON would have it."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if not isinstance(v, Ref)}
    if isinstance(value, list):
        return [_plain(v) for v in value if not isinstance(v, Ref)]
    return value


def _series_dirs(root: Path) -> list[Path]:
    return sorted((p for p in (root / "data").iterdir() if p.is_dir()), key=lambda p: nfc(p.name))


def sets(root: Path) -> Iterator[Item]:
    for serie in _series_dirs(root):
        for path in sorted(serie.glob("*.ts"), key=lambda p: nfc(p.name)):
            try:
                record = _plain(_read(path))
                record["serie"] = nfc(serie.name)
                record["_file"] = f"{nfc(serie.name)}/{nfc(path.name)}"
                yield path, None, record
            except (ValueError, OSError, UnicodeDecodeError) as exc:
                yield path, None, exc


def cards(root: Path, skip_series: set[str]) -> Iterator[Item]:
    for serie in _series_dirs(root):
        serie_name = nfc(serie.name)
        for folder in sorted((p for p in serie.iterdir() if p.is_dir()), key=lambda p: nfc(p.name)):
            for path in sorted(folder.glob("*.ts"), key=lambda p: nfc(p.stem)):
                base = {"serieDir": serie_name, "set": nfc(folder.name), "localId": nfc(path.stem)}
                if serie_name in skip_series:
                    yield path, None, base
                    continue
                try:
                    yield path, None, {**_plain(_read(path)), **base}
                except (ValueError, OSError, UnicodeDecodeError) as exc:
                    yield path, None, exc
