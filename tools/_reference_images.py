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


async def render_missing(sessions: Any, *, progress: Any = None, batch: int = 200) -> dict[str, int]:
    """Render a card face (vision.render) as the reference image of every card that has none.

    Meant for generated catalogs (the demo data), whose cards have no photographs: identification
    of photos of those rendered cards then also uses the visual match.
    """
    from sqlalchemy import select

    from store.models import Card, CardImage, CardSet, Release, Segment
    from vision.decode import encode
    from vision.render import CardSpec, render_card

    counts = {"rendered": 0}
    bar = progress("render", None) if progress else None
    while True:
        async with sessions() as s, s.begin():
            stmt = (select(Card, CardSet.name, Release.name, Release.year, Segment.name)
                    .join(CardSet, CardSet.id == Card.set_id).join(Release, Release.id == Card.release_id)
                    .join(Segment, Segment.id == Release.segment_id)
                    .where(~select(CardImage.id).where(CardImage.card_id == Card.id).exists())
                    .order_by(Card.id).limit(batch))
            rows = (await s.execute(stmt)).all()
            if not rows:
                break
            for card, set_name, rel_name, year, seg in rows:
                spec = CardSpec(id=str(card.id), name=card.name, number=card.number, set_name=set_name,
                                release_name=rel_name, year=year, team=card.description, segment=seg)
                rgb = await asyncio.to_thread(render_card, spec)
                feats = await asyncio.to_thread(card_features, rgb)
                data = await asyncio.to_thread(encode, rgb, "jpeg", 88)
                s.add(CardImage(card_id=card.id, content_type="image/jpeg", data=data, width=rgb.shape[1],
                                height=rgb.shape[0], phash=feats["phash"], features=feats, source="render"))
                counts["rendered"] += 1
                if bar:
                    bar.advance(1)
    if bar:
        bar.close()
    return counts
