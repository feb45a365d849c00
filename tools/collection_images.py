"""Photos of a collector's own copy of a card: upload (JPEG/PNG/WebP/HEIC up to 20 MB), full image, thumbnail."""

from __future__ import annotations

import io
import logging
import uuid
import warnings

from pydantic import Field

from store.models import CollectionCardImage as ImageRow
from store.queries import collections as q
from tools._models import Binary, CamelIn, CamelOut, LooseUUIDStr, Upload
from tools._registry import tool
from tools.collections import entry_or_404
from tools.context import ToolContext
from tools.errors import ServiceError

log = logging.getLogger("cardwise.collections")

FORMATS = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp", "HEIF": "image/heic"}
MAX_PIXELS = 80_000_000
THUMB_SIZE = (320, 320)

try:  # HEIC decoding is optional: present when pillow-heif is installed
    import pillow_heif  # type: ignore[import-not-found]

    pillow_heif.register_heif_opener()
except ImportError:  # pragma: no cover - depends on the environment
    pillow_heif = None


def decode(data: bytes) -> tuple[str, bytes]:
    """Verify the bytes are a JPEG/PNG/WebP/HEIC image; return its content type and a JPEG thumbnail."""
    from PIL import Image, UnidentifiedImageError

    unsupported = ServiceError("UNSUPPORTED_MEDIA_TYPE", "Upload a JPEG, PNG, WebP or HEIC image")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))
            fmt = (img.format or "").upper()
            if fmt == "MPO":
                fmt = "JPEG"
            if fmt not in FORMATS:
                raise unsupported
            if img.width * img.height > MAX_PIXELS:
                raise ServiceError("VALIDATION_ERROR", f"Image has more than {MAX_PIXELS} pixels")
            img.load()
            thumb = img.convert("RGB")
            thumb.thumbnail(THUMB_SIZE)
            out = io.BytesIO()
            thumb.save(out, "JPEG", quality=85)
    except ServiceError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, Image.DecompressionBombWarning,
            Image.DecompressionBombError):
        raise unsupported from None
    return FORMATS[fmt], out.getvalue()


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
    content_type, thumb = decode(body.image.data)
    async with ctx.transaction() as s:
        entry = await entry_or_404(s, ctx, body.collection_id, body.card_id)
        old = await q.card_image(session=s, entry_id=entry.id)
        if old is not None:
            await q.remove(session=s, row=old)
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
