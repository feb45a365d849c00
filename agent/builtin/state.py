"""What the planner knows about one request: the family, the entities, the results so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent.builtin.conversation import Conversation
from agent.builtin.intents import Intent
from agent.builtin.linking import Entities


def is_error(r: Any) -> bool:
    return isinstance(r, dict) and "error" in r and "code" in r


@dataclass
class State:
    intent: Intent | None
    ent: Entities
    conv: Conversation
    confidence: float = 1.0
    tentative: bool = False          # a bare-name guess: answer only if the catalog links a name
    guessed: bool = False            # no family fitted the question at all (a stricter guess)
    mine: bool = False               # my own card is meant ("my X", or "it" after a question about my cards)
    figure_asked: bool = False       # a price or listing asked of a want-list card the words do not name
    results: dict[str, Any] = field(default_factory=dict)
    many: dict[str, list[Any]] = field(default_factory=dict)   # results of ``each`` steps

    def result(self, key: str) -> Any:
        return self.results.get(key)

    def tied_with_data(self) -> set[str]:
        """Ids of the tied candidates whose population report has data (read when the link could not decide)."""
        return {str(r.get("card_id")) for r in self.many.get("tied_pops", [])
                if isinstance(r, dict) and not is_error(r) and (r.get("base") or {}).get("grading_companies")}

    def ok(self, key: str) -> Any:
        r = self.results.get(key)
        return None if r is None or is_error(r) else r
