"""POST /v1/ai/query: validation, the answer shape, the built-in model on real questions, 503."""

from __future__ import annotations

import httpx2
import pytest

from agent.llm import OpenAILLM, openai_client
from api.agent_routes import LLM
from tests.agent import fakes
from tests.factories import seed_catalog

URL = "/v1/ai/query"


async def ask(client, auth, status=200, **body):
    resp = await client.post(URL, json=body, headers=auth)
    data = await resp.json()
    assert resp.status == status, data
    return data, resp


async def test_answers_with_the_builtin_model(client, auth):
    data, resp = await ask(client, auth, query="What grading companies are there?")
    assert set(data) == {"answer", "toolsUsed", "processingTime"}
    assert "PSA" in data["answer"] and data["toolsUsed"] == ["grades_companies"]
    assert isinstance(data["processingTime"], (int, float)) and data["processingTime"] >= 0
    assert resp.headers["X-Agent-Stop-Reason"] == "answer"


async def test_requires_an_api_key(client):
    resp = await client.post(URL, json={"query": "hi"})
    assert resp.status == 401
    assert (await resp.json())["code"] == "UNAUTHORIZED"


@pytest.mark.parametrize("body", [
    {}, {"query": ""}, {"query": "x" * 1001}, {"query": 5}, {"query": "hi", "maxIterations": 0},
    {"query": "hi", "maxIterations": 11}, {"query": "hi", "maxIterations": "many"},
    {"query": "hi", "conversationHistory": [{"role": "user", "content": "a"}] * 51},
    {"query": "hi", "conversationHistory": [{"role": "system", "content": "a"}]},
    {"query": "hi", "conversationHistory": [{"role": "user", "content": ""}]},
    {"query": "hi", "conversationHistory": [{"role": "user", "content": "a" * 10001}]},
    {"query": "hi", "conversationHistory": "nope"},
    {"query": "hi", "context": {"collectionId": "not-a-uuid"}},
    {"query": "hi", "context": "x"}, {"query": "hi", "unknown": 1}, {"query": "   "},
])
async def test_validation_errors_are_400(client, auth, body):
    data, _ = await ask(client, auth, 400, **body)
    assert data["code"] == "VALIDATION_ERROR" and data["error"]


async def test_non_json_body_is_400(client, auth):
    resp = await client.post(URL, data=b"{nope", headers={**auth, "Content-Type": "application/json"})
    assert resp.status == 400 and (await resp.json())["code"] == "VALIDATION_ERROR"


async def test_limits_at_the_edges_are_accepted(client, auth):
    history = [{"role": "user" if i % 2 == 0 else "assistant", "content": "a" * 10000} for i in range(50)]
    data, _ = await ask(client, auth, query="q" * 1000, conversationHistory=history, maxIterations=10,
                        context={"collectionId": "5B0C1C4E-3F7A-4D2B-9A51-1F0E2D3C4B5A", "userId": "u-1"})
    assert data["answer"]
    for n in (1, 10):
        await ask(client, auth, query="What grading companies are there?", maxIterations=n)


async def test_unreachable_model_is_503(client, auth):
    def down(request):
        return httpx2.Response(502, json={"error": {"message": "bad gateway"}})

    async def no_sleep(_):
        return None

    llm = OpenAILLM(openai_client("http://llm.test/v1", "k", transport=httpx2.MockTransport(down)), "m",
                    attempts=2, sleep=no_sleep)
    client.app[LLM].client = llm
    data, resp = await ask(client, auth, 503, query="What grading companies are there?")
    assert data["code"] == "SERVICE_UNAVAILABLE" and set(data) == {"error", "code"}
    assert resp.headers.get("Retry-After")


async def test_the_issue_questions_on_a_catalog(client, auth, sessions, monkeypatch):
    fakes.install(monkeypatch)
    await seed_catalog(sessions)
    data, _ = await ask(client, auth, query="What parallels does 2024 Topps Chrome Shohei Ohtani #1 have?")
    assert "Gold Refractor /50" in data["answer"] and data["toolsUsed"] == ["catalog_link", "catalog_card"]
    data, _ = await ask(client, auth, query="How many PSA 10 Base Set Charizards are there?")
    assert "121" in data["answer"] and data["toolsUsed"][-1] == "population_card"
    data, _ = await ask(client, auth, query="and its PSA 9 population?", conversationHistory=[
        {"role": "user", "content": "How many PSA 10 Base Set Charizards are there?"},
        {"role": "assistant", "content": data["answer"]}])
    assert "1,403" in data["answer"]
    data, _ = await ask(client, auth, query="What is my collection worth and what is my top card?",
                        context={"collectionId": fakes.FAKE_COLLECTION})
    assert "$412.50" in data["answer"] and "Charizard" in data["answer"]
    assert data["toolsUsed"] == ["collection_analytics"]


async def test_sdk_process_ai_query(client, api_key):
    cardsightai = pytest.importorskip("cardsightai")
    from cardsightai.generated.card_sight_ai_api_client.models import AIQueryRequestInput

    base = str(client.server.make_url("")).rstrip("/")
    async with cardsightai.AsyncCardSightAI(api_key=api_key[1], base_url=base) as sdk:
        out = await sdk.ai.process_ai_query(body=AIQueryRequestInput(query="What grading companies are there?",
                                                                     max_iterations=3))
    assert "PSA" in out.answer and out.tools_used == ["grades_companies"]


async def test_openapi_documents_the_route(client):
    doc = await (await client.get("/openapi.json")).json()
    op = doc["paths"]["/v1/ai/query"]["post"]
    def resolve(schema):
        return doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema

    schema = resolve(op["requestBody"]["content"]["application/json"]["schema"])
    assert schema["properties"]["query"]["maxLength"] == 1000
    assert schema["properties"]["maxIterations"]["maximum"] == 10
    assert set(op["responses"]) >= {"200", "400", "401", "503"}
    assert resolve(op["responses"]["200"]["content"]["application/json"]["schema"])["required"] == [
        "answer", "toolsUsed", "processingTime"]
