"""``cardwise import images DIR``: attach reference images to catalog cards.

Mapping (documented contract):
- ``DIR/images.csv`` if present, with a header ``card_id,file[,side]``: each row attaches
  ``DIR/<file>`` to the card ``card_id`` (side ``front`` by default, or ``back``);
- otherwise every ``*.jpg|*.jpeg|*.png|*.webp`` file whose name (without extension) is a card
  UUID, optionally suffixed ``_back`` for the back, e.g. ``4b0e...-...e1.jpg``.
Unknown cards and unreadable files are skipped: each is logged and listed in the summary (file, reason). Re-importing
replaces the image of the same card and side (idempotent). The visual features used by photo
identification are computed afterwards by the CLI (``cardwise import images`` does both).
"""

from __future__ import annotations

import csv
import io
import logging
import uuid
from pathlib import Path
from typing import Any

from PIL import Image
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from store.importers._skips import Skips
from store.models import Card, CardImage

log = logging.getLogger("cardwise.catalog")

NAME = "images"
HELP = "reference images for catalog cards from a folder (file name = card UUID, or images.csv)"
NEEDS_SOURCE = True
EXTS = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png", ".webp": "image/webp"}
MAX_BYTES = 20 * 1024 * 1024


def mapping(root: Path) -> list[tuple[str, Path, str]]:
    """[(card id text, file, side)] from ``images.csv`` or the file names."""
    manifest = root / "images.csv"
    if manifest.exists():
        with manifest.open(newline="", encoding="utf-8") as f:
            return [(row["card_id"].strip(), root / row["file"].strip(), (row.get("side") or "front").strip() or "front")
                    for row in csv.DictReader(f) if row.get("card_id") and row.get("file")]
    out = []
    for p in sorted(root.iterdir()):
        if p.suffix.lower() not in EXTS:
            continue
        stem, side = p.stem, "front"
        if stem.lower().endswith("_back"):
            stem, side = stem[:-5], "back"
        out.append((stem, p, side))
    return out


async def run(sessions: async_sessionmaker[AsyncSession], source: str | None = None, *, progress: Any = None
              ) -> dict[str, int]:
    root = Path(source or ".")
    if not root.is_dir():
        raise SystemExit(f"{root} is not a folder")
    items = mapping(root)
    bar = progress("images", len(items)) if progress else None
    counts: dict[str, Any] = {"images": 0, "skipped_images": 0}
    skips = Skips(log, NAME, root)
    async with sessions() as s, s.begin():
        for card_text, path, side in items:
            if bar:
                bar.advance(1)
            try:
                cid = uuid.UUID(card_text)
                data = path.read_bytes()
                if len(data) > MAX_BYTES:
                    raise ValueError("larger than 20 MB")
                with Image.open(io.BytesIO(data)) as im:
                    w, h = im.size
                    fmt = (im.format or "").lower()
            except (ValueError, OSError) as exc:
                skips.add(path, None, str(exc))
                counts["skipped_images"] += 1
                continue
            if (await s.scalar(select(Card.id).where(Card.id == cid))) is None:
                skips.add(path, None, f"no card {cid}")
                counts["skipped_images"] += 1
                continue
            ctype = {"jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp"}.get(fmt)
            if ctype is None:
                skips.add(path, None, f"format {fmt or 'unknown'}")
                counts["skipped_images"] += 1
                continue
            await s.execute(delete(CardImage).where(CardImage.card_id == cid, CardImage.side == side))
            s.add(CardImage(card_id=cid, side=side, content_type=ctype, data=data, width=w, height=h,
                            source=f"import:{path.name}"))
            counts["images"] += 1
    if bar:
        bar.close()
    return {**counts, **skips.summary()}
