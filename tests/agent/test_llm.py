"""The model client: retries (429 with Retry-After, 5xx, timeouts, connection errors), the
client's own retries off, tool calls recovered from ``content``, and backend selection."""

from __future__ import annotations

import json

import httpx2
import pytest

from agent.errors import ModelUnavailable
from agent.llm import (BUILTIN_BASE_URL, BuiltinLLM, OpenAILLM, builtin_over_openai, make_llm, openai_client,
                       parse_content_tool_calls)
from config import Settings

MESSAGES = [{"role": "user", "content": "hi"}]


def completion(content=None, tool_calls=None) -> dict:
    return {"id": "c1", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls" if tool_calls else "stop",
                         "message": {"role": "assistant", "content": content, "tool_calls": tool_calls}}]}


class Server:
    """A scripted HTTP model server behind an httpx2 MockTransport."""

    def __init__(self, *responses):
        self.responses = list(responses)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        r = self.responses.pop(0) if len(self.responses) > 1 else self.responses[0]
        if isinstance(r, Exception):
            raise r
        return r


def llm_for(server: Server, attempts: int = 4):
    sleeps: list[float] = []

    async def sleep(s: float) -> None:
        sleeps.append(s)

    client = openai_client("http://model.test/v1", "sk-test", transport=httpx2.MockTransport(server))
    return OpenAILLM(client, "m", attempts=attempts, sleep=sleep), sleeps


async def test_429_then_success_honours_retry_after():
    server = Server(httpx2.Response(429, headers={"retry-after": "2"}, json={"error": {"message": "slow down"}}),
                    httpx2.Response(200, json=completion("hello")))
    llm, sleeps = llm_for(server)
    c = await llm.complete(MESSAGES, None)
    assert c.content == "hello"
    assert len(server.requests) == 2 and sleeps == [2.0]


async def test_5xx_exhaustion_raises_model_unavailable_after_the_set_attempts():
    server = Server(httpx2.Response(503, json={"error": {"message": "down"}}))
    llm, sleeps = llm_for(server, attempts=3)
    with pytest.raises(ModelUnavailable):
        await llm.complete(MESSAGES, None)
    assert len(server.requests) == 3  # the client's own retries are off: attempts never multiply
    assert sleeps == [0.5, 1.0]


@pytest.mark.parametrize("exc", [httpx2.ConnectError("refused"), httpx2.ReadTimeout("slow")])
async def test_connection_errors_and_timeouts_are_retried(exc):
    server = Server(exc, httpx2.Response(200, json=completion("ok")))
    llm, _ = llm_for(server)
    assert (await llm.complete(MESSAGES, None)).content == "ok"
    assert len(server.requests) == 2


async def test_a_4xx_is_not_retried():
    server = Server(httpx2.Response(400, json={"error": {"message": "bad"}}))
    llm, _ = llm_for(server)
    with pytest.raises(ModelUnavailable):
        await llm.complete(MESSAGES, None)
    assert len(server.requests) == 1


async def test_tool_calls_and_request_shape():
    tc = [{"id": "call_1", "type": "function", "function": {"name": "grades_companies", "arguments": "{}"}}]
    server = Server(httpx2.Response(200, json=completion(None, tc)))
    llm, _ = llm_for(server)
    c = await llm.complete(MESSAGES, [{"type": "function", "function": {"name": "grades_companies", "parameters": {}}}])
    assert [(t.id, t.name, t.arguments) for t in c.tool_calls] == [("call_1", "grades_companies", "{}")]
    body = json.loads(server.requests[0].content)
    assert body["tool_choice"] == "auto" and body["model"] == "m" and body["temperature"] == 0.0


async def test_a_tool_call_written_as_json_content_is_parsed():
    content = '```json\n{"name": "grades_companies", "arguments": {}}\n```'
    server = Server(httpx2.Response(200, json=completion(content)))
    llm, _ = llm_for(server)
    c = await llm.complete(MESSAGES, [{"type": "function", "function": {"name": "grades_companies"}}])
    assert [t.name for t in c.tool_calls] == ["grades_companies"] and c.content is None


@pytest.mark.parametrize("text,names", [
    ('{"name": "a", "arguments": {"x": 1}}', ["a"]),
    ('<tool_call>{"name": "a", "arguments": {}}</tool_call><tool_call>{"name": "b", "parameters": {}}</tool_call>',
     ["a", "b"]),
    ('[{"type": "function", "function": {"name": "a", "arguments": "{}"}}]', ["a"]),
    ('{"tool_calls": [{"name": "a", "arguments": {}}]}', ["a"]),
    ("The answer is 42.", []),
    ('{"answer": 42}', []),
    ("", []),
])
def test_parse_content_tool_calls(text, names):
    assert [c.name for c in parse_content_tool_calls(text)] == names


def test_make_llm_picks_builtin_or_the_configured_server():
    assert isinstance(make_llm(Settings()), BuiltinLLM)
    assert isinstance(make_llm(Settings(), recordable=True), OpenAILLM)  # what --record sees
    wired = builtin_over_openai()
    assert str(wired.client.base_url).rstrip("/") == BUILTIN_BASE_URL and wired.client.max_retries == 0
    remote = make_llm(Settings(llm_base_url="http://llm.example/v1", llm_api_key="k", llm_model="qwen",
                               llm_max_retries=2))
    assert str(remote.client.base_url).startswith("http://llm.example/v1")
    assert remote.model == "qwen" and remote.attempts == 2 and remote.client.max_retries == 0


async def test_builtin_model_speaks_the_protocol_in_process():
    llm = builtin_over_openai()
    c = await llm.complete([{"role": "user", "content": "What is the weather?"}], None)
    assert "can't answer" in c.content


async def test_the_builtin_model_answers_the_same_called_directly_or_over_the_protocol():
    from agent.toolset import specs_for

    tools = specs_for("", None, retrieve=False)
    direct, wired = make_llm(Settings()), builtin_over_openai()
    called = []
    for question in ["What is the weather?", "how much is a psa 9 charizard base set", "whats my collection worth"]:
        messages = [{"role": "user", "content": question}]
        a, b = await direct.complete(messages, tools), await wired.complete(messages, tools)
        assert (a.content, a.finish_reason) == (b.content, b.finish_reason)
        assert [(c.id, c.name, c.arguments) for c in a.tool_calls] == [(c.id, c.name, c.arguments) for c in b.tool_calls]
        called += [c.name for c in a.tool_calls]
    assert called  # the card and collection questions start with tool calls
