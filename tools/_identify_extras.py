"""What the published identify and detect answers carry beside the match: advisories about the photo,
the matched cards' metadata fields, the one parallel named with High confidence, and a slab label's
qualifier (OC, ST ...) and autograph grade."""

from __future__ import annotations

import re
import uuid
from typing import Any

from pydantic import Field

from store.queries import catalog_cards as cq
from tools._catalog_models import FieldKV
from tools._models import CamelOut, ServerMessage, advisories

# below this many pixels on the short side, small print (numbers, names) no longer reads reliably
SMALL_PHOTO_PX = 480
QUALIFIERS = ("OC", "ST", "PD", "OF", "MK", "MC")
_QUALIFIER_RE = re.compile(r"(?<![A-Z])\(?(" + "|".join(QUALIFIERS) + r")\)?(?![A-Z])")
_AUTO_RE = re.compile(r"\bAUTO(?:GRAPH)?\s*(?:GRADE)?\s*:?\s*(10|[1-9](?:\.5)?)\b", re.IGNORECASE)


class QualifierRef(CamelOut):
    code: str = Field(description="The qualifier on the label: OC, ST, PD, OF, MK or MC")
    id: str | None = None


class AutoGradeRef(CamelOut):
    id: str | None = None
    value: str | None = Field(None, description="The autograph's grade on a dual-grade label")
    condition: str | None = None


class ParallelMatch(CamelOut):
    id: str
    name: str
    description: str | None = None
    numbered_to: int | None = None
    is_partial: bool | None = None
    cards: list[str] | None = None


def photo_messages(width: int, height: int, found: int) -> list[ServerMessage] | None:
    return advisories(
        (0 < min(width, height) < SMALL_PHOTO_PX, "warning",
         f"The photo is small ({width}x{height} px); card text reads reliably from about {SMALL_PHOTO_PX} px "
         "on the short side"),
        (found == 0, "info", "No card was found: photograph the card flat and whole, filling most of the frame"),
    )


def label_qualifier(text: str) -> str | None:
    """The qualifier printed on a grading label (``NM-MT 8 OC``, ``MINT 9 (ST)``), if any."""
    found = _QUALIFIER_RE.search(text.upper()) if text else None
    return found.group(1) if found else None


def label_auto_grade(text: str) -> str | None:
    """The autograph grade of a dual-grade label (``AUTO 10``, ``AUTOGRAPH GRADE 9``), if any."""
    found = _AUTO_RE.search(text) if text else None
    return found.group(1) if found else None


async def add_card_fields(s: Any, cards: list[Any]) -> None:
    """Set ``fields`` on every identified card record (and its suggestions) in one query."""
    ids = {uuid.UUID(c.id) for c in cards if getattr(c, "id", None)}
    if not ids:
        return
    fields = await cq.fields_of_cards(session=s, card_ids=list(ids))
    for c in cards:
        if getattr(c, "id", None):
            c.fields = [FieldKV(key=k, value=v) for k, v in fields.get(uuid.UUID(c.id), [])] or None
