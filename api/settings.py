"""The module that reads the environment, with pydantic-settings: a value Cardwise cannot use stops the
command with the variable's name and what it expects. (The two OCR variables are read by
``vision/ocr.py`` when its engine loads, since ``vision`` imports nothing above it.) Every variable,
its default and meaning:

| variable | default | meaning |
|---|---|---|
| CARDWISE_DATABASE_URL | sqlite+aiosqlite:///var/cardwise.sqlite3 | SQLAlchemy URL; `postgresql://user@host/db` uses asyncpg |
| CARDWISE_HOST | 127.0.0.1 | address to listen on |
| CARDWISE_PORT | 8080 | port to listen on |
| CARDWISE_WORKERS | 1 | `cardwise serve` processes sharing the port (SO_REUSEPORT, Linux); migrations run once before they start; each has its own database pool of CARDWISE_DB_POOL_SIZE |
| CARDWISE_LOG_LEVEL | INFO | DEBUG, INFO, WARNING, ERROR |
| CARDWISE_LOG_FORMAT | json | json (one object a line) or text |
| CARDWISE_DB_POOL_SIZE | 10 | PostgreSQL pool size (overflow as much again); a SQLite file keeps twice as many connections open, with no overflow |
| CARDWISE_DB_TIMEOUT_S | 10 | connect/acquire timeout for the database |
| CARDWISE_AUTH_CACHE_S | 5 | seconds an accepted API key is remembered per process (a revoked key stops working within this time; 0 = look up every request) |
| CARDWISE_DB_COMMAND_TIMEOUT_S | 30 | longest one database statement may run (asyncpg command_timeout) |
| CARDWISE_RATE_LIMIT_PER_MIN | 6000 | per-key request rate (token bucket refill per minute); 0 = no limit. Over it: 429 RATE_LIMITED with Retry-After |
| CARDWISE_RATE_LIMIT_BURST | 600 | per-key bucket size: requests a key may send at once before the rate applies |
| CARDWISE_AUTH_FAIL_PER_MIN | 60 | unknown or revoked API keys one client address may present a minute (after a burst of CARDWISE_AUTH_FAIL_BURST, 30); over it: 429 RATE_LIMITED without a key lookup; valid keys never count; 0 = no limit |
| CARDWISE_AUTH_FAIL_BURST | 30 | see CARDWISE_AUTH_FAIL_PER_MIN |
| CARDWISE_REDIS_URL | (empty) | `redis://host:6379/0`: the per-key rate limit and the failed-key counters live in Redis, shared by every process and node (if Redis cannot be reached, each process counts on its own meanwhile); empty = per process |
| CARDWISE_REQUEST_TIMEOUT_S | 180 | overall time for one request before it is answered 503 SERVICE_UNAVAILABLE; 0 = none |
| CARDWISE_CATALOG_CACHE_S | 60 | seconds a catalog read (search page, card, set, release, grades ...) is answered from memory per process; a catalog change made outside `cardwise import`/`cardwise vision` (e.g. by hand in SQL) shows within this time (a quarter more while a late background refresh runs); 0 = off |
| CARDWISE_CATALOG_CACHE_ENTRIES | 4096 | most cached catalog answers per process (least recently used go first); 0 = off |
| CARDWISE_CATALOG_CACHE_MB | 64 | most megabytes of cached catalog answers per process; 0 = off |
| CARDWISE_CATALOG_VERSION_CHECK_S | 1 | seconds between each process's reads of the catalog version, which `cardwise import` and `cardwise vision` raise: when it moved, every cached catalog answer is dropped, so an import shows within this time; 0 = read before every cached answer |
| CARDWISE_SEARCH_DIR | (empty) | folder for the catalog search index (derived data, rebuilt when missing or stale); empty = beside a SQLite database file (`<file>.search`), else `var/search`; each database gets its own subfolder |
| CARDWISE_STALL_LOG_MS | 0 | log a warning ("event loop blocked", with how long and the innermost frames where) when one process's event loop is held longer than this many milliseconds (a blocking call delays every request of that process; under load, one turn of the loop serving many ready requests counts too); 0 = off |
| CARDWISE_MAX_UPLOAD_BYTES | 20971520 | largest accepted image upload (20 MB) |
| CARDWISE_FEEDBACK_DAILY_LIMIT | 50 | feedback submissions per key per day |
| CARDWISE_FEEDBACK_DUPLICATE_WINDOW_S | 3600 | seconds in which the same message about the same entity is refused as a duplicate |
| CARDWISE_IDENTIFY_BUDGET_S | 0.8 | photo identification: seconds from the upload within which a one-card photo's closer reads (enlarged, grey, turned, corners, small print) may start; past it the answer is what the reads so far give; 0 = no budget |
| CARDWISE_IDENTIFY_BUDGET_PER_CARD_S | 0.5 | added to that budget for each further card located in the photo (a 9-card binder page: 4.8 s) |
| CARDWISE_OCR_THREADS | 2 | onnxruntime threads of each OCR model (text detection, angle, recognition) |
| CARDWISE_OCR_SPIN | 0 | 1 = onnxruntime's worker threads spin while waiting (faster only with spare cores; on a busy 2-core machine they take the core the next step needs) |
| CARDWISE_LLM_BASE_URL | (empty) | OpenAI-compatible endpoint; empty = built-in offline model |
| CARDWISE_LLM_API_KEY | (empty) | key for that endpoint |
| CARDWISE_LLM_MODEL | cardwise-builtin | model name sent to that endpoint |
| CARDWISE_LLM_TIMEOUT_S | 30 | per-request timeout to the model server |
| CARDWISE_LLM_MAX_RETRIES | 4 | attempts on 429/5xx/timeouts (tenacity, exponential backoff) |
| CARDWISE_AGENT_EMBEDDINGS | true | sentence embeddings (torch) for the agent's question families and tool retrieval; false = word patterns |
| CARDWISE_AGENT_CACHE_DIR | (empty) | folder where the agent keeps the embeddings of its example bank and tool descriptions, keyed by their text and the model, so a process starts without embedding them again; empty = `$XDG_CACHE_HOME/cardwise` (else `~/.cache/cardwise`); the eight most recently used files are kept; a folder it cannot write only costs that time |
| CARDWISE_AGENT_THREADS | 1 | torch threads the agent's sentence embeddings use; one short question gains nothing from more, and on a busy machine more threads contend (measured 15x slower at 2 under load) |
| CARDWISE_LLM_TOOL_RETRIEVAL | true | offer a real model only the tools relevant to the question; false = every permitted tool |
"""

from __future__ import annotations

import dataclasses
import os
import typing
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Annotated, Any

from pydantic import Field, ValidationError, create_model, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from config import Settings
from tools.storage import normalize_url

PREFIX = "CARDWISE_"
_NOT_FROM_ENV = {"extra"}
# what a variable must be, beyond its type: checked when read, said when it is wrong
_RULES: dict[str, dict[str, Any]] = {
    "port": {"ge": 1, "le": 65535, "description": "a TCP port number, 1-65535"},
    "workers": {"ge": 1, "le": 256, "description": "a number of server processes, 1-256"},
    "log_level": {"pattern": "(?i)^(DEBUG|INFO|WARNING|ERROR|CRITICAL)$",
                  "description": "one of DEBUG, INFO, WARNING, ERROR, CRITICAL"},
    "log_format": {"pattern": "^(json|text)$", "description": "json or text"},
    "db_pool_size": {"ge": 1, "description": "a pool size of at least 1"},
    "db_timeout_s": {"gt": 0, "description": "seconds, more than 0"},
    "db_command_timeout_s": {"gt": 0, "description": "seconds, more than 0"},
    "max_upload_bytes": {"ge": 1024, "description": "a size in bytes, at least 1024"},
    "llm_timeout_s": {"gt": 0, "description": "seconds, more than 0"},
    "llm_max_retries": {"ge": 1, "le": 20, "description": "a number of attempts, 1-20"},
    "agent_threads": {"ge": 1, "le": 64, "description": "a number of threads, 1-64"},
}
_KIND = {int: "a whole number of at least 0", float: "a number of at least 0", str: "text"}
_ENVIRON: ContextVar[Mapping[str, str] | None] = ContextVar("cardwise_environ", default=None)


class ConfigError(ValueError):
    """A CARDWISE_* variable with a value Cardwise cannot use; the message names it and what it expects."""


class _Environ(PydanticBaseSettingsSource):
    """CARDWISE_* variables from the environment (or the mapping ``load_settings`` was given); empty = unset."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        environ = _ENVIRON.get()
        raw = (os.environ if environ is None else environ).get(PREFIX + field_name.upper())
        return (None if raw is None or raw == "" else raw), field_name, False

    def __call__(self) -> dict[str, Any]:
        out = {}
        for name, f in self.settings_cls.model_fields.items():
            value, key, _ = self.get_field_value(f, name)
            if value is not None:
                out[key] = value
        return out


class _Base(BaseSettings):
    model_config = SettingsConfigDict(extra="ignore")

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (_Environ(settings_cls),)

    @field_validator("*", mode="before")
    @classmethod
    def _strip(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value


def _env_model() -> type[BaseSettings]:
    """One pydantic-settings field per ``Settings`` field (so a new setting is read without more code)."""
    hints = typing.get_type_hints(Settings)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(Settings):
        if f.name in _NOT_FROM_ENV:
            continue
        typ = hints[f.name]
        rules = _RULES.get(f.name) or ({"ge": 0, "description": _KIND[typ]} if typ in (int, float)
                                       else {"description": _KIND.get(typ, "text")})
        fields[f.name] = (Annotated[typ, Field(**rules)], f.default)
    return create_model("CardwiseEnvironment", __base__=_Base, **fields)


EnvSettings = _env_model()


def _explain(exc: ValidationError, environ: Mapping[str, str]) -> str:
    lines = []
    for err in exc.errors():
        name = str(err["loc"][0]) if err["loc"] else "?"
        var = PREFIX + name.upper()
        expects = EnvSettings.model_fields[name].description if name in EnvSettings.model_fields else None
        shown = "(hidden)" if "key" in name else repr(environ.get(var, ""))
        lines.append(f"{var}={shown} is not usable: expected {expects or err['msg']}")
    return "invalid configuration:\n  " + "\n  ".join(lines)


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Read every CARDWISE_* variable; a bad value raises ``ConfigError`` naming it and what it expects."""
    token = _ENVIRON.set(environ)
    try:
        values = EnvSettings()
    except ValidationError as exc:
        raise ConfigError(_explain(exc, os.environ if environ is None else environ)) from None
    finally:
        _ENVIRON.reset(token)
    data = {name: getattr(values, name) for name in EnvSettings.model_fields}
    data["database_url"] = normalize_url(data["database_url"])
    data["log_level"] = data["log_level"].upper()
    return Settings(**data)
