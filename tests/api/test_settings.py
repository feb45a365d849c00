"""Configuration comes from CARDWISE_* environment variables with documented defaults."""

from __future__ import annotations

from api.settings import load_settings


def test_defaults():
    s = load_settings({})
    assert s.database_url.startswith("sqlite+aiosqlite:///") and s.database_url.endswith("var/cardwise.sqlite3")
    assert (s.host, s.port) == ("127.0.0.1", 8080)
    assert s.llm_base_url == ""  # the built-in model
    assert s.agent_threads == 1  # one question's embedding on one thread


def test_environment_overrides_and_driver_selection():
    s = load_settings({"CARDWISE_DATABASE_URL": "postgresql://u@db:5432/cards", "CARDWISE_PORT": "9000",
                       "CARDWISE_LOG_LEVEL": "debug", "CARDWISE_AGENT_THREADS": "3"})
    assert s.database_url == "postgresql+asyncpg://u@db:5432/cards"
    assert s.port == 9000 and s.log_level == "DEBUG" and s.agent_threads == 3
