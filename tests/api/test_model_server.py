"""``cardwise model serve``: the built-in model as an OpenAI-compatible HTTP endpoint."""

from __future__ import annotations

from agent.llm import OpenAILLM, openai_client
from agent.loop import run_query
from cli.main import build_parser
from cli.model_server import create_model_app


async def test_served_model_answers_over_http_through_the_openai_client(aiohttp_client, ctx):
    server = await aiohttp_client(create_model_app())
    base = str(server.server.make_url("/v1"))
    models = await (await server.get("/v1/models")).json()
    assert models["data"][0]["id"] == "cardwise-builtin"
    llm = OpenAILLM(openai_client(base, "sk-none"), "cardwise-builtin", attempts=1)
    try:
        r = await run_query(ctx, "What grades does PSA use?", llm)
    finally:
        await llm.aclose()
    assert r.tools_used == ["grades_companies", "grades_types", "grades_grades"]
    assert "Gem Mint" in r.answer


async def test_bad_requests_are_400(aiohttp_client):
    server = await aiohttp_client(create_model_app())
    for body in (b"{nope", b"[]", b'{"messages": []}'):
        resp = await server.post("/v1/chat/completions", data=body)
        assert resp.status == 400
        assert (await resp.json())["error"]["type"] == "invalid_request_error"


def test_cli_has_model_serve_and_eval_run():
    args = build_parser().parse_args(["model", "serve", "--port", "9999"])
    assert args.port == 9999
    args = build_parser().parse_args(["eval", "run", "evals/suites", "--backend", "openai", "--replay"])
    assert args.replay and args.backend == "openai"
