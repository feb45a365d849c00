"""Card detection and CardMagic: where the cards are in a photo, and listing-ready cut-outs of them."""

from __future__ import annotations

import time
import uuid
from typing import Literal

from pydantic import Field

from tools._identify_extras import photo_messages
from tools._models import Binary, BoolStr, CamelIn, CamelOut, ServerMessage, Upload
from tools._registry import tool
from tools.context import ToolContext
from tools.errors import ServiceError
from tools.identify import image_bytes, release_memory, run_cpu, vision_error
from vision import cardmagic
from vision.errors import VisionError
from vision.pipeline import locate_only


class DetectIn(CamelIn):
    image: Upload = Field(description="The photo: multipart field 'image' or a raw image body")


class DetectedObject(CamelOut):
    type: Literal["card", "slab"]
    corners: list[list[float]] = Field(description="Four [x, y] corners: top-left, top-right, bottom-right, bottom-left")


class DetectResult(CamelOut):
    detected: bool
    count: int
    request_id: str
    processing_time: float
    cards: list[DetectedObject] | None = None
    messages: list[ServerMessage] | None = None


@tool("detect_card", method="POST", path="/v1/detect/card", body="binary", agent=False, writes=False,
      extra_statuses=(413, 415))
async def detect_card(ctx: ToolContext, inp: DetectIn) -> DetectResult:
    """Tell whether a photo holds cards, how many, and where (corners of each card or slab)."""
    ctx.key_id()
    started = time.perf_counter()
    data = image_bytes(inp.image)
    try:
        rgb, found = await run_cpu(locate_only, data)
    except VisionError as exc:
        raise vision_error(exc) from None
    finally:
        release_memory()
    found = cardmagic.reading_order(found)
    objs = [DetectedObject(type=f.kind, corners=[[round(float(x), 1), round(float(y), 1)] for x, y in f.quad])
            for f in found]
    return DetectResult(detected=bool(found), count=len(found), request_id=str(uuid.uuid4()),
                        processing_time=round((time.perf_counter() - started) * 1000, 1), cards=objs or None,
                        messages=photo_messages(rgb.shape[1], rgb.shape[0], len(found)))


class CardMagicIn(CamelIn):
    image: Upload = Field(description="The photo: multipart field 'image' or a raw image body")
    mode: Literal["process", "crop"] = "process"
    padding_percent: float = Field(5, ge=0, le=50)
    padding_fill: str = Field("background", pattern=r"^(background|#[0-9A-Fa-f]{6})$")
    auto_levels: BoolStr = "true"
    output_format: Literal["jpeg", "png"] = "jpeg"
    long_edge: int | None = Field(None, ge=32, le=2100)
    corners: BoolStr = "false"


def _process(data: bytes, inp: CardMagicIn) -> tuple[list, int]:
    rgb, found = locate_only(data)
    if max(rgb.shape[:2]) > 8192:  # pragma: no cover - decode already downscales
        raise VisionError("too_large", "Images are limited to 8192 px per side")
    cards = [cardmagic.cut(rgb, f, mode=inp.mode, padding_percent=inp.padding_percent, padding_fill=inp.padding_fill,
                           auto_levels=inp.auto_levels == "true", long_edge=inp.long_edge)
             for f in cardmagic.reading_order(found)]
    return cards, len(cards)


@tool("cardmagic_process", method="POST", path="/v1/cardmagic/process", body="binary", agent=False, writes=False,
      extra_statuses=(413, 415, 422), response_content_types=("image/jpeg", "image/png", "application/zip"))
async def cardmagic_process(ctx: ToolContext, inp: CardMagicIn) -> Binary:
    """Cut each card out of a photo, straightened and centred as a listing-ready image (a zip for several)."""
    ctx.key_id()
    data = image_bytes(inp.image)
    try:
        return await _cardmagic(data, inp)
    finally:
        release_memory()


async def _cardmagic(data: bytes, inp: CardMagicIn) -> Binary:
    try:
        cards, n = await run_cpu(_process, data, inp)
    except VisionError as exc:
        raise vision_error(exc) from None
    if not n:
        raise ServiceError("NO_CARD_FOUND", "No card was found in the image")
    fmt = inp.output_format
    if n == 1 and inp.corners == "false":
        from vision.decode import encode

        body = await run_cpu(encode, cards[0], fmt)
        h, w = cards[0].shape[:2]
        return Binary(content=body, content_type=f"image/{fmt}",
                      headers={"X-CardMagic-Count": "1", "X-CardMagic-Width": str(w), "X-CardMagic-Height": str(h)})
    body = await run_cpu(cardmagic.zip_cards, cards, fmt, inp.corners == "true")
    return Binary(content=body, content_type="application/zip", headers={"X-CardMagic-Count": str(n)})
