"""Log lines: text lines carry the request's fields; rapidocr's console output goes to the structured log."""

from __future__ import annotations

import io
import json
import logging

import pytest

from api import logs


@pytest.fixture
def captured():
    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    yield stream
    root.handlers[:], _ = saved
    root.setLevel(saved[1])
    logging.getLogger("RapidOCR").filters.clear()


def test_a_text_line_carries_route_status_and_duration(captured):
    logs.configure("INFO", "text", captured)
    logging.getLogger("cardwise.api").info("request", extra={"method": "GET", "route": "/v1/catalog/cards",
                                                             "status": 200, "duration_ms": 3.25, "key_id": None})
    line = captured.getvalue().strip()
    assert line.endswith("INFO cardwise.api request method=GET route=/v1/catalog/cards status=200 duration_ms=3.25")


def test_rapidocr_warnings_leave_the_console_and_reach_the_debug_log(captured, capsys):
    from rapidocr.utils.log import logger as rapidocr_logger  # its own coloured console handler

    logs.configure("INFO", "json", captured)
    rapidocr_logger.warning("The text detection result is empty")
    assert captured.getvalue() == "" and capsys.readouterr().err == ""
    logs.configure("DEBUG", "json", captured)
    rapidocr_logger.warning("The text detection result is empty")
    record = json.loads(captured.getvalue().strip().splitlines()[-1])
    assert (record["logger"], record["level"], record["source"]) == ("cardwise.vision.ocr", "DEBUG", "RapidOCR")
    assert record["msg"] == "The text detection result is empty"
