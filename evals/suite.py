"""Eval suite files (YAML) and how a run is scored.

    suite: population              # name (defaults to the file name)
    needs: [demo]                  # data the cases need: demo (the demo catalog), collections...
    cases:
      - id: pop-psa10-charizard
        input: {query: "...", context: {collectionId: ...}, history: [{role: user, content: ...}],
                maxIterations: 5}
        expect:
          tools: {mode: ordered_subset, calls: [{name: catalog_cards, args: {name: charizard}}]}
          forbidden: [feedback_general]
          answer: {contains: ["121"], not_contains: ["error"]}
          stop_reason: answer
        cassette: population/pop-psa10-charizard.yaml   # default: <suite>/<id>.yaml

Collector suites (``family`` on every case) are judged on the answer (``evals/judge.py``):

    suite: collector-tuning
    part: tuning                   # the report groups results by part and family
    needs: [real]                  # the real-catalog fixture (evals/realdata.py)
    min_pass: 0.0                  # CI: lowest share of right answers accepted for this part
    trap_wrong_card_max: null      # CI: most wrong-card answers accepted on traps (null: not checked)
    cards: {zard: {name: Charizard, number: "4", release: Base Set}}
    cases:
      - {id: p1, family: prices, kind: normal, q: "what's a psa 9 base set charizard go for",
         card: zard, fact: {price: PSA 9}, history: [[user, "..."], [assistant, "..."]],
         collection: true, writes: true, says: [[word, other word]], allow: [Pikachu]}

``fact`` names a computation in ``evals/facts.py``; ``kind`` is normal, trap, follow-up or typo.

Tool modes: ``exact`` (the same calls in the same order), ``ordered_subset`` (the expected calls
appear in this order among the actual ones), ``unordered`` (each expected call appears somewhere).
Argument matching: every expected argument must be present with an equal value (strings compare
case-insensitively; ``"*"`` accepts any value); other arguments are free.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


@dataclass
class Case:
    suite: str
    id: str
    query: str
    context: dict[str, Any] = field(default_factory=dict)
    history: list[dict[str, str]] = field(default_factory=list)
    max_iterations: int = 5
    mode: str = "ordered_subset"
    calls: list[dict[str, Any]] = field(default_factory=list)
    forbidden: list[str] = field(default_factory=list)
    contains: list[str] = field(default_factory=list)
    not_contains: list[str] = field(default_factory=list)
    stop_reason: str | None = None
    cassette: str | None = None
    needs: list[str] = field(default_factory=list)
    family: str | None = None          # collector suites: the question family (judged on the answer)
    kind: str = "normal"               # normal | trap | follow-up | typo
    part: str | None = None            # tuning | held-out
    card: Any = None                   # entity id or {name, number, release} the answer must name
    fact: dict[str, Any] = field(default_factory=dict)
    says: list[list[str]] = field(default_factory=list)
    allow: list[str] = field(default_factory=list)
    entities: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.suite}/{self.id}"


def bind(case: Case, values: dict[str, Any]) -> Case:
    """Replace ``$name`` placeholders (e.g. ``$collection``) in the context and expected arguments."""
    from dataclasses import replace

    def sub(v: Any) -> Any:
        return values.get(v[1:], v) if isinstance(v, str) and v.startswith("$") else v

    calls = [{**c, "args": {k: sub(v) for k, v in (c.get("args") or {}).items()}} for c in case.calls]
    return replace(case, context={k: sub(v) for k, v in case.context.items()}, calls=calls)


KINDS = ("normal", "trap", "follow-up", "typo")


@dataclass
class SuiteSettings:
    name: str
    part: str | None = None
    min_pass: float | None = None
    trap_wrong_card_max: int | None = None


def suite_settings(path: str | Path) -> SuiteSettings:
    doc = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    return SuiteSettings(doc.get("suite") or Path(path).stem, doc.get("part"), doc.get("min_pass"),
                         doc.get("trap_wrong_card_max"))


def _collector_case(suite: str, part: str | None, needs: list[str], entities: dict[str, Any], raw: dict) -> Case:
    kind = raw.get("kind", "normal")
    if kind not in KINDS:
        raise ValueError(f"{suite}/{raw['id']}: kind {kind!r} is not one of {KINDS}")
    if not raw.get("fact") or len(raw["fact"]) != 1:
        raise ValueError(f"{suite}/{raw['id']}: a collector case needs one fact")
    card = raw.get("card")
    if isinstance(card, str) and card not in entities:
        raise ValueError(f"{suite}/{raw['id']}: unknown card {card!r}")
    context = dict(raw.get("context") or {})
    if raw.get("collection"):
        context["collectionId"] = "$collection"
    if raw.get("writes"):
        context["allowWrites"] = True
    history = [{"role": r, "content": c} for r, c in raw.get("history") or []]
    says = [[g] if isinstance(g, str) else list(g) for g in raw.get("says") or []]
    return Case(suite=suite, id=str(raw["id"]), query=raw["q"], context=context, history=history,
                needs=needs + list(raw.get("needs") or []), family=raw["family"], kind=kind, part=part, card=card,
                fact=dict(raw["fact"]), says=says, allow=list(raw.get("allow") or []), entities=entities,
                cassette=f"{suite}/{raw['id']}.yaml", forbidden=list(raw.get("forbidden") or []))


def load_suite(path: str | Path) -> list[Case]:
    path = Path(path)
    doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    suite = doc.get("suite") or path.stem
    needs = list(doc.get("needs") or [])
    cases = []
    for raw in doc.get("cases") or []:
        if "family" in raw:
            cases.append(_collector_case(suite, doc.get("part"), needs, dict(doc.get("cards") or {}), raw))
            continue
        inp, exp = raw.get("input") or {}, raw.get("expect") or {}
        tools, answer = exp.get("tools") or {}, exp.get("answer") or {}
        cases.append(Case(
            suite=suite, id=str(raw["id"]), query=inp["query"], context=dict(inp.get("context") or {}),
            history=list(inp.get("history") or []), max_iterations=int(inp.get("maxIterations", 5)),
            mode=tools.get("mode", "ordered_subset"), calls=list(tools.get("calls") or []),
            forbidden=list(exp.get("forbidden") or []), contains=[str(s) for s in answer.get("contains") or []],
            not_contains=[str(s) for s in answer.get("not_contains") or []], stop_reason=exp.get("stop_reason"),
            cassette=raw.get("cassette") or f"{suite}/{raw['id']}.yaml", needs=needs + list(raw.get("needs") or []),
        ))
    if len({c.id for c in cases}) != len(cases):
        raise ValueError(f"{path}: duplicate case ids")
    return cases


def _value_ok(expected: Any, actual: Any) -> bool:
    if expected == "*":
        return actual is not None
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.lower() == actual.lower()
    return json.dumps(expected, sort_keys=True) == json.dumps(actual, sort_keys=True)


def call_matches(expected: dict[str, Any], name: str, args: dict[str, Any]) -> bool:
    if expected.get("name") != name:
        return False
    return all(k in args and _value_ok(v, args[k]) for k, v in (expected.get("args") or {}).items())


def _parse(arguments: str) -> dict[str, Any]:
    try:
        out = json.loads(arguments or "{}")
    except ValueError:
        return {}
    return out if isinstance(out, dict) else {}


@dataclass
class Score:
    tools_ok: bool
    forbidden_used: list[str]
    answer_ok: bool
    stop_ok: bool
    precision: float
    recall: float
    right_tool: bool
    args_matched: int
    args_expected: int
    reasons: list[str]

    @property
    def passed(self) -> bool:
        return self.tools_ok and not self.forbidden_used and self.answer_ok and self.stop_ok


def score(case: Case, actual_calls: list[tuple[str, str]], answer: str, stop_reason: str) -> Score:
    actual = [(n, _parse(a)) for n, a in actual_calls]
    names = [n for n, _ in actual]
    expected_names = [c["name"] for c in case.calls]
    reasons: list[str] = []
    matched = [any(call_matches(e, n, a) for n, a in actual) for e in case.calls]
    if case.mode == "exact":
        tools_ok = len(actual) == len(case.calls) and all(call_matches(e, n, a) for e, (n, a) in zip(case.calls, actual))
    elif case.mode == "unordered":
        tools_ok = all(matched)
    else:
        i, tools_ok = 0, True
        for e in case.calls:
            while i < len(actual) and not call_matches(e, *actual[i]):
                i += 1
            if i == len(actual):
                tools_ok = False
                break
            i += 1
    if not tools_ok:
        reasons.append(f"tool calls {names} do not match {case.mode} {expected_names}")
    forbidden = [n for n in names if n in case.forbidden]
    if forbidden:
        reasons.append(f"forbidden tools used: {forbidden}")
    low = answer.lower()
    missing = [s for s in case.contains if s.lower() not in low]
    present = [s for s in case.not_contains if s.lower() in low]
    if missing:
        reasons.append(f"answer lacks {missing}")
    if present:
        reasons.append(f"answer contains {present}")
    stop_ok = case.stop_reason is None or case.stop_reason == stop_reason
    if not stop_ok:
        reasons.append(f"stop reason {stop_reason} != {case.stop_reason}")
    got, want = set(names), set(expected_names)
    precision = len(got & want) / len(got) if got else (1.0 if not want else 0.0)
    recall = len(got & want) / len(want) if want else (1.0 if not got else 0.0)
    right = (names[:1] == expected_names[:1]) if expected_names else not names
    return Score(tools_ok, forbidden, not missing and not present, stop_ok, precision, recall, right,
                 sum(matched), len(case.calls), reasons)
