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


ACCESS = {"request_id": "r-1", "method": "GET", "route": "/v1/catalog/cards/{id}", "path": "/v1/catalog/cards/\u00e9\"x",
          "status": 200, "duration_ms": 1.25, "key_id": None}


def test_an_access_line_written_straight_is_the_line_the_record_gives(captured, monkeypatch):
    import time

    logs.configure("INFO", "json", captured)
    monkeypatch.setattr(time, "time", lambda: 1765137600.0423)  # the record's clock and the line's
    log = logging.getLogger("cardwise.api")
    assert logs.info_line(log, "request", ACCESS)
    log.info("request", extra=ACCESS)
    straight, through_a_record = captured.getvalue().splitlines()
    assert straight == through_a_record
    assert json.loads(straight) == {"ts": "2025-12-07T20:00:00.042+00:00", "level": "INFO", "logger": "cardwise.api",
                                    "msg": "request", **ACCESS}


def test_an_access_line_goes_the_usual_way_past_another_handler_a_filter_or_text(captured):
    log = logging.getLogger("cardwise.api")
    logs.configure("INFO", "text", captured)
    assert not logs.info_line(log, "request", ACCESS)
    logs.configure("INFO", "json", captured)
    extra = logging.StreamHandler(io.StringIO())
    logging.getLogger().addHandler(extra)  # a test's caplog, a library's handler: they see the record
    assert not logs.info_line(log, "request", ACCESS)
    logging.getLogger().removeHandler(extra)
    log.addFilter(lambda record: True)
    try:
        assert not logs.info_line(log, "request", ACCESS)
    finally:
        log.filters.clear()
    logs.configure("WARNING", "json", captured)
    assert not logs.info_line(log, "request", ACCESS)
    assert captured.getvalue() == ""


async def test_a_served_request_writes_one_json_access_line(captured, client, auth):
    logs.configure("INFO", "json", captured)
    resp = await client.get("/v1/grades/companies", headers={**auth, "X-Request-Id": "trace-7"})
    assert resp.status == 200
    lines = [json.loads(x) for x in captured.getvalue().splitlines()]
    access = [x for x in lines if x["msg"] == "request"]
    assert len(access) == 1
    assert list(access[0]) == ["ts", "level", "logger", "msg", "request_id", "method", "route", "path", "status",
                               "duration_ms", "key_id"]
    assert access[0]["request_id"] == "trace-7" and access[0]["status"] == 200 and access[0]["key_id"]
