"""Engine and session factory. SQLite (aiosqlite) is the embedded default; PostgreSQL via asyncpg."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

DEFAULT_SQLITE_PATH = Path("var") / "cardwise.sqlite3"


def normalize_url(url: str) -> str:
    """Accept plain ``sqlite:///x`` / ``postgresql://...`` URLs and pick the async driver."""
    u = make_url(url)
    if u.drivername in ("sqlite", "sqlite+pysqlite"):
        u = u.set(drivername="sqlite+aiosqlite")
    elif u.drivername in ("postgresql", "postgres", "postgresql+psycopg2", "postgresql+psycopg"):
        u = u.set(drivername="postgresql+asyncpg")
    return u.render_as_string(hide_password=False)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _sqlite_pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - exercised on every connect
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def create_engine(url: str, *, pool_size: int = 10, connect_timeout: float = 10.0,
                  command_timeout: float = 30.0) -> AsyncEngine:
    url = normalize_url(url)
    if is_sqlite(url):
        path = make_url(url).database
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # a file database keeps its connections: each new aiosqlite connection starts a thread on the event
        # loop (milliseconds, blocking it), and a pool's overflow connections are closed as they are returned,
        # so beyond the pool every checkout opened one. Requests past the pool wait for a connection instead
        pool = ({"pool_size": 2 * pool_size, "max_overflow": 0, "pool_timeout": connect_timeout}
                if path and path != ":memory:" and make_url(url).query.get("mode") != "memory" else {})
        engine = create_async_engine(url, connect_args={"timeout": 15}, **pool)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_pre_ping=True,
        pool_timeout=connect_timeout,
        # JIT compilation costs seconds on analytic queries over small data; an OLTP service never wins from it
        connect_args={"timeout": connect_timeout, "command_timeout": command_timeout,
                      "server_settings": {"jit": "off"}},
    )


def sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
