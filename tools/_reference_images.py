"""Computing the visual features (perceptual hash, colour) of stored reference images.

``index_images(sessions)`` fills ``card_image.phash`` / ``features`` for every image that has
none, in batches; the features are those the identify tools compare photos against.
"""

from __future__ import annotations

import asyncio
from typing import Any

from store.queries import identify as q
from vision.decode import decode
from vision.errors import VisionError
from vision.features import card_features


def features_of(data: bytes) -> dict | None:
    try:
        rgb = decode(data)
    except VisionError:
        return None
    return card_features(rgb)


async def index_images(sessions: Any, *, progress: Any = None, batch: int = 200) -> dict[str, int]:
    counts = {"indexed": 0, "unreadable": 0}
    bar = progress("features", None) if progress else None
    failed: set = set()
    while True:
        async with sessions() as s, s.begin():
            rows = [r for r in await q.images_without_features(session=s, limit=batch + len(failed))
                    if r.id not in failed][:batch]
            if not rows:
                break
            for img in rows:
                feats = await asyncio.to_thread(features_of, img.data)
                if feats is None:
                    failed.add(img.id)
                    counts["unreadable"] += 1
                    continue
                img.phash = feats["phash"]
                img.features = feats
                counts["indexed"] += 1
                if bar:
                    bar.advance(1)
    if bar:
        bar.close()
    return counts
