"""Stream the items of a top-level JSON array without loading the whole file (bounded memory)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_WS = " \t\r\n,"


def iter_array(path: Path, *, chunk_size: int = 1 << 20) -> Iterator[tuple[int, Any]]:
    """Yield ``(index, item)`` for each element of the JSON array in ``path``.

    An element that does not parse raises ``ValueError`` naming its index and byte offset.
    """
    dec = json.JSONDecoder()
    buf = ""
    offset = 0
    index = 0
    started = False
    with path.open(encoding="utf-8") as fh:
        eof = False
        while True:
            if not eof and len(buf) < chunk_size:
                more = fh.read(chunk_size)
                eof = not more
                buf += more
            i = 0
            while i < len(buf) and buf[i] in _WS:
                i += 1
            buf = buf[i:]
            offset += i
            if not started:
                if not buf:
                    if eof:
                        return
                    continue
                if buf[0] != "[":
                    raise ValueError(f"{path}: not a JSON array")
                buf = buf[1:]
                offset += 1
                started = True
                continue
            if buf.startswith("]"):
                return
            if not buf and eof:
                raise ValueError(f"{path}: unexpected end of file after item {index}")
            try:
                item, end = dec.raw_decode(buf)
            except json.JSONDecodeError as exc:
                if not eof:
                    more = fh.read(chunk_size)
                    eof = not more
                    buf += more
                    continue
                raise ValueError(f"{path}: item {index} at byte {offset} does not parse: {exc.msg}") from None
            yield index, item
            index += 1
            buf = buf[end:]
            offset += end
