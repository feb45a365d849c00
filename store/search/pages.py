"""Each card's entry on a page of search results, written as JSON when the index is built.

A ranked page is then spliced from stored bytes: ``pages.bin`` holds each card's entry up to its
parallels (``{"id":...,"isParallelOnly":false``) and each set's parallels once (``,"parallels":[...]``);
``pages.idx`` holds six offsets per card (``ord``, a fast field of its document): its entry, its
parallels (its set's, or its own when partial parallels list it) and what only the title matcher reads
(``EXTRA``; usually nothing). After the cards come the labels of the distinct names (autocomplete's answers),
so that they too are read without a stored document. The keys, their order and the values are those of the
published card (``CardOut``, camelCase, no nulls); ``Pages.card`` reads them back as the build's fields."""

from __future__ import annotations

import json
import mmap
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO

from pydantic_core import to_json

from store.money import cents_to_money, money_to_cents

PAGES, PAGES_INDEX = "pages.bin", "pages.idx"
EXTRA = ("partials", "numbered_to", "stand_in")  # a card's fields that its page entry does not show
SPANS = 3  # (start, end) pairs per entry: the card's entry, its parallels, its extra fields
# as pydantic writes a model's JSON (compact, UTF-8): its own encoder, 5x json's for the build's 170k entries
_write = to_json


def entry(card: dict[str, Any]) -> bytes:
    """A card's entry without its parallels and closing brace (``card``: the stored page fields)."""
    item = {"id": card["id"], "releaseId": card["release_id"], "setId": card["set_id"], "name": card["name"],
            "setName": card["set_name"]}
    for key, out in _OPTIONAL:
        value = card.get(key)
        if value is not None:
            item[out] = value
    if card.get("attributes"):
        item["attributes"] = card["attributes"]
    if prices := card.get("prices"):
        item["prices"] = {k: cents_to_money(c) for k, c in sorted(prices.items())}
    if (variation_of := card.get("variation_of")) is not None:
        item["variationOf"] = variation_of
    if fields := card.get("fields"):
        item["fields"] = [{"key": k, "value": v} for k, v in fields]
    item["isParallelOnly"] = False
    return _write(item)[:-1]


_OPTIONAL = (("number", "number"), ("description", "description"), ("release_name", "releaseName"),
             ("release_year", "releaseYear"))


def parallels(shown: Sequence[tuple[str, str, int | None]]) -> bytes:
    """``,"parallels":[...]`` for (id, name, numbered_to) in page order; nothing when there are none."""
    if not shown:
        return b""
    return b',"parallels":' + _write([{"id": i, "name": n, **({"numberedTo": t} if t is not None else {})}
                                       for i, n, t in shown])


class PagesWriter:
    """Writes the entries in card order (``add`` returns the card's ``ord``) and the shared parallels."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._out: BinaryIO = open(folder / PAGES, "wb")  # noqa: SIM115 - closed by ``close``
        self._at = 0
        self._offsets = array("Q")
        self._shared: dict[Any, tuple[int, int]] = {}

    def _put(self, data: bytes) -> tuple[int, int]:
        start = self._at
        self._out.write(data)
        self._at += len(data)
        return start, self._at

    def has(self, shared_key: Any) -> bool:
        """Whether the parallels of ``shared_key`` are written already (``add`` then needs none)."""
        return shared_key is not None and shared_key in self._shared

    def add(self, card: dict[str, Any], shown: Sequence[tuple[str, str, int | None]], shared_key: Any) -> int:
        """``shown``: the card's parallels; ``shared_key``: what cards with the same parallels share (their
        set), None when they are the card's own."""
        span = self._shared.get(shared_key) if shared_key is not None else None
        entry_span = self._put(entry(card))
        if span is None:
            span = self._put(parallels(shown))
            if shared_key is not None:
                self._shared[shared_key] = span
        extra = {k: card[k] for k in EXTRA if card.get(k) is not None}
        extra_span = self._put(_write(extra)) if extra else (0, 0)
        self._offsets.extend((*entry_span, *span, *extra_span))
        return len(self._offsets) // (2 * SPANS) - 1

    def add_label(self, label: str) -> int:
        """A distinct name's label (what autocomplete answers), after the cards; returns its ``ord``."""
        self._offsets.extend((*self._put(label.encode()), 0, 0, 0, 0))
        return len(self._offsets) // (2 * SPANS) - 1

    def close(self) -> None:
        self._out.close()
        (self.folder / PAGES_INDEX).write_bytes(self._offsets.tobytes())


class Pages:
    """The entries of one built index, mapped read-only (shared by the processes of a node)."""

    def __init__(self, folder: Path) -> None:
        self._maps = []
        views = []
        for name in (PAGES, PAGES_INDEX):
            with open(folder / name, "rb") as f:
                m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if (folder / name).stat().st_size else None
            self._maps.append(m)
            views.append(memoryview(m) if m is not None else memoryview(b""))
        self._bytes, self._index = views[0], views[1].cast("Q")

    def item(self, ord_: int) -> bytes:
        """The card's whole entry, parallels included."""
        e0, e1, p0, p1 = self._index[2 * SPANS * ord_: 2 * SPANS * ord_ + 4]
        return b"".join((self._bytes[e0:e1], self._bytes[p0:p1], b"}"))

    def label(self, ord_: int) -> str:
        """A distinct name's label."""
        return str(self._bytes[self._index[2 * SPANS * ord_]:self._index[2 * SPANS * ord_ + 1]], "utf-8")

    def head(self, ord_: int) -> tuple[str, str]:
        """The card's id and name."""
        e0, e1 = self._index[2 * SPANS * ord_: 2 * SPANS * ord_ + 2]
        item = json.loads(bytes(self._bytes[e0:e1]) + b"}")
        return item["id"], item["name"]

    def card(self, ord_: int) -> dict[str, Any]:
        """The card's fields as the build had them (``entry``'s input: prices in cents, fields as pairs),
        read back from its entry and extra fields."""
        e0, e1, _, _, x0, x1 = self._index[2 * SPANS * ord_: 2 * SPANS * (ord_ + 1)]
        item = json.loads(bytes(self._bytes[e0:e1]) + b"}")
        out = {"id": item["id"], "release_id": item["releaseId"], "set_id": item["setId"], "name": item["name"],
               "set_name": item["setName"]}
        for key, camel in _OPTIONAL:
            if camel in item:
                out[key] = item[camel]
        if "attributes" in item:
            out["attributes"] = item["attributes"]
        if "variationOf" in item:
            out["variation_of"] = item["variationOf"]
        if "fields" in item:
            out["fields"] = [[f["key"], f["value"]] for f in item["fields"]]
        if "prices" in item:
            out["prices"] = {k: money_to_cents(v) for k, v in item["prices"].items()}
        if x1 > x0:
            out.update(json.loads(bytes(self._bytes[x0:x1])))
        return out
