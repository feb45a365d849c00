"""One declaration, two servings: the registry's strict schemas and ``invoke`` match REST behaviour."""

from __future__ import annotations

import json

import pytest

from tools._registry import all_tools, invoke, openai_specs
from tools.errors import ServiceError


def _check_strict(node):
    if isinstance(node, dict):
        if node.get("type") == "object" or "properties" in node:
            assert node["additionalProperties"] is False
            assert set(node["required"]) == set(node.get("properties", {}))
        assert "default" not in node
        for v in node.values():
            _check_strict(v)
    elif isinstance(node, list):
        for v in node:
            _check_strict(v)


def test_every_agent_tool_has_a_strict_schema_and_description():
    specs = openai_specs()
    assert {s["function"]["name"] for s in specs} >= {"grades_companies", "grades_types", "grades_grades", "catalog_segments"}
    for spec in specs:
        fn = spec["function"]
        assert fn["strict"] is True and fn["description"]
        _check_strict(fn["parameters"])
        json.dumps(spec)  # serialisable as sent to the model


def test_tool_names_are_unique_and_routes_declared_once():
    tools = all_tools()
    assert len({t.name for t in tools}) == len(tools)
    routes = [(t.method, t.path) for t in tools if t.path]
    assert len(routes) == len(set(routes))


async def test_invoke_runs_the_same_function_as_rest(ctx, client, auth):
    via_agent = await invoke("grades_companies", "{}", ctx)
    via_rest = await (await client.get("/v1/grades/companies", headers=auth)).json()
    assert via_agent == via_rest


async def test_invoke_nulls_mean_defaults(ctx):
    page = await invoke("catalog_segments", json.dumps({"name": None, "is_identifiable": None, "take": None,
                                                       "skip": None, "sort": None, "order": None}), ctx)
    assert page["take"] == 20 and page["skip"] == 0


@pytest.mark.parametrize("args,code", [
    ('{"take": 0}', "VALIDATION_ERROR"),
    ('{"unknown": 1}', "VALIDATION_ERROR"),
    ("not json", "VALIDATION_ERROR"),
    ("[1, 2]", "VALIDATION_ERROR"),
])
async def test_invoke_rejects_bad_arguments_with_codes(ctx, args, code):
    with pytest.raises(ServiceError) as info:
        await invoke("catalog_segments", args, ctx)
    assert info.value.code == code


async def test_invoke_unknown_tool(ctx):
    with pytest.raises(ServiceError) as info:
        await invoke("no_such_tool", "{}", ctx)
    assert info.value.code == "NOT_FOUND"


def test_tools_that_change_stored_data_are_marked_writes():
    tools = {t.name: t for t in all_tools()}
    for name in ("collection_delete", "collection_card_update", "list_cards_add", "collector_create", "binder_delete"):
        assert tools[name].writes, name
    for name in ("catalog_cards", "pricing_bulk", "detect_card", "grades_companies"):
        assert not tools[name].writes, name
