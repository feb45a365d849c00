"""``python -m store.search FOLDER``: build the index of the catalog at ``CARDWISE_BUILD_DATABASE_URL`` (the URL
stays out of the process list) into ``FOLDER/<fingerprint>``, in a process of its own: a server builds this way
so that the build's Python does not hold its event loop's GIL for minutes (``tools._search``)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from store.db import create_engine, sessionmaker
from store.search.location import build


async def _build(url: str, root: Path) -> None:
    engine = create_engine(url)
    try:
        await build(sessionmaker(engine), root)
    finally:
        await engine.dispose()


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.environ.get("CARDWISE_BUILD_DATABASE_URL"):
        sys.exit("usage: CARDWISE_BUILD_DATABASE_URL=... python -m store.search FOLDER")
    asyncio.run(_build(os.environ["CARDWISE_BUILD_DATABASE_URL"], Path(sys.argv[1])))
