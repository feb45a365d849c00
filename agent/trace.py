"""Records of one agent run: a record per model turn and per tool call, returned with the answer."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class ToolRecord:
    name: str
    arguments: str
    executed: bool
    duration_ms: float
    error_code: str | None = None


@dataclass
class TurnRecord:
    iteration: int
    latency_ms: float
    with_tools: bool
    finish_reason: str | None
    tool_calls: list[ToolRecord] = field(default_factory=list)


@dataclass
class AgentResult:
    """What ``run_query`` returns. ``stop_reason``: answer | max_iterations | repeated_call."""

    answer: str
    tools_used: list[str]
    processing_time_ms: float
    iterations: int
    stop_reason: str
    turns: list[TurnRecord] = field(default_factory=list)

    @property
    def tool_calls(self) -> list[tuple[str, str]]:
        return [(c.name, c.arguments) for t in self.turns for c in t.tool_calls]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
