"""The registry over the Model Context Protocol, driven by the ``mcp`` package's own client on both
transports: ``cardwise mcp`` on stdio (a subprocess) and ``POST /mcp`` on the running app."""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import date, timedelta
from pathlib import Path
from types import SimpleNamespace

import httpx2
import pytest
from jsonschema import Draft202012Validator
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from sqlalchemy import func, select

from store.models import Collector, PriceRecord
from store.queries import keys as key_queries
from tests.factories import seed_catalog
from tools._registry import agent_tools, invoke

ROOT = Path(__file__).resolve().parents[2]
CARDWISE = [sys.executable, "-m", "cli"]  # the `cardwise` command from this checkout

Connect = Callable[..., AbstractAsyncContextManager[Client]]


def read_tools() -> set[str]:
    return {t.name for t in agent_tools() if not t.writes}


@pytest.fixture
async def owned(ctx, sessions) -> SimpleNamespace:
    """The small catalog with three raw Ohtani sales, and a collection of the ``api_key`` caller
    holding two Ohtani cards."""
    priced = await seed_catalog(sessions)
    ohtani = priced.cards["ohtani"]
    async with sessions() as s, s.begin():
        s.add_all([PriceRecord(id=uuid.uuid4(), card_id=ohtani.id, title=f"Shohei Ohtani #1 sale {n}",
                               price_cents=dollars * 100, date=date.today() - timedelta(days=n),
                               listing_type="auction", source="eBay")
                   for n, dollars in ((1, 10), (20, 12), (200, 8))])
    collector = await invoke("collector_create", {"name": "Ana"}, ctx)
    coll = await invoke("collection_create", {"collectorId": collector["id"], "name": "Main"}, ctx)
    await invoke("collection_cards_add", {"collectionId": coll["id"],
                                          "items": [{"cardId": str(priced.cards["ohtani"].id), "quantity": 2}]}, ctx)
    return SimpleNamespace(cat=priced, collector=collector, collection=coll)


@pytest.fixture(params=["http", "stdio"])
def connect(request, aiohttp_client, make_settings, db_url, tmp_path) -> Connect:
    """``connect(key, allow_writes=False)``: an MCP client session as that API key over one transport."""
    if request.param == "http":
        @asynccontextmanager
        async def over_http(key: str, allow_writes: bool = False, mode: str = "auto") -> AsyncIterator[Client]:
            from api.app import create_app

            web = await aiohttp_client(create_app(make_settings(mcp_allow_writes=allow_writes)))
            url = str(web.server.make_url("/mcp"))
            async with (httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}) as http,
                        Client(streamable_http_client(url, http_client=http), mode=mode) as client):
                yield client

        return over_http

    @asynccontextmanager
    async def over_stdio(key: str, allow_writes: bool = False, mode: str = "auto",
                         **env: str) -> AsyncIterator[Client]:
        params = StdioServerParameters(
            command=CARDWISE[0], args=[*CARDWISE[1:], "mcp", *(["--allow-writes"] if allow_writes else [])],
            cwd=ROOT, env={"PYTHONPATH": str(ROOT), "CARDWISE_DATABASE_URL": db_url, "CARDWISE_API_KEY": key,
                           "CARDWISE_LOG_LEVEL": "WARNING", **env})
        with (tmp_path / "mcp-stderr.log").open("w+") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
                yield client

    return over_stdio


def body_of(result) -> dict:
    """A tool result's JSON (the ``{error, code}`` body when it is an error)."""
    assert len(result.content) == 1 and result.content[0].type == "text"
    return json.loads(result.content[0].text)


async def test_lists_every_read_tool_with_its_description_and_a_valid_schema(connect, api_key):
    async with connect(api_key[1]) as client:
        listed = (await client.list_tools()).tools
    assert {t.name for t in listed} == read_tools()
    registry = {t.name: t for t in agent_tools()}
    for t in listed:
        assert t.description == registry[t.name].description
        Draft202012Validator.check_schema(t.input_schema)
        assert t.input_schema["type"] == "object"
        if t.output_schema is not None:
            Draft202012Validator.check_schema(t.output_schema)
        assert t.annotations.read_only_hint is True
    search = next(t for t in listed if t.name == "catalog_search")
    assert search.input_schema["required"] == ["q"] and "take" in search.input_schema["properties"]


async def test_search_the_catalog_and_price_a_card(connect, api_key, owned):
    ohtani = str(owned.cat.cards["ohtani"].id)
    async with connect(api_key[1]) as client:
        found = await client.call_tool("catalog_search", {"q": "Shohei Ohtani", "type": "card"})
        assert not found.is_error, found.content
        assert ohtani in [r["id"] for r in found.structured_content["results"]]
        assert body_of(found) == found.structured_content
        price = await client.call_tool("pricing_card", {"card_id": ohtani, "period": "all"})
        assert not price.is_error, price.content
        assert price.structured_content["card"]["name"] == "Shohei Ohtani"
        assert price.structured_content["raw"]["count"] == 3
        bad = await client.call_tool("catalog_search", {"q": "x"})  # under the 2-character minimum
        assert bad.is_error and body_of(bad)["code"] == "VALIDATION_ERROR" and "q" in body_of(bad)["error"]


async def test_a_collection_is_found_with_its_key_only(connect, api_key, other_key, owned):
    cid = owned.collection["id"]
    async with connect(api_key[1]) as client:
        mine = await client.call_tool("collection_get", {"collectionId": cid})
        assert not mine.is_error and mine.structured_content["name"] == "Main"
        cards = await client.call_tool("collection_cards_list", {"collectionId": cid})
        assert [c["quantity"] for c in cards.structured_content["cards"]] == [2]
    async with connect(other_key[1]) as client:
        theirs = await client.call_tool("collection_get", {"collectionId": cid})
        assert theirs.is_error and body_of(theirs)["code"] == "NOT_FOUND"
        listed = await client.call_tool("collections_list", {})
        assert listed.structured_content["collections"] == []


async def test_resources_read_a_card_and_the_callers_collection_summaries(connect, api_key, other_key, owned):
    ohtani, cid = str(owned.cat.cards["ohtani"].id), owned.collection["id"]
    async with connect(api_key[1]) as client:
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
        assert templates == {"cardwise://cards/{id}", "cardwise://collections/{collectionId}"}
        mine = (await client.list_resources()).resources
        assert [(r.uri, r.name) for r in mine] == [(f"cardwise://collections/{cid}", "Main")]
        card = json.loads((await client.read_resource(f"cardwise://cards/{ohtani}")).contents[0].text)
        assert card["name"] == "Shohei Ohtani" and card["number"] == "1"
        summary = json.loads((await client.read_resource(mine[0].uri)).contents[0].text)
        assert summary["overview"]["totalQuantity"] == 2
    async with connect(other_key[1]) as client:
        assert (await client.list_resources()).resources == []
        with pytest.raises(MCPError) as err:
            await client.read_resource(f"cardwise://collections/{cid}")
        assert err.value.code == -32002 and err.value.data == {"error": err.value.message, "code": "NOT_FOUND"}


async def test_writes_are_refused_unless_allowed(connect, api_key, sessions):
    async def collectors() -> int:
        async with sessions() as s:
            return int(await s.scalar(select(func.count()).select_from(Collector)))

    async with connect(api_key[1]) as client:
        refused = await client.call_tool("collector_create", {"name": "Bo"})
        assert refused.is_error and body_of(refused)["code"] == "FORBIDDEN"
        assert "--allow-writes" in body_of(refused)["error"]
    assert await collectors() == 0
    async with connect(api_key[1], allow_writes=True) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert names == {t.name for t in agent_tools()} and "collection_delete" in names
        made = await client.call_tool("collector_create", {"name": "Bo"})
        assert not made.is_error and made.structured_content["name"] == "Bo"
    assert await collectors() == 1


async def test_the_2025_handshake_clients_use_today_works_too(connect, api_key, owned):
    async with connect(api_key[1], mode="legacy") as client:
        assert client.protocol_version.startswith("2025")
        assert {t.name for t in (await client.list_tools()).tools} == read_tools()
        got = await client.call_tool("collection_get", {"collectionId": owned.collection["id"]})
        assert got.structured_content["name"] == "Main"


# ---------------------------------------------------------------------------------------------- HTTP only
async def test_http_answers_what_rest_answers(client, auth, api_key, owned):
    ohtani = owned.cat.cards["ohtani"].id
    rest = await (await client.get(f"/v1/pricing/{ohtani}", headers=auth)).json()
    url = str(client.server.make_url("/mcp"))
    async with (httpx2.AsyncClient(headers={"X-API-Key": api_key[1]}) as http,
                Client(streamable_http_client(url, http_client=http)) as mcp):
        got = await mcp.call_tool("pricing_card", {"card_id": str(ohtani)})
    assert got.structured_content == rest


async def test_http_needs_a_key_takes_only_json_posts_and_refuses_clearly(client, auth):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}}
    accept = {"Accept": "application/json, text/event-stream"}
    resp = await client.post("/mcp", json=init, headers=accept)
    assert resp.status == 401 and (await resp.json())["code"] == "UNAUTHORIZED"
    resp = await client.post("/mcp", json=init, headers={**accept, "X-API-Key": "cw_not-a-real-key"})
    assert resp.status == 401
    resp = await client.get("/mcp", headers={**accept, **auth})
    assert resp.status == 405 and (await resp.json())["code"]
    resp = await client.post("/mcp", data=json.dumps(init), headers={**accept, **auth, "Content-Type": "text/plain"})
    assert resp.status == 400 and (await resp.json())["code"] == "VALIDATION_ERROR"
    resp = await client.post("/mcp", data=b"{not json", headers={**accept, **auth, "Content-Type": "application/json"})
    assert resp.status == 400 and (await resp.json())["error"]["code"] == -32700  # JSON-RPC parse error
    resp = await client.post("/mcp", json=init, headers={**accept, **auth})
    assert resp.status == 200 and resp.headers["X-Request-Id"]
    assert (await resp.json())["result"]["serverInfo"]["name"] == "cardwise"


HOSTILE = [
    b"{not json", b"", b"{}", b"[1, 2]", b"5", b'"text"', b"null", b'{"jsonrpc": "2.0", "id": 1, "method": "nope"}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "catalog_search", "arguments": [1]}}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "no_such_tool"}}',
    b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}',
    (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "catalog_search", '
     b'"arguments": {"q": "o\\u0000h"}}}'),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "collector_delete", '
     b'"arguments": {"collectorId": "00000000-0000-0000-0000-000000000000"}}}'),
    b'[{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, {"jsonrpc": "2.0", "id": 2, "method": "ping"}]',
    b'{"jsonrpc": "2.0", "id": 1, "method": "' + b"a" * 5000 + b'"}',
    b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ' + b'{"a": ' * 2000 + b"1" + b"}" * 2000 + b"}",
]


async def test_http_survives_what_a_hostile_client_sends(client, auth):
    headers = {**auth, "Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    for body in HOSTILE:
        resp = await client.post("/mcp", data=body, headers=headers)
        assert resp.status < 500, body[:80]
        if resp.status != 202:  # a notification's acknowledgement has no body
            answer = await resp.json()
            assert "error" in answer or "result" in answer or isinstance(answer, list), (body[:80], answer)
    for version in ("2026-07-28", "1999-01-01"):  # the per-request era, and a version nobody speaks
        resp = await client.post("/mcp", data=b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
                                 headers={**headers, "MCP-Protocol-Version": version})
        assert resp.status == 400 and (await resp.json())["error"]["code"] == -32602


# ---------------------------------------------------------------------------------------------- one registry
async def test_the_tool_list_and_the_rest_routes_come_from_one_registry(client, api_key):
    """Every MCP tool is a REST route of the running app (same tool, method and path), and every
    route of an agent tool is an MCP tool; the rest (uploads, images) are REST only."""
    url = str(client.server.make_url("/mcp"))
    async with (httpx2.AsyncClient(headers={"X-API-Key": api_key[1]}) as http,
                Client(streamable_http_client(url, http_client=http)) as mcp):
        listed = {t.name: t for t in (await mcp.list_tools()).tools}
    from api.routes import tool_routes

    routes = {t.name: t for t in tool_routes()}
    served = {(r.method, r.resource.canonical) for r in client.app.router.routes() if r.resource is not None}
    assert set(listed) <= set(routes)
    for name, mcp_tool in listed.items():
        t = routes[name]
        assert (t.method, t.path) in served, name
        assert mcp_tool.description == t.description
        assert mcp_tool.input_schema == t.input_model.model_json_schema(by_alias=True, mode="validation")
    assert {n for n, t in routes.items() if t.agent and not t.writes} == set(listed)
    assert {n for n, t in routes.items() if not t.agent} >= {"card_image", "collection_card_image_upload"}


@pytest.mark.parametrize("connect", ["stdio"], indirect=True)
async def test_a_key_revoked_while_the_stdio_server_runs_stops_working(connect, api_key, sessions):
    async with connect(api_key[1], CARDWISE_AUTH_CACHE_S="0") as client:
        assert not (await client.call_tool("collections_list", {})).is_error
        async with sessions() as s, s.begin():
            await key_queries.revoke(session=s, key_id=api_key[0])
        refused = await client.call_tool("collections_list", {})
        assert refused.is_error and body_of(refused)["code"] == "UNAUTHORIZED"


async def test_a_stdio_server_without_a_valid_key_says_so(tmp_path, db_url):
    import asyncio

    proc = await asyncio.create_subprocess_exec(
        *CARDWISE, "mcp", cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                         "CARDWISE_DATABASE_URL": db_url, "CARDWISE_API_KEY": "cw_wrong"},
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode == 2 and out == b""
    assert b"CARDWISE_API_KEY is not an active API key" in err


def test_writes_over_http_are_an_explicit_setting():
    from api.settings import load_settings

    assert load_settings({}).mcp_allow_writes is False
    assert load_settings({"CARDWISE_MCP_ALLOW_WRITES": "1"}).mcp_allow_writes is True
    assert load_settings({"CARDWISE_MCP_ALLOW_WRITES": "false"}).mcp_allow_writes is False
    with pytest.raises(ValueError, match="CARDWISE_MCP_ALLOW_WRITES"):
        load_settings({"CARDWISE_MCP_ALLOW_WRITES": "maybe"})
