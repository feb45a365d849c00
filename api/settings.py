"""The module that reads the environment (but for the two OCR variables, read by ``vision/ocr.py``
when its engine loads, since ``vision`` imports nothing above it). Every variable, its default and
meaning:

| variable | default | meaning |
|---|---|---|
| CARDWISE_DATABASE_URL | sqlite+aiosqlite:///var/cardwise.sqlite3 | SQLAlchemy URL; `postgresql://user@host/db` uses asyncpg |
| CARDWISE_HOST | 127.0.0.1 | address to listen on |
| CARDWISE_PORT | 8080 | port to listen on |
| CARDWISE_WORKERS | 1 | `cardwise serve` processes sharing the port (SO_REUSEPORT, Linux); migrations run once before they start; each has its own database pool of CARDWISE_DB_POOL_SIZE |
| CARDWISE_LOG_LEVEL | INFO | DEBUG, INFO, WARNING, ERROR |
| CARDWISE_LOG_FORMAT | json | json (one object a line) or text |
| CARDWISE_DB_POOL_SIZE | 10 | PostgreSQL pool size (overflow as much again) |
| CARDWISE_DB_TIMEOUT_S | 10 | connect/acquire timeout for the database |
| CARDWISE_AUTH_CACHE_S | 5 | seconds an accepted API key is remembered per process (a revoked key stops working within this time; 0 = look up every request) |
| CARDWISE_DB_COMMAND_TIMEOUT_S | 30 | longest one database statement may run (asyncpg command_timeout) |
| CARDWISE_RATE_LIMIT_PER_MIN | 6000 | per-key request rate (token bucket refill per minute); 0 = no limit. Over it: 429 RATE_LIMITED with Retry-After |
| CARDWISE_RATE_LIMIT_BURST | 600 | per-key bucket size: requests a key may send at once before the rate applies |
| CARDWISE_AUTH_FAIL_PER_MIN | 60 | unknown or revoked API keys one client address may present a minute (after a burst of CARDWISE_AUTH_FAIL_BURST, 30); over it: 429 RATE_LIMITED without a key lookup; valid keys never count; 0 = no limit |
| CARDWISE_AUTH_FAIL_BURST | 30 | see CARDWISE_AUTH_FAIL_PER_MIN |
| CARDWISE_REQUEST_TIMEOUT_S | 180 | overall time for one request before it is answered 503 SERVICE_UNAVAILABLE; 0 = none |
| CARDWISE_CATALOG_CACHE_S | 60 | seconds a catalog read (search page, card, set, release, grades ...) is answered from memory per process; a catalog change made outside `cardwise import`/`cardwise vision` (e.g. by hand in SQL) shows within this time; 0 = off |
| CARDWISE_CATALOG_CACHE_ENTRIES | 4096 | most cached catalog answers per process (least recently used go first); 0 = off |
| CARDWISE_CATALOG_CACHE_MB | 64 | most megabytes of cached catalog answers per process; 0 = off |
| CARDWISE_CATALOG_VERSION_CHECK_S | 1 | seconds between each process's reads of the catalog version, which `cardwise import` and `cardwise vision` raise: when it moved, every cached catalog answer is dropped, so an import shows within this time; 0 = read before every cached answer |
| CARDWISE_SEARCH_DIR | (empty) | folder for the catalog search index (derived data, rebuilt when missing or stale); empty = beside a SQLite database file (`<file>.search`), else `var/search`; each database gets its own subfolder |
| CARDWISE_MAX_UPLOAD_BYTES | 20971520 | largest accepted image upload (20 MB) |
| CARDWISE_FEEDBACK_DAILY_LIMIT | 50 | feedback submissions per key per day |
| CARDWISE_OCR_THREADS | 2 | onnxruntime threads of each OCR model (text detection, angle, recognition) |
| CARDWISE_OCR_SPIN | 0 | 1 = onnxruntime's worker threads spin while waiting (faster only with spare cores; on a busy 2-core machine they take the core the next step needs) |
| CARDWISE_LLM_BASE_URL | (empty) | OpenAI-compatible endpoint; empty = built-in offline model |
| CARDWISE_LLM_API_KEY | (empty) | key for that endpoint |
| CARDWISE_LLM_MODEL | cardwise-builtin | model name sent to that endpoint |
| CARDWISE_LLM_TIMEOUT_S | 30 | per-request timeout to the model server |
| CARDWISE_LLM_MAX_RETRIES | 4 | attempts on 429/5xx/timeouts (tenacity, exponential backoff) |
| CARDWISE_AGENT_EMBEDDINGS | true | sentence embeddings (torch) for the agent's question families and tool retrieval; false = word patterns |
| CARDWISE_LLM_TOOL_RETRIEVAL | true | offer a real model only the tools relevant to the question; false = every permitted tool |
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from store.db import normalize_url
from tools.settings import Settings


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    env = os.environ if environ is None else environ
    base = Settings()

    def get(name: str, default: object) -> str:
        value = env.get(f"CARDWISE_{name}")
        return str(default) if value is None or value == "" else value

    return Settings(
        database_url=normalize_url(get("DATABASE_URL", base.database_url)),
        host=get("HOST", base.host),
        port=int(get("PORT", base.port)),
        workers=int(get("WORKERS", base.workers)),
        log_level=get("LOG_LEVEL", base.log_level).upper(),
        log_format=get("LOG_FORMAT", base.log_format),
        db_pool_size=int(get("DB_POOL_SIZE", base.db_pool_size)),
        db_timeout_s=float(get("DB_TIMEOUT_S", base.db_timeout_s)),
        db_command_timeout_s=float(get("DB_COMMAND_TIMEOUT_S", base.db_command_timeout_s)),
        auth_cache_s=float(get("AUTH_CACHE_S", base.auth_cache_s)),
        rate_limit_per_min=int(get("RATE_LIMIT_PER_MIN", base.rate_limit_per_min)),
        rate_limit_burst=int(get("RATE_LIMIT_BURST", base.rate_limit_burst)),
        auth_fail_per_min=int(get("AUTH_FAIL_PER_MIN", base.auth_fail_per_min)),
        auth_fail_burst=int(get("AUTH_FAIL_BURST", base.auth_fail_burst)),
        request_timeout_s=float(get("REQUEST_TIMEOUT_S", base.request_timeout_s)),
        catalog_cache_s=float(get("CATALOG_CACHE_S", base.catalog_cache_s)),
        catalog_cache_entries=int(get("CATALOG_CACHE_ENTRIES", base.catalog_cache_entries)),
        catalog_cache_mb=int(get("CATALOG_CACHE_MB", base.catalog_cache_mb)),
        catalog_version_check_s=float(get("CATALOG_VERSION_CHECK_S", base.catalog_version_check_s)),
        search_dir=env.get("CARDWISE_SEARCH_DIR", base.search_dir),
        max_upload_bytes=int(get("MAX_UPLOAD_BYTES", base.max_upload_bytes)),
        feedback_daily_limit=int(get("FEEDBACK_DAILY_LIMIT", base.feedback_daily_limit)),
        llm_base_url=env.get("CARDWISE_LLM_BASE_URL", base.llm_base_url),
        llm_api_key=env.get("CARDWISE_LLM_API_KEY", base.llm_api_key),
        llm_model=get("LLM_MODEL", base.llm_model),
        llm_timeout_s=float(get("LLM_TIMEOUT_S", base.llm_timeout_s)),
        llm_max_retries=int(get("LLM_MAX_RETRIES", base.llm_max_retries)),
        agent_embeddings=get("AGENT_EMBEDDINGS", str(base.agent_embeddings)).lower() not in ("0", "false", "no", "off"),
        llm_tool_retrieval=get("LLM_TOOL_RETRIEVAL", str(base.llm_tool_retrieval)).lower() not in
        ("0", "false", "no", "off"),
    )
