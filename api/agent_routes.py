"""``POST /v1/ai/query``: a natural-language question answered by the agent loop.

The model is the configured OpenAI-compatible server (``CARDWISE_LLM_BASE_URL``) or the built-in
offline model; it is made on the first question and kept in the app's ``LLM`` slot, closed with the
app (tests put their own client in the slot).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent.errors import ModelUnavailable
from agent.llm import make_llm
from agent.loop import DEFAULT_MAX_ITERATIONS, run_query
from api.adapter import read_json
from api.keys import CALLER, CONTEXT
from api.route_table import RawRoute
from config import Settings
from tools._models import LooseUUIDStr
from tools._registry import validation_message
from tools.errors import ServiceError


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AIContext(_Strict):
    collectionId: LooseUUIDStr | None = Field(None, description="Default collection for collection questions")
    userId: str | None = Field(None, max_length=200, description="The asking user's id (informational)")
    allowWrites: bool = Field(False, description="Extension: let the agent create, change or delete data "
                                                 "(want lists, collections...); off by default")


class ConversationMessage(_Strict):
    role: Literal["user", "assistant"] = Field(description="Who said it")
    content: str = Field(min_length=1, max_length=10000, description="What was said")


class AIQueryRequest(_Strict):
    query: str = Field(min_length=1, max_length=1000, description="The question")
    context: AIContext | None = None
    conversationHistory: list[ConversationMessage] = Field(default_factory=list, max_length=50,
                                                           description="Earlier turns, oldest first")
    maxIterations: int = Field(DEFAULT_MAX_ITERATIONS, ge=1, le=10, description="Tool-calling rounds allowed")


class AIQueryResponse(BaseModel):
    answer: str = Field(description="The answer, in plain language")
    toolsUsed: list[str] = Field(description="Tools executed, in order")
    processingTime: float = Field(description="Milliseconds")


class LLMSlot:
    """The app's model client: made on first use (the built-in model loads its embedding model then)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.client: Any = None

    def get(self) -> Any:
        if self.client is None:
            self.client = make_llm(self.settings)
        return self.client


LLM = web.AppKey("llm", LLMSlot)


async def close_llm(app: web.Application) -> AsyncIterator[None]:
    """Cleanup context: the model client (its HTTP connections) is closed with the app."""
    yield
    client = app[LLM].client
    if client is not None and hasattr(client, "aclose"):
        await client.aclose()


def get_llm(request: web.Request) -> Any:
    return request.app[LLM].get()


async def ai_query(request: web.Request) -> web.Response:
    body = await read_json(request)
    try:
        q = AIQueryRequest.model_validate(body)
    except ValidationError as exc:
        raise ServiceError("VALIDATION_ERROR", validation_message(exc)) from None
    if not q.query.strip():
        raise ServiceError("VALIDATION_ERROR", "query: must not be blank")
    ctx = request.app[CONTEXT].with_caller(request.get(CALLER))
    try:
        result = await run_query(ctx, q.query, get_llm(request),
                                 history=[m.model_dump() for m in q.conversationHistory],
                                 max_iterations=q.maxIterations,
                                 context=q.context.model_dump() if q.context else None)
    except ModelUnavailable as exc:
        raise ServiceError("SERVICE_UNAVAILABLE", str(exc), retry_after=5) from None
    out = AIQueryResponse(answer=result.answer, toolsUsed=result.tools_used, processingTime=result.processing_time_ms)
    return web.json_response(out.model_dump(), headers={"X-Agent-Iterations": str(result.iterations),
                                                        "X-Agent-Stop-Reason": result.stop_reason})


def raw_routes() -> list[RawRoute]:
    return [RawRoute("POST", "/v1/ai/query", ai_query,
                     "Answer a natural-language question with the catalog, market and collection tools",
                     response_model=AIQueryResponse, tags=("AI",), request_model=AIQueryRequest,
                     error_statuses=(400, 401, 500, 503),
                     description="The agent answers a question in plain language (\"what is my Griffey rookie "
                                 "worth?\") by calling the same tools as the REST routes, at most maxIterations "
                                 "rounds, and says which tools it used. Earlier turns go in conversationHistory. "
                                 "The model is the configured OpenAI-compatible server or the built-in offline one.")]
