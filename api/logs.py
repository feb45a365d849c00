"""Structured logging: one JSON object per line (or a text line with key=value fields), configured once
at start. rapidocr's own coloured console handler is bypassed: its records go to ``cardwise.vision.ocr``
at DEBUG (they are per-image chatter), so they appear only with CARDWISE_LOG_LEVEL=DEBUG."""

from __future__ import annotations

import json
import logging
import sys
import time
from datetime import datetime, timezone
from json.encoder import encode_basestring_ascii
from typing import Any, TextIO

_STD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}
THIRD_PARTY = ("RapidOCR",)
_encoder = json.JSONEncoder(default=str)  # json.dumps with an option builds an encoder per call
c_make_encoder = getattr(json.encoder, "c_make_encoder", None)  # the C encoder (not in the stubs)


def _to_json(value: Any) -> str:
    """``_encoder.encode(value)``: the same C encoder, called without the two Python layers around it (a
    fresh one per call, as ``encode`` makes: its circular-reference marks are per call)."""
    if c_make_encoder is None:  # an interpreter without the C accelerator
        return _encoder.encode(value)
    return "".join(c_make_encoder({}, str, encode_basestring_ascii, None, ": ", ", ", False, False, True)(value, 0))


def _fields(record: logging.LogRecord) -> dict[str, object]:
    return {k: v for k, v in vars(record).items() if k not in _STD and k[:1] != "_"}


class JsonFormatter(logging.Formatter):
    _second: tuple[int, str] = (-1, "")  # the last whole second written, as ISO text up to its fraction

    def stamp(self, created: float) -> str:
        """``created`` (epoch seconds) as the line's ``ts``: ISO 8601 in UTC, to the millisecond."""
        whole = int(created)
        if whole != self._second[0]:  # one datetime per second, not per record (the access log writes many)
            self._second = (whole, datetime.fromtimestamp(whole, timezone.utc).isoformat()[:19])
        ms = min(round((created - whole) * 1e6) // 1000, 999)  # as isoformat: microseconds, cut to ms
        return f"{self._second[1]}.{ms:03d}+00:00"

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "ts": self.stamp(record.created),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for k, v in vars(record).items():  # ``_fields``, straight into the line's dict
            if k not in _STD and k[:1] != "_":
                out[k] = v
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return _to_json(out)


def info_line(logger: logging.Logger, msg: str, fields: dict[str, Any]) -> bool:
    """Write ``logger.info(msg, extra=fields)``'s JSON line straight to the one handler it would reach, when that
    is the handler ``configure`` installs (a ``StreamHandler`` with the ``JsonFormatter``, no filters on the way):
    the same line without a ``LogRecord``, the logger's walk and the formatter (a third of the access record's
    cost). False, having written nothing, when the record must go the usual way (other or more handlers, a
    filter, text lines, INFO off: tests' ``caplog``, a library's configuration)."""
    handler = None
    node: logging.Logger | None = logger
    while node is not None:
        if node.filters:
            return False
        if node.handlers:
            if handler is not None or len(node.handlers) != 1:
                return False
            handler = node.handlers[0]
        node = node.parent if node.propagate else None
    if (type(handler) is not logging.StreamHandler or type(handler.formatter) is not JsonFormatter
            or handler.filters or handler.level > logging.INFO or logger.disabled
            or not logger.isEnabledFor(logging.INFO)):
        return False
    out: dict[str, object] = {"ts": handler.formatter.stamp(time.time()), "level": "INFO", "logger": logger.name,
                              "msg": msg}
    out.update(fields)
    line = _to_json(out) + handler.terminator
    handler.acquire()  # as ``Handler.handle`` holds it around ``emit``
    try:
        handler.stream.write(line)
        handler.flush()
    except RecursionError:
        raise
    except Exception:  # noqa: BLE001 - as ``StreamHandler.emit``: reported on stderr, the request goes on
        handler.handleError(logger.makeRecord(logger.name, logging.INFO, "", 0, msg, (), None, extra=fields))
    finally:
        handler.release()
    return True


class TextFormatter(logging.Formatter):
    """``2026-11-25 20:00:00,123 INFO cardwise.api request method=GET route=/v1/... status=200 duration_ms=3.1``"""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extra = " ".join(f"{k}={v}" for k, v in _fields(record).items() if v is not None)
        return f"{line} {extra}" if extra else line


class _Forward(logging.Filter):
    """On a third-party logger: re-log each record to ``target`` at DEBUG and stop its own handlers."""

    def __init__(self, target: str) -> None:
        super().__init__()
        self.target = logging.getLogger(target)

    def filter(self, record: logging.LogRecord) -> bool:
        if self.target.isEnabledFor(logging.DEBUG):
            self.target.debug(record.getMessage(), extra={"source": record.name, "source_level": record.levelname})
        return False


def configure(level: str = "INFO", fmt: str = "json", stream: TextIO | None = None) -> None:
    # the formatters write none of a record's source line, thread or process: not looking them up (a stack
    # walk and two calls per record) saves a third of an access-log record's cost
    logging._srcfile = None  # documented in the logging HOWTO's "Optimization"
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    for name in THIRD_PARTY:
        noisy = logging.getLogger(name)
        noisy.filters[:] = [f for f in noisy.filters if not isinstance(f, _Forward)] + [_Forward("cardwise.vision.ocr")]
