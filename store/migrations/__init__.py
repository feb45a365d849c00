"""Alembic migrations: the only DDL path, the same on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from store.db import normalize_url

HERE = Path(__file__).parent


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    cfg.attributes["configure_logger"] = False
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` up to ``revision`` (blocking; call from a thread in async code)."""
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


def current(url: str) -> str | None:
    """The revision the database at ``url`` is on (None before the first migration)."""
    import asyncio

    from alembic.runtime.migration import MigrationContext

    from store.db import create_engine

    async def _read() -> str | None:
        engine = create_engine(url)
        try:
            async with engine.connect() as conn:
                return await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())
        finally:
            await engine.dispose()

    return asyncio.run(_read())
