"""The tool registry: a capability is declared once and served twice (REST route and agent tool).

    @tool("grades_companies", method="GET", path="/v1/grades/companies", cache=True)
    async def list_companies(ctx: ToolContext, q: CompaniesQuery) -> CompaniesPage:
        '''List grading companies.'''

The registry keeps name, description (the docstring), the input and output models and the HTTP
binding. ``openai_specs()`` yields strict function schemas for an OpenAI-compatible model and
``invoke()`` runs a call by name with JSON arguments through the same validation as REST.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

import metrics
from tools._models import Written
from tools._schema import strict_schema
from tools.context import ToolContext
from tools.errors import ServiceError

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
ToolFn = Callable[[ToolContext, Any], Awaitable[Any]]
BodyMode = Literal["fields", "field", "binary", "none"]


@dataclass(frozen=True)
class Tool:
    name: str
    fn: ToolFn
    input_model: type[BaseModel]
    output_model: type[BaseModel] | None
    description: str
    method: str | None = None
    path: str | None = None
    status: int = 200
    public: bool = False
    agent: bool = True
    # how a REST body maps onto the input model: its top-level fields ("fields"), one field that
    # takes the whole JSON body ("field", named by body_field), raw upload bytes ("binary")
    body: BodyMode = "fields"
    body_field: str | None = None
    tags: tuple[str, ...] = ()
    extra_statuses: tuple[int, ...] = ()
    response_content_types: tuple[str, ...] = field(default=("application/json",))
    # a Binary tool that also answers JSON (e.g. ?format=json): the model of that JSON, for the document
    json_model: type[BaseModel] | None = None
    # a deterministic read of data shared by every key (the catalog): REST may answer it from the
    # per-process response cache (api/response_cache.py)
    cache: bool = False
    # the call creates, changes or deletes stored data: the agent and MCP offer it only where the
    # caller allowed writes (default: every POST/PUT/PATCH/DELETE route that is not declared a read)
    writes: bool = False

    @property
    def summary(self) -> str:
        return self.description.strip().splitlines()[0] if self.description.strip() else self.name

    async def __call__(self, ctx: ToolContext, q: Any) -> Any:
        """Run the tool, counted and timed per tool (REST and agent alike); the outcome is ``ok`` or the
        ``ServiceError`` code."""
        start = time.perf_counter()
        outcome = "ok"
        try:
            return await self.fn(ctx, q)
        except ServiceError as exc:
            outcome = exc.code
            raise
        except asyncio.CancelledError:
            outcome = "cancelled"
            raise
        except BaseException:
            outcome = "error"
            raise
        finally:
            calls, latency = _tool_series(self.name, outcome)
            calls.inc()
            latency.observe(time.perf_counter() - start)


_TOOL_SERIES: dict[tuple[str, str], tuple[Any, Any]] = {}  # (tool, outcome) -> its call count and latency series


def _tool_series(name: str, outcome: str) -> tuple[Any, Any]:
    """A tool call's two series in one lookup (tools and outcomes are a bounded set)."""
    got = _TOOL_SERIES.get((name, outcome))
    if got is None:
        got = _TOOL_SERIES[(name, outcome)] = (
            metrics.series_of(metrics.TOOL_CALLS, ("tool", "outcome"), (name, outcome)),
            metrics.series_of(metrics.TOOL_LATENCY, ("tool",), (name,)),
        )
    return got


_REGISTRY: dict[str, Tool] = {}


def tool(
    name: str,
    *,
    method: str | None = None,
    path: str | None = None,
    status: int = 200,
    public: bool = False,
    agent: bool = True,
    body: BodyMode = "fields",
    body_field: str | None = None,
    tags: tuple[str, ...] = (),
    extra_statuses: tuple[int, ...] = (),
    response_content_types: tuple[str, ...] = ("application/json",),
    json_model: type[BaseModel] | None = None,
    cache: bool = False,
    writes: bool | None = None,
) -> Callable[[ToolFn], Tool]:
    """Register ``fn(ctx, input_model) -> output_model`` under ``name`` (and optionally a route)."""

    def decorate(fn: ToolFn) -> Tool:
        hints = typing.get_type_hints(fn)
        params = list(inspect.signature(fn).parameters)
        if len(params) != 2:
            raise TypeError(f"tool {name}: expected (ctx, input) parameters, got {params}")
        input_model = hints[params[1]]
        output_model = hints.get("return")
        if output_model is type(None):
            output_model = None
        answers = [a for a in typing.get_args(output_model) if a is not Written]
        if Written in typing.get_args(output_model) and len(answers) == 1:  # ``Model | Written``: the model
            output_model = answers[0]
        if not (isinstance(input_model, type) and issubclass(input_model, BaseModel)):
            raise TypeError(f"tool {name}: the input must be a pydantic model")
        if name in _REGISTRY:
            raise ValueError(f"tool {name} registered twice")
        doc = inspect.getdoc(fn) or ""
        if not doc:
            raise ValueError(f"tool {name}: the docstring is its description and is required")
        t = Tool(
            name=name,
            fn=fn,
            input_model=input_model,
            output_model=output_model,
            description=doc,
            method=method.upper() if method else None,
            path=path,
            status=status,
            public=public,
            agent=agent,
            body=body,
            body_field=body_field,
            tags=tags or (name.split("_")[0],),
            extra_statuses=extra_statuses,
            response_content_types=response_content_types,
            json_model=json_model,
            cache=cache,
            writes=(method or "GET").upper() in WRITE_METHODS if writes is None else writes,
        )
        _REGISTRY[name] = t
        return t

    return decorate


def all_tools() -> list[Tool]:
    from tools import load_all

    load_all()
    return list(_REGISTRY.values())


def get_tool(name: str) -> Tool | None:
    from tools import load_all

    load_all()
    return _REGISTRY.get(name)


def agent_tools() -> list[Tool]:
    return [t for t in all_tools() if t.agent]


def openai_specs(names: list[str] | None = None) -> list[dict[str, Any]]:
    """Function-tool specs in the OpenAI Chat Completions format, with strict JSON schemas."""
    specs = []
    for t in agent_tools():
        if names is not None and t.name not in names:
            continue
        specs.append(
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": strict_schema(t.input_model),
                    "strict": True,
                },
            }
        )
    return specs


def validation_message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "__root__")
        msg = err.get("msg", "invalid")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts[:5]) or "Invalid input"


def _bad_text(v: str) -> str | None:
    if "\x00" in v:
        return "Text values may not contain NUL characters"
    if v.isascii():  # no surrogate: nothing to encode
        return None
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return "Text values must be valid Unicode (no lone surrogates such as \\udc80)"
    return None


def unstorable_text(value: Any) -> str | None:
    """Why a string in ``value`` (keys included) cannot be stored (a NUL, which PostgreSQL text cannot
    hold, or a lone surrogate, which is not UTF-8), or None when every string can."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            problem = _bad_text(v)
            if problem:
                return problem
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return None


def parse_input(t: Tool, data: Any) -> BaseModel:
    problem = unstorable_text(data)
    if problem:
        raise ServiceError("VALIDATION_ERROR", problem)
    try:
        return t.input_model.model_validate(data)
    except ValidationError as exc:
        raise ServiceError("VALIDATION_ERROR", validation_message(exc)) from None


def dump_output(result: Any) -> Any:
    if isinstance(result, Written):
        return json.loads(result.json)
    if isinstance(result, BaseModel):
        return result.model_dump(mode="json", by_alias=True)
    return result


def _drop_nulls_for_defaults(t: Tool, args: dict[str, Any]) -> dict[str, Any]:
    """Strict schemas make optional fields nullable; a null means "use the default"."""
    out = {}
    by_alias = {(f.alias or n): f for n, f in t.input_model.model_fields.items()}
    for k, v in args.items():
        f = t.input_model.model_fields.get(k) or by_alias.get(k)
        if v is None and f is not None and not f.is_required() and f.default is not None:
            continue
        out[k] = v
    return out


async def invoke(name: str, args_json: str | dict[str, Any], ctx: ToolContext) -> Any:
    """Run tool ``name`` with JSON arguments, as the agent does. Raises ``ServiceError``."""
    t = get_tool(name)
    if t is None or not t.agent:
        raise ServiceError("NOT_FOUND", f"Unknown tool {name!r}")
    if isinstance(args_json, str):
        try:
            args = json.loads(args_json or "{}")
        except (ValueError, RecursionError):
            raise ServiceError("VALIDATION_ERROR", "Tool arguments are not valid JSON") from None
    else:
        args = args_json
    if not isinstance(args, dict):
        raise ServiceError("VALIDATION_ERROR", "Tool arguments must be a JSON object")
    for k, v in ctx.defaults.items():
        if args.get(k) is None and (k in t.input_model.model_fields or _has_alias(t, k)):
            args[k] = v
    q = parse_input(t, _drop_nulls_for_defaults(t, args))
    return dump_output(await t(ctx, q))


def _has_alias(t: Tool, alias: str) -> bool:
    return any(f.alias == alias for f in t.input_model.model_fields.values())
