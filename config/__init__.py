"""Settings as plain data, below every layer (cli, api, agent, tools, store may read them; it imports
nothing of Cardwise). ``api/settings.py`` is the only code that reads the environment into it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    database_url: str = f"sqlite+aiosqlite:///{Path('var') / 'cardwise.sqlite3'}"
    host: str = "127.0.0.1"
    port: int = 8080
    workers: int = 1  # server processes (cardwise serve)
    log_level: str = "INFO"
    log_format: str = "json"  # json | text
    db_pool_size: int = 10
    db_timeout_s: float = 10.0
    max_upload_bytes: int = 20 * 1024 * 1024
    db_command_timeout_s: float = 30.0
    # per-key token bucket: refill per minute and bucket size; 0 turns the limit off
    auth_cache_s: float = 5.0
    rate_limit_per_min: int = 6000
    rate_limit_burst: int = 600
    # failed API-key lookups per client address: refill per minute and bucket size; 0 turns it off
    auth_fail_per_min: int = 60
    auth_fail_burst: int = 30
    # Redis URL for the rate limits and failed-key counters shared by every process and node; empty = per process
    redis_url: str = ""
    # overall time one request may take before it is answered 503 (above the agent's worst case of
    # llm_timeout_s x llm_max_retries plus backoff); 0 turns it off
    request_timeout_s: float = 180.0
    # cached catalog reads (api/response_cache.py): seconds an answer is reused and how many are kept
    catalog_cache_s: float = 60.0
    catalog_cache_entries: int = 4096
    catalog_cache_mb: int = 64
    # seconds between reads of the catalog version (raised by imports): cached answers are dropped when it moves
    catalog_version_check_s: float = 1.0
    # folder for the catalog search index; empty = beside a SQLite database file, else var/search
    search_dir: str = ""
    # log event-loop stalls longer than this many milliseconds, with where the loop was held (0 = off)
    stall_log_ms: float = 0.0
    feedback_daily_limit: int = 50
    # photo identification: seconds from the upload for a one-card photo's closer reads, and more for each
    # further card; past it the reads under way finish and the rest are skipped (0 = no budget)
    identify_budget_s: float = 0.8
    identify_budget_per_card_s: float = 0.5
    feedback_duplicate_window_s: int = 3600
    # agent: an OpenAI-compatible endpoint; empty base URL means the built-in offline model
    llm_base_url: str = ""
    llm_api_key: str = ""
    llm_model: str = "cardwise-builtin"
    llm_timeout_s: float = 30.0
    llm_max_retries: int = 4
    # the MCP endpoint (/mcp) offers the tools that change stored data too
    mcp_allow_writes: bool = False
    # agent: sentence embeddings for question families and tool retrieval (false: word patterns only)
    agent_embeddings: bool = True
    # agent: folder for embeddings of fixed texts (example bank, tool descriptions); empty = ~/.cache/cardwise
    agent_cache_dir: str = ""
    # agent: torch threads for one question's embedding (one short sentence: more threads only contend)
    agent_threads: int = 1
    # agent: a real model is offered only the tools relevant to the question (false: every permitted tool)
    llm_tool_retrieval: bool = True
    extra: dict[str, str] = field(default_factory=dict)
