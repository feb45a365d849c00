"""Photos of a collector's own copy of a card: upload (JPEG/PNG/WebP/HEIC up to 20 MB), full image, thumbnail."""

from __future__ import annotations

import io
import logging
import uuid

from pydantic import Field

from store.models import CollectionCardImage as ImageRow
from store.queries import collections as q
from tools._models import Binary, CamelIn, CamelOut, LooseUUIDStr, Upload
from tools._registry import tool
from tools.collections import entry_or_404
from tools.context import ToolContext
from tools.errors import ServiceError
from tools.identify import release_memory, run_cpu
from vision.decode import CONTENT_TYPES, heif_available, open_image, sniff
from vision.errors import VisionError

log = logging.getLogger("cardwise.collections")

THUMB_SIZE = (320, 320)
heif_available()  # registers HEIC with Pillow where pillow-heif is installed


def thumbnail(data: bytes) -> tuple[str, bytes]:
    """Check the bytes with the shared decoder (``vision.decode``: formats, shape, memory budget);
    return the image's content type and a JPEG thumbnail. Runs in the image worker, off the loop."""
    img = open_image(data, max_side=max(THUMB_SIZE) * 2)
    img.thumbnail(THUMB_SIZE)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=85)
    return CONTENT_TYPES[sniff(data) or "jpeg"], out.getvalue()


async def checked_thumbnail(data: bytes) -> tuple[str, bytes]:
    try:
        return await run_cpu(thumbnail, data)
    except VisionError as exc:
        if exc.kind in ("unsupported", "corrupt"):
            raise ServiceError("UNSUPPORTED_MEDIA_TYPE", "Upload a JPEG, PNG, WebP or HEIC image") from None
        raise ServiceError("VALIDATION_ERROR", exc.message) from None
    finally:
        release_memory()


class EntryRef(CamelIn):
    collection_id: LooseUUIDStr = Field(description="Collection id")
    card_id: LooseUUIDStr = Field(description="Collection entry id")


class ImageUpload(EntryRef):
    image: Upload = Field(description="The photo: multipart field 'image' or a raw image body")


class ImageUploaded(CamelOut):
    image_id: str
    uploaded_at: str
    full_image_url: str
    thumbnail_url: str


@tool("collection_card_image_upload", method="POST", path="/v1/collection/{collectionId}/cards/{cardId}/image",
      body="binary", agent=False, extra_statuses=(413, 415))
async def upload_image(ctx: ToolContext, body: ImageUpload) -> ImageUploaded:
    """Upload (or replace) the photo of a collection entry; stores the image and a JPEG thumbnail."""
    content_type, thumb = await checked_thumbnail(body.image.data)
    async with ctx.transaction() as s:
        entry = await entry_or_404(s, ctx, body.collection_id, body.card_id)
        old = await q.card_image(session=s, entry_id=entry.id)
        if old is not None:
            await q.remove(session=s, row=old, must_exist=False)  # a concurrent replace may have won
        row = await q.add(session=s, row=ImageRow(id=uuid.uuid4(), collection_card_id=entry.id,
                                                  content_type=content_type, data=body.image.data, thumb=thumb,
                                                  uploaded_at=ctx.clock()))
    base = f"/v1/collection/{entry.collection_id}/cards/{entry.id}/image"
    log.info("collection card image stored", extra={"entry": str(entry.id), "bytes": len(body.image.data)})
    return ImageUploaded(image_id=str(row.id), uploaded_at=row.uploaded_at.isoformat(), full_image_url=base,
                         thumbnail_url=f"{base}/thumb")


async def _image(ctx: ToolContext, ref: EntryRef) -> ImageRow:
    async with ctx.transaction() as s:
        entry = await entry_or_404(s, ctx, ref.collection_id, ref.card_id)
        row = await q.card_image(session=s, entry_id=entry.id)
    if row is None:
        raise ServiceError("NOT_FOUND", "This collection card has no image")
    return row


@tool("collection_card_image", method="GET", path="/v1/collection/{collectionId}/cards/{cardId}/image", agent=False,
      response_content_types=("image/jpeg", "image/png", "image/webp", "image/heic"))
async def get_image(ctx: ToolContext, ref: EntryRef) -> Binary:
    """Download the uploaded photo of a collection entry, in its original format."""
    row = await _image(ctx, ref)
    return Binary(content=row.data, content_type=row.content_type)


@tool("collection_card_image_thumb", method="GET", path="/v1/collection/{collectionId}/cards/{cardId}/image/thumb",
      agent=False, response_content_types=("image/jpeg",))
async def get_thumb(ctx: ToolContext, ref: EntryRef) -> Binary:
    """Download the JPEG thumbnail (at most 320x320) of a collection entry's photo."""
    row = await _image(ctx, ref)
    return Binary(content=row.thumb, content_type="image/jpeg")
