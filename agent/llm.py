"""The model client: the ``LLMClient`` protocol and its one implementation over the ``openai``
package (the only module that imports ``openai``).

``OpenAILLM`` speaks the Chat Completions protocol to any compatible server. The client's own
retries are off (``max_retries=0``); tenacity retries 429 (honouring ``Retry-After``), timeouts,
connection errors and 5xx so attempts never multiply. Some servers (llama.cpp with Qwen) put a
tool call as JSON text in ``content``; ``parse_content_tool_calls`` recovers it.

``make_llm(settings)`` picks the configured server, or the built-in offline model called in-process
(``BuiltinLLM``: the protocol's request and reply as dicts, without the HTTP client's encoding and
validation, which cost more than the planner); ``builtin_over_openai()`` serves the same model through
the ``openai`` client and an ``httpx2.MockTransport`` (no socket), for recording cassettes.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx2
import openai
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from agent.errors import ModelUnavailable
from config import Settings

log = logging.getLogger("cardwise.agent")

BUILTIN_BASE_URL = "http://cardwise-builtin.invalid/v1"
BUILTIN_MODEL = "cardwise-builtin"


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # JSON text, as the model sent it


@dataclass
class Completion:
    content: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None


class LLMClient(Protocol):
    """What the loop needs from a model: one Chat Completions turn."""

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> Completion: ...


# --------------------------------------------------------------------------- content fallback
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.S)


def _as_call(obj: Any) -> ToolCall | None:
    if not isinstance(obj, dict):
        return None
    if obj.get("type") == "function" and isinstance(obj.get("function"), dict):
        obj = obj["function"]
    name = obj.get("name")
    args = obj.get("arguments", obj.get("parameters", {}))
    if not isinstance(name, str) or not name:
        return None
    if isinstance(args, str):
        text = args
    else:
        text = json.dumps(args if args is not None else {})
    return ToolCall(id=f"call_{uuid.uuid4().hex[:12]}", name=name, arguments=text)


def parse_content_tool_calls(content: str | None) -> list[ToolCall]:
    """Tool calls written as JSON text in ``content`` (bare, fenced, or in <tool_call> tags)."""
    if not content:
        return []
    text = content.strip()
    tagged = re.findall(r"<tool_call>\s*(.*?)\s*</tool_call>", text, re.S)
    chunks = tagged or [_FENCE.sub("", text)]
    calls: list[ToolCall] = []
    for chunk in chunks:
        try:
            obj = json.loads(chunk)
        except ValueError:
            return []
        items = obj if isinstance(obj, list) else obj.get("tool_calls", [obj]) if isinstance(obj, dict) else []
        for item in items:
            call = _as_call(item)
            if call is None:
                return []
            calls.append(call)
    return calls


# --------------------------------------------------------------------------- retries
RETRYABLE = (openai.RateLimitError, openai.APITimeoutError, openai.APIConnectionError, openai.InternalServerError)


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, RETRYABLE):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def retry_after_seconds(exc: BaseException | None) -> float | None:
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = response.headers
    try:
        if headers.get("retry-after-ms"):
            return float(headers["retry-after-ms"]) / 1000
        if headers.get("retry-after"):
            return float(headers["retry-after"])
    except ValueError:
        return None
    return None


def make_wait(base: float = 0.5, cap: float = 8.0, max_retry_after: float = 30.0) -> Callable[[RetryCallState], float]:
    """Exponential backoff, but a server's ``Retry-After`` wins (capped)."""

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        hinted = retry_after_seconds(exc)
        if hinted is not None:
            return min(max(hinted, 0.0), max_retry_after)
        return min(cap, base * 2 ** (state.attempt_number - 1))

    return wait


# --------------------------------------------------------------------------- the client
class OpenAILLM:
    def __init__(self, client: openai.AsyncOpenAI, model: str, *, attempts: int = 4,
                 wait: Callable[[RetryCallState], float] | None = None, sleep: Callable[[float], Any] | None = None,
                 temperature: float | None = 0.0) -> None:
        self.client = client
        self.model = model
        self.attempts = max(1, attempts)
        self.wait = wait or make_wait()
        self.sleep = sleep
        self.temperature = temperature
        # offer only the tools relevant to each question (a real model); the built-in one needs all
        self.retrieve_tools = False

    async def aclose(self) -> None:
        await self.client.close()

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> Completion:
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages}
        if tools:
            kwargs["tools"] = tools
            kwargs["tool_choice"] = "auto"
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        retrying_kw: dict[str, Any] = {"stop": stop_after_attempt(self.attempts), "wait": self.wait,
                                       "retry": retry_if_exception(_retryable), "reraise": True}
        if self.sleep is not None:
            retrying_kw["sleep"] = self.sleep
        try:
            async for attempt in AsyncRetrying(**retrying_kw):
                with attempt:
                    try:
                        resp = await self.client.chat.completions.create(**kwargs)
                    except Exception as exc:
                        log.warning("model call failed", extra={"attempt": attempt.retry_state.attempt_number,
                                                                "error": type(exc).__name__})
                        raise
        except Exception as exc:
            if _retryable(exc):
                raise ModelUnavailable(f"The language model is unavailable ({type(exc).__name__})") from exc
            if isinstance(exc, openai.OpenAIError):
                raise ModelUnavailable(f"The language model rejected the request ({type(exc).__name__})") from exc
            raise
        if not resp.choices:
            return Completion(content="", finish_reason="stop")
        choice = resp.choices[0]
        msg = choice.message
        calls = [ToolCall(id=tc.id, name=tc.function.name, arguments=tc.function.arguments or "{}")
                 for tc in (msg.tool_calls or []) if getattr(tc, "function", None) is not None]
        content = msg.content
        if not calls and tools:
            calls = parse_content_tool_calls(content)
            if calls:
                content = None
        return Completion(content=content, tool_calls=calls, finish_reason=choice.finish_reason)


def openai_client(base_url: str, api_key: str, *, timeout: float = 30.0,
                  transport: httpx2.AsyncBaseTransport | None = None) -> openai.AsyncOpenAI:
    http_client = openai.DefaultAsyncHttpxClient(transport=transport) if transport is not None else None
    return openai.AsyncOpenAI(base_url=base_url, api_key=api_key or "none", timeout=timeout, max_retries=0,
                              http_client=http_client)


def builtin_transport() -> httpx2.AsyncBaseTransport:
    from agent.builtin.protocol import handle_chat_json

    def handler(request: httpx2.Request) -> httpx2.Response:
        if not request.url.path.endswith("/chat/completions"):
            return httpx2.Response(404, json={"error": {"message": "not found", "type": "not_found"}})
        status, body = handle_chat_json(request.content)
        return httpx2.Response(status, json=body)

    return httpx2.MockTransport(handler)


class BuiltinLLM:
    """The built-in offline model in-process: ``handle_chat`` on the Chat Completions request as a dict."""

    model = BUILTIN_MODEL
    retrieve_tools = False  # the built-in model reads every tool's name it is offered

    async def aclose(self) -> None:
        return None

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> Completion:
        from agent.builtin.protocol import handle_chat

        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": 0.0}
        if tools:
            body["tools"] = tools
            body["tool_choice"] = "auto"
        try:
            reply = handle_chat(body)
        except ValueError as exc:
            raise ModelUnavailable(f"The language model rejected the request ({exc})") from exc
        choice = reply["choices"][0]
        msg = choice["message"]
        calls = [ToolCall(id=tc["id"], name=tc["function"]["name"], arguments=tc["function"]["arguments"] or "{}")
                 for tc in msg.get("tool_calls") or []]
        return Completion(content=msg.get("content"), tool_calls=calls, finish_reason=choice["finish_reason"])


def builtin_over_openai() -> OpenAILLM:
    """The built-in model behind the ``openai`` client (an in-process transport): the wire path, recordable."""
    return OpenAILLM(openai_client(BUILTIN_BASE_URL, "builtin", transport=builtin_transport()), BUILTIN_MODEL,
                     attempts=1)


def make_llm(settings: Settings, *, recordable: bool = False) -> OpenAILLM | BuiltinLLM:
    """The configured model server, or the built-in offline model when no base URL is set (``recordable``:
    behind the ``openai`` client, where a cassette recorder sees its traffic)."""
    from agent import embeddings

    embeddings.configure(settings.agent_embeddings, settings.agent_cache_dir, settings.agent_threads)
    warm_in_background()
    if settings.llm_base_url:
        client = openai_client(settings.llm_base_url, settings.llm_api_key, timeout=settings.llm_timeout_s)
        llm = OpenAILLM(client, settings.llm_model, attempts=settings.llm_max_retries)
        llm.retrieve_tools = settings.llm_tool_retrieval
        return llm
    return builtin_over_openai() if recordable else BuiltinLLM()


def warm_in_background() -> None:
    """Load the embedding model and the example bank once per process, off the request path."""
    import threading

    from agent.builtin import classifier

    threading.Thread(target=classifier.warm, name="agent-warm", daemon=True).start()
