"""The published shape of an identification answer (``POST /v1/identify/card``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, PrivateAttr

from tools._catalog_models import FieldKV
from tools._identify_extras import AutoGradeRef, ParallelMatch, QualifierRef
from tools._models import CamelOut, In, ServerMessage, Upload


class ParallelSuggestion(CamelOut):
    id: str
    name: str
    numbered_to: int | None = None
    confidence: Literal["High", "Medium", "Low"] | None = None


class CardRecord(CamelOut):
    id: str | None = None
    segment_id: str | None = None
    release_id: str | None = None
    set_id: str | None = None
    year: str | None = None
    manufacturer: str | None = None
    release_name: str | None = None
    set_name: str | None = None
    name: str | None = None
    number: str | None = None
    description: str | None = None
    numbered_to: int | None = None
    attributes: list[str] | None = None
    variation_of: str | None = None
    fields: list[FieldKV] | None = None


class DetectionCard(CardRecord):
    parallel: ParallelMatch | None = Field(None, description="The parallel, when one is named with High confidence")
    parallel_suggestions: list[ParallelSuggestion] | None = None
    suggestions: list[CardRecord] | None = None


class GradeRef(CamelOut):
    id: str | None = None
    value: str | None = None
    condition: str | None = None


class CompanyRef(CamelOut):
    id: str | None = None
    name: str


class Grading(CamelOut):
    confidence: Literal["High", "Medium", "Low"]
    company: CompanyRef
    grade: GradeRef | None = None
    qualifier: QualifierRef | None = None
    auto_grade: AutoGradeRef | None = None
    cert_number: str | None = None


class Detection(CamelOut):
    confidence: Literal["High", "Medium", "Low"]
    card: DetectionCard
    grading: Grading | None = None
    _score: float = PrivateAttr(default=0.0)  # the fused confidence behind the tier (for calibration)


class IdentifyResult(CamelOut):
    success: bool
    request_id: str
    detections: list[Detection]
    processing_time: float
    detected_count: int
    identified_count: int
    messages: list[ServerMessage] | None = None


class IdentifyIn(In):
    image: Upload = Field(description="The photo: multipart field 'image' or a raw image body")


class IdentifySegmentIn(IdentifyIn):
    segment: str = Field(min_length=1, max_length=200, description="Segment UUID, name or short code")
