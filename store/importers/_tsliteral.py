"""Read the data of a TypeScript module made of one object literal (tcgdex's ``data/**.ts``), never running it.

``module_value(text)`` returns the value assigned by the module's first ``const NAME[: Type] = ...``
(or its ``export default {...}``) as Python data: objects -> dicts, arrays -> lists, strings,
numbers, ``true``/``false``/``null``/``undefined``. A bare identifier (``set: Set``, ``serie:
serie``) becomes ``Ref("Set")``; ``imports(text)`` maps such names to the paths they are imported
from. Comments and trailing commas are allowed; anything computed (calls, spreads, operators,
template literals with ``${}``) raises ``ValueError`` naming the line, so a file that is not plain
data is reported, not evaluated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Ref:
    """A name the literal refers to (an import, e.g. the card's set)."""

    name: str


_ASSIGN = re.compile(r"(?:^|\n)\s*(?:export\s+)?(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*(?::\s*[^=\n]+?)?\s*=\s*")
_DEFAULT = re.compile(r"(?:^|\n)\s*export\s+default\s+(?=[{\[])")
_IMPORT = re.compile(r"""import\s+([A-Za-z_$][\w$]*)\s+from\s+(['"])((?:\\.|(?!\2).)*)\2""")
_NUMBER = re.compile(r"-?(?:0[xX][0-9a-fA-F_]+|(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_WORDS = {"true": True, "false": False, "null": None, "undefined": None}
_STRING = {q: re.compile(q + r"((?:[^" + q + r"\\]|\\.)*)" + q, re.S) for q in "\"'`"}
_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
MAX_DEPTH = 64


def imports(text: str) -> dict[str, str]:
    """``{local name: module path}`` of the module's default imports."""
    return {m.group(1): _unescape(m.group(3), 0, text) for m in _IMPORT.finditer(text)}


def module_value(text: str) -> Any:
    m = _ASSIGN.search(text) or _DEFAULT.search(text)
    if m is None:
        raise ValueError("no `const NAME = {...}` or `export default {...}` in this module")
    value, _ = _Parser(text).value(m.end(), 0)
    return value


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _unescape(body: str, pos: int, text: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1] if i + 1 < len(body) else ""
        if nxt == "u" and body[i + 2:i + 3] == "{":
            end = body.index("}", i)
            out.append(chr(int(body[i + 3:end], 16)))
            i = end + 1
        elif nxt == "u":
            out.append(chr(int(body[i + 2:i + 6], 16)))
            i += 6
        elif nxt == "x":
            out.append(chr(int(body[i + 2:i + 4], 16)))
            i += 4
        elif nxt == "\n":  # a line continuation
            i += 2
        elif nxt == "\r":
            i += 3 if body[i + 2:i + 3] == "\n" else 2
        else:
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
    return "".join(out)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text

    def fail(self, pos: int, what: str) -> ValueError:
        return ValueError(f"line {_line(self.text, pos)}: {what}")

    def skip(self, pos: int) -> int:
        """Past whitespace and comments."""
        pos = _SPACE.match(self.text, pos).end()  # type: ignore[union-attr]  # matches the empty string too
        if self.text.startswith("/*", pos):
            raise self.fail(pos, "unclosed comment")
        return pos

    def value(self, pos: int, depth: int) -> tuple[Any, int]:
        if depth > MAX_DEPTH:
            raise self.fail(pos, "nested too deep")
        pos = self.skip(pos)
        t = self.text
        if pos >= len(t):
            raise self.fail(pos, "unexpected end of module")
        ch = t[pos]
        if ch == "{":
            return self.obj(pos + 1, depth + 1)
        if ch == "[":
            return self.arr(pos + 1, depth + 1)
        if ch in "\"'`":
            return self.string(pos)
        m = _NUMBER.match(t, pos)
        if m:
            raw = m.group().replace("_", "")
            num: Any = int(raw, 16) if raw.lower().lstrip("-").startswith("0x") else (
                float(raw) if any(c in raw for c in ".eE") else int(raw))
            return num, m.end()
        m = _IDENT.match(t, pos)
        if m:
            word = m.group()
            if word in _WORDS:
                return _WORDS[word], m.end()
            end = self.skip(m.end())
            if end < len(t) and t[end] in "(.[":  # a call or member access: computed, not data
                raise self.fail(pos, f"`{word}{t[end]}...` is computed, not a literal")
            return Ref(word), m.end()
        raise self.fail(pos, f"unexpected {ch!r}")

    def string(self, pos: int) -> tuple[str, int]:
        t = self.text
        quote = t[pos]
        m = _STRING[quote].match(t, pos)
        if m is None:
            raise self.fail(pos, "unclosed string")
        body = m.group(1)
        if quote == "`" and "${" in body:
            raise self.fail(pos, "a template literal with ${...} is computed, not a literal")
        if quote != "`" and "\n" in body.replace("\\\n", ""):
            raise self.fail(pos, "a line break inside a string")
        return (_unescape(body, pos, t) if "\\" in body else body), m.end()

    def key(self, pos: int) -> tuple[str, int]:
        t = self.text
        if pos < len(t) and t[pos] in "\"'":
            return self.string(pos)
        m = _IDENT.match(t, pos) or _NUMBER.match(t, pos)
        if not m:
            raise self.fail(pos, f"expected a property name, found {t[pos:pos + 1]!r}")
        return m.group(), m.end()

    def obj(self, pos: int, depth: int) -> tuple[dict[str, Any], int]:
        out: dict[str, Any] = {}
        t = self.text
        while True:
            pos = self.skip(pos)
            if pos < len(t) and t[pos] == "}":
                return out, pos + 1
            if t.startswith("...", pos):
                raise self.fail(pos, "a spread (...) is computed, not a literal")
            k, pos = self.key(pos)
            pos = self.skip(pos)
            if pos < len(t) and t[pos] == ":":
                out[k], pos = self.value(pos + 1, depth)
            elif pos < len(t) and t[pos] in ",}" and _IDENT.fullmatch(k):  # shorthand `{ set }`
                out[k] = Ref(k)
            else:
                raise self.fail(pos, f"expected ':' after {k!r}")
            pos = self.skip(pos)
            if pos < len(t) and t[pos] == ",":
                pos += 1
            elif pos < len(t) and t[pos] == "}":
                return out, pos + 1
            else:
                raise self.fail(pos, f"expected ',' or '}}' after the value of {k!r}")

    def arr(self, pos: int, depth: int) -> tuple[list[Any], int]:
        out: list[Any] = []
        t = self.text
        while True:
            pos = self.skip(pos)
            if pos < len(t) and t[pos] == "]":
                return out, pos + 1
            if t.startswith("...", pos):
                raise self.fail(pos, "a spread (...) is computed, not a literal")
            item, pos = self.value(pos, depth)
            out.append(item)
            pos = self.skip(pos)
            if pos < len(t) and t[pos] == ",":
                pos += 1
            elif pos < len(t) and t[pos] == "]":
                return out, pos + 1
            else:
                raise self.fail(pos, "expected ',' or ']' in an array")
