"""Property-based fuzzing of every operation in /openapi.json (schemathesis), on a bounded budget.

Valid and invalid inputs are generated from the document itself, so routes merged later are
covered without touching this file. For every case: no 5xx, JSON errors are exactly
``{error, code}``, and responses with a documented status match the documented schema.
Budget: ``CARDWISE_FUZZ_EXAMPLES`` examples per operation (default 12); generation is
deterministic unless ``CARDWISE_FUZZ_RANDOM=1``.
"""

from __future__ import annotations

import os

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance

from api.app import route_table
from api.openapi import build_openapi
from tools.errors import STATUS_BY_CODE

EXAMPLES = int(os.environ.get("CARDWISE_FUZZ_EXAMPLES", "12"))

schema = schemathesis.openapi.from_dict(build_openapi(route_table()))
schema.config.generation.update(max_examples=EXAMPLES, deterministic=os.environ.get("CARDWISE_FUZZ_RANDOM") != "1",
                                database="none", allow_x00=True)


@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=EXAMPLES)
def test_every_operation_survives_fuzzing(case, live_server):
    response = case.call(base_url=live_server.base_url, headers={"X-API-Key": live_server.key}, timeout=30)
    checks = [not_a_server_error]
    documented = case.operation.definition.raw.get("responses", {})
    if str(response.status_code) in documented:
        checks.append(response_schema_conformance)
    case.validate_response(response, checks=checks)
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body, dict) and set(body) == {"error", "code"}, body
        assert body["code"] in STATUS_BY_CODE and body["error"], body
