"""The system prompt: text in the top-level ``prompts/*.md``, versioned with the code."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from typing import Any

PROMPTS = files("prompts")
LIMIT_NOTE = ("You have used every tool-calling round allowed for this question. Answer now, without tools, "
              "with the information you already have; say what is missing if you could not finish.")
REPEAT_NOTE = ("You asked for the same tool call again. Do not repeat calls: answer now, without tools, "
               "with the information you already have.")


@lru_cache(maxsize=8)
def load(name: str = "system") -> str:
    return PROMPTS.joinpath(f"{name}.md").read_text(encoding="utf-8").strip()


def system_message(context: dict[str, Any] | None = None) -> str:
    text = load("system")
    ctx = {k: v for k, v in (context or {}).items() if v}
    if ctx:
        lines = "\n".join(f"- {k}: {v}" for k, v in sorted(ctx.items()))
        text += ("\n\nRequest context (a collectionId here is the default collection for collection tools):\n"
                 + lines)
    return text
