"""Base models and reusable field types shared by every tool's input and output.

``In``: input models forbid unknown fields and accept either the field name or its alias.
``Out``: output models serialise by alias and *omit* ``None`` values (optional means absent; the
official SDK crashes on some nulls) except for the fields named in ``__keep_none__``, which the
published API requires as keys even when null. ``Page[Item]``: a paginated answer, its rows under the
endpoint's own key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Annotated, Any, ClassVar, Generic, Literal, Protocol, Self, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
)
from pydantic.alias_generators import to_camel

from store.money import cents_to_money as cents_to_money  # re-exported: the tools write money with it
from store.money import money_to_cents as money_to_cents  # and read it


class In(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, str_strip_whitespace=False)


class CamelIn(In):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, alias_generator=to_camel)


class Out(BaseModel):
    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)
    __keep_none__: ClassVar[frozenset[str]] = frozenset()

    # no return annotation on purpose: pydantic then documents the fields' own schema (serialization
    # mode) instead of the annotation's, which for ``Any`` is an empty schema
    @model_serializer(mode="wrap")
    def _omit_none(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo):
        data = handler(self)
        if not isinstance(data, dict):
            return data
        keep = set()
        for name in self.__keep_none__:
            f = type(self).model_fields.get(name)
            keep.add(name)
            if f is not None and f.alias:
                keep.add(f.alias)
        return {k: v for k, v in data.items() if v is not None or k in keep}


class CamelOut(Out):
    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True, alias_generator=to_camel)


ItemT = TypeVar("ItemT")


class Window(Protocol):
    """What a list query says about its page: how many rows it skips and takes."""

    @property
    def skip(self) -> int: ...

    @property
    def take(self) -> int: ...


def listed_as(key: str) -> Callable[[str], str]:
    """The alias generator of a ``Page`` subclass: its rows are published under ``key``."""
    return lambda name: key if name == "items" else name


class Written:
    """An answer already written as JSON, in its tool's output shape: a hot path that splices stored
    fragments (``store/search/pages.py``) instead of building the model. REST sends the bytes as they are."""

    __slots__ = ("json",)

    def __init__(self, json: bytes) -> None:
        self.json = json


class Page(Out, Generic[ItemT]):
    """One page of a list answer: the rows under the endpoint's published key, the total and the window.

    A subclass names the key and is the schema's name in the document:
    ``class SetsPage(Page[SetOut], alias_generator=listed_as("sets")): ...``
    """

    items: list[ItemT]
    total_count: int
    skip: int
    take: int

    @classmethod
    def of(cls, items: Sequence[ItemT], total: int, window: Window, **more: Any) -> Self:
        """The page of ``items`` out of ``total`` that ``window`` (the query's skip and take) asked for."""
        return cls(items=list(items), total_count=total, skip=window.skip, take=window.take, **more)


# --------------------------------------------------------------------------- field types
_UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
_UUID_ANY_RE = re.compile(
    r"^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}"
    r"|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$"
)


def _uuid_str(value: Any) -> str:
    if not isinstance(value, str):
        value = str(value)
    if not _UUID_RE.match(value):
        raise ValueError("must be a UUID (versions 1-5, lowercase hex)")
    return value


def _uuid_collection_str(value: Any) -> str:
    if not isinstance(value, str):
        value = str(value)
    if not _UUID_ANY_RE.match(value):
        raise ValueError("must be a UUID (versions 1-8, nil or max)")
    return value.lower()


# A catalog identifier: a v1-5 lowercase UUID string.
UUIDStr = Annotated[str, BeforeValidator(_uuid_str), Field(json_schema_extra={"format": "uuid"})]
# A collection-input identifier: v1-8 any case, plus nil and max; normalised to lowercase.
LooseUUIDStr = Annotated[str, BeforeValidator(_uuid_collection_str), Field(json_schema_extra={"format": "uuid"})]

Take = Annotated[int, Field(ge=1, le=100, description="Page size, 1-100")]
Skip = Annotated[int, Field(ge=0, le=2**53 - 1, description="Offset of the first result")]
Count = Annotated[int, Field(ge=1, le=200, description="How many random results, 1-200")]
Order = Annotated[Literal["asc", "desc"], Field(description="Sort direction: asc or desc")]
BoolStr = Literal["true", "false"]

_YEAR_RE = re.compile(r"^\d{4}(?:-\d{2,4})?$", re.ASCII)


def _year(value: Any) -> str:
    value = str(value)
    if not _YEAR_RE.match(value):
        raise ValueError("must be a year such as 2024 (a string)")
    return value


Year = Annotated[str, BeforeValidator(_year)]

_MONEY_RE = re.compile(r"^\d{1,9}(?:\.\d{1,2})?$", re.ASCII)


def _money(value: Any) -> str:
    if isinstance(value, bool):
        raise ValueError("must be a USD amount such as '12.50'")
    if isinstance(value, (int, float, Decimal)):
        value = format(Decimal(str(value)), "f")
    if not isinstance(value, str) or not _MONEY_RE.match(value):
        raise ValueError("must be a non-negative USD amount with at most 2 decimals, e.g. '12.50'")
    return value


Money = Annotated[str, BeforeValidator(_money)]

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$", re.ASCII)


def _date_str(value: Any) -> str:
    from datetime import date

    if not isinstance(value, str) or not _DATE_RE.match(value):
        raise ValueError("must be a date YYYY-MM-DD")
    date.fromisoformat(value)  # rejects 2024-02-30
    return value


DateStr = Annotated[str, AfterValidator(_date_str)]


class ServerMessage(Out):
    """An advisory beside an answer (the published API's ``messages``): nothing failed, but read this."""

    type: Literal["info", "warning"] = Field(description="Severity: info or warning")
    message: str = Field(description="What the caller should know")


def advisories(*items: tuple[bool, Literal["info", "warning"], str]) -> list[ServerMessage] | None:
    """``messages`` from (applies, type, text) triples; None (omitted) when none applies."""
    out = [ServerMessage(type=kind, message=text) for applies, kind, text in items if applies]
    return out or None


class ErrorBody(BaseModel):
    """The body of every error response."""

    error: str = Field(description="Human-readable message")
    code: str = Field(description="Stable code for programmatic handling")


class Binary(BaseModel):
    """A binary result (an image, a zip). REST sends the bytes; it is never an agent tool's result."""

    content: bytes
    content_type: str
    headers: dict[str, str] = {}


class Upload(BaseModel):
    """An uploaded file as a tool input field: the bytes plus the declared content type and name."""

    data: bytes
    content_type: str | None = None
    filename: str | None = None
