"""Stream the items of a top-level JSON array without loading the whole file (bounded memory)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_SKIP = re.compile(r"[ \t\r\n,]*")


def iter_array(path: Path, *, chunk_size: int = 1 << 20) -> Iterator[tuple[int, Any]]:
    """Yield ``(index, item)`` for each element of the JSON array in ``path``.

    An element that does not parse raises ``ValueError`` naming its index and byte offset.
    Items are decoded in place (a position into the buffer): cutting each parsed item off the
    front copied the rest of the buffer per item and took most of a TCGdex import.
    """
    dec = json.JSONDecoder()
    buf = ""
    pos = 0  # the next character to read in buf
    base = 0  # the file offset of buf[0]
    index = 0
    started = False
    with path.open(encoding="utf-8") as fh:
        eof = False

        def refill() -> None:
            nonlocal buf, pos, base, eof
            more = fh.read(chunk_size)
            eof = not more
            buf, base, pos = buf[pos:] + more, base + pos, 0

        while True:
            if not eof and len(buf) - pos < chunk_size:
                refill()
            pos = _SKIP.match(buf, pos).end()  # type: ignore[union-attr]
            if not started:
                if pos >= len(buf):
                    if eof:
                        return
                    continue
                if buf[pos] != "[":
                    raise ValueError(f"{path}: not a JSON array")
                pos += 1
                started = True
                continue
            if buf.startswith("]", pos):
                return
            if pos >= len(buf) and eof:
                raise ValueError(f"{path}: unexpected end of file after item {index}")
            try:
                item, end = dec.raw_decode(buf, pos)
            except json.JSONDecodeError as exc:
                if not eof:
                    refill()
                    continue
                raise ValueError(f"{path}: item {index} at byte {base + pos} does not parse: {exc.msg}") from None
            if end >= len(buf) and not eof:  # a number or literal may go on in the next chunk
                refill()
                continue
            yield index, item
            index += 1
            pos = end
