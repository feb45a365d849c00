"""``cardwise import listings FILE``: active marketplace listings from a JSON or CSV file.

Format (JSON: a list of objects or ``{"synthetic": false, "listings": [...]}``; CSV: a header row
with the same keys):

    title (required), source (required, marketplace name), price (USD number; required unless
    listing_type is "search"), listing_type (auction | fixed), url, image_url, condition (seller
    text), end_date (ISO 8601), bid_count (auctions), external_id (idempotent re-import),
    card_id, parallel_id, grade ("PSA 10", "BGS 9.5") or grade_id

Rows without ``card_id`` go through the title matcher (store/matching.py); when it is unsure the
listing is kept without a card (it still appears in search, without ``matched_card``).
"""

from __future__ import annotations

import csv
import json
import logging
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.importers._skips import Skips
from store.importers.grades import load as load_grades
from store.matching import TitleMatcher
from store.models import MarketplaceListing
from store.search import open_current

NAME = "listings"
HELP = "active marketplace listings from a JSON or CSV file (format in store/importers/listings.py)"
NEEDS_SOURCE = True

log = logging.getLogger("cardwise.market")
NS = uuid.uuid5(uuid.NAMESPACE_URL, "https://cardwise.invalid/listing")


def _opt_uuid(v: Any) -> uuid.UUID | None:
    return uuid.UUID(str(v)) if v not in (None, "") else None


def _ts(v: Any) -> datetime | None:
    if v in (None, ""):
        return None
    ts = datetime.fromisoformat(str(v).replace("Z", "+00:00"))
    return ts if ts.tzinfo else ts.replace(tzinfo=timezone.utc)


async def store_listings(session: AsyncSession, rows: list[dict[str, Any]], *, synthetic: bool,
                         matcher: TitleMatcher | None = None, file: str | Path = "", first: int = 1) -> dict[str, Any]:
    """Store listing rows; ``file`` and ``first`` (the first row's number there) name skipped rows."""
    counts: dict[str, Any] = {"listings": 0, "matched": 0, "unmatched": 0, "skipped_rows": 0}
    skips = Skips(log, NAME)
    for i, row in enumerate(rows, start=first):
        try:
            title, source = str(row["title"]).strip(), str(row["source"]).strip()
            kind = str(row.get("listing_type") or "fixed").lower()
            if not title or not source or kind not in ("auction", "fixed"):
                raise ValueError("title, source and listing_type auction|fixed are required")
            cents = int(round(float(row["price"]) * 100))
            if cents < 0:
                raise ValueError("negative price")
            card_id, parallel_id = _opt_uuid(row.get("card_id")), _opt_uuid(row.get("parallel_id"))
            grade_id = _opt_uuid(row.get("grade_id"))
            if card_id is None:
                matcher = matcher or await TitleMatcher.load(session)
                m = matcher.match(title)
                if m is not None:
                    card_id, parallel_id, grade_id = m.card_id, m.parallel_id, m.grade_id
            elif grade_id is None and row.get("grade"):
                matcher = matcher or await TitleMatcher.load(session)
                grade_id = matcher.grade(str(row["grade"]))[1]
            bids = row.get("bid_count")
            ext = str(row.get("external_id") or "") or None
        except (KeyError, ValueError, TypeError) as exc:
            skips.add(file, i, str(exc))
            counts["skipped_rows"] += 1
            continue
        counts["matched" if card_id else "unmatched"] += 1
        await session.merge(MarketplaceListing(
            id=uuid.uuid5(NS, ext) if ext else uuid.uuid4(), card_id=card_id, parallel_id=parallel_id,
            grade_id=grade_id, title=title, source=source, price_cents=cents, listing_type=kind,
            url=row.get("url") or None, image_url=row.get("image_url") or None, condition=row.get("condition") or None,
            end_date=_ts(row.get("end_date")), bid_count=int(bids) if bids not in (None, "") and kind == "auction" else None,
            external_id=ext, synthetic=synthetic))
        counts["listings"] += 1
    return {**counts, **skips.summary()}


async def run(sessions: async_sessionmaker[AsyncSession], source: str | None, *, progress: Any = None,
              search_root: Path | None = None) -> dict[str, Any]:
    """``search_root``: the catalog search index's folder (``cardwise import`` passes it); the title matcher
    then asks the index for candidates instead of reading every card."""
    path = Path(str(source))
    if path.suffix.lower() == ".json":
        doc = json.loads(path.read_text())
        rows, synthetic = (doc, False) if isinstance(doc, list) else (doc.get("listings", []), bool(doc.get("synthetic")))
        first = 0  # JSON: the row's index in the array
    else:
        with path.open(newline="") as fh:
            rows, synthetic = list(csv.DictReader(fh)), False
        first = 2  # CSV: the row's line (after the header)
    index = await open_current(sessions, search_root) if search_root is not None else None
    async with sessions() as s, s.begin():
        await load_grades(s)
        matcher = await TitleMatcher.load(s, index) if index is not None else None
        return await store_listings(s, rows, synthetic=synthetic, matcher=matcher, file=path, first=first)
