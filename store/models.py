"""The whole Cardwise domain as SQLAlchemy 2 models.

Hierarchy of the shared catalog: segment > manufacturer > release > set (``card_set``) > card >
parallel. Reference data (grades), market data (populations, price records, marketplace
listings) are shared. User data (collectors, collections, binders, want lists, feedback,
identification requests) belongs to the API key that created it (``api_key_id``).

Money is stored as integer cents (exact on both engines); the API speaks decimal strings.
Rows that come from a seeded generator rather than a real source carry ``synthetic = True``.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    Uuid,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from store.base import Base, Timestamps, UUIDPk, utcnow

CASCADE = "CASCADE"


# --------------------------------------------------------------------------- catalog
class Segment(UUIDPk, Base):
    __tablename__ = "segment"
    name: Mapped[str] = mapped_column(String(100), unique=True)
    shortname: Mapped[str | None] = mapped_column(String(20))
    description: Mapped[str | None] = mapped_column(Text)


class CatalogVersion(Base):
    """One row (id 1): a counter that every catalog-changing command (``cardwise import ...``,
    ``cardwise vision ...``) raises, so serving processes can drop cached catalog answers at once."""
    __tablename__ = "catalog_version"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Manufacturer(UUIDPk, Base):
    __tablename__ = "manufacturer"
    name: Mapped[str] = mapped_column(String(200), unique=True)
    description: Mapped[str | None] = mapped_column(Text)


class Release(UUIDPk, Base):
    __tablename__ = "release"
    segment_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("segment.id", ondelete=CASCADE), index=True)
    manufacturer_id: Mapped[uuid.UUID | None] = mapped_column(
        ForeignKey("manufacturer.id", ondelete="SET NULL"), index=True
    )
    name: Mapped[str] = mapped_column(String(300), index=True)
    year: Mapped[str | None] = mapped_column(String(9), index=True)
    description: Mapped[str | None] = mapped_column(Text)
    release_date: Mapped[date | None] = mapped_column(Date)
    pre_order_date: Mapped[date | None] = mapped_column(Date)
    source: Mapped[str | None] = mapped_column(String(40))
    demo: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # the demo catalog (demo_0001)


class CardSet(UUIDPk, Base):
    __tablename__ = "card_set"
    release_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("release.id", ondelete=CASCADE), index=True)
    name: Mapped[str] = mapped_column(String(300), index=True)
    description: Mapped[str | None] = mapped_column(Text)
    pack_odds: Mapped[str | None] = mapped_column(String(100))
    is_identifiable: Mapped[bool] = mapped_column(Boolean, default=False)
    demo: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Card(UUIDPk, Base):
    __tablename__ = "card"
    # a set's base cards and their serial numbers from the index alone (set progress counts them per set)
    __table_args__ = (Index("ix_card_set_base", "set_id", "variation_of", "numbered_to"),)
    set_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card_set.id", ondelete=CASCADE))
    release_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("release.id", ondelete=CASCADE), index=True)
    name: Mapped[str] = mapped_column(String(300), index=True)
    number: Mapped[str | None] = mapped_column(String(40), index=True)
    # numeric prefix of ``number`` for natural ordering (``12a`` sorts after ``2``)
    number_sort: Mapped[int | None] = mapped_column(Integer)
    description: Mapped[str | None] = mapped_column(Text)
    variation_of: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("card.id", ondelete=CASCADE), index=True)
    numbered_to: Mapped[int | None] = mapped_column(Integer)
    rarity: Mapped[str | None] = mapped_column(String(80))
    raw_cents: Mapped[int | None] = mapped_column(Integer)  # raw base price, kept by triggers (collection_0003)
    demo: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # never matched by real data


class Attribute(UUIDPk, Base):
    __tablename__ = "attribute"
    name: Mapped[str] = mapped_column(String(100))
    short_name: Mapped[str] = mapped_column(String(20), unique=True)
    description: Mapped[str | None] = mapped_column(Text)


class CardAttribute(Base):
    __tablename__ = "card_attribute"
    card_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card.id", ondelete=CASCADE), primary_key=True)
    attribute_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("attribute.id", ondelete=CASCADE), primary_key=True, index=True
    )


class Parallel(UUIDPk, Base):
    """A variant of a set's cards. ``is_partial``: applies only to the cards in ``parallel_card``."""

    __tablename__ = "parallel"
    set_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card_set.id", ondelete=CASCADE), index=True)
    name: Mapped[str] = mapped_column(String(300), index=True)
    description: Mapped[str | None] = mapped_column(Text)
    numbered_to: Mapped[int | None] = mapped_column(Integer)
    is_partial: Mapped[bool] = mapped_column(Boolean, default=False)
    sort_order: Mapped[int] = mapped_column(Integer, default=0)


class ParallelCard(Base):
    __tablename__ = "parallel_card"
    parallel_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("parallel.id", ondelete=CASCADE), primary_key=True)
    card_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card.id", ondelete=CASCADE), primary_key=True, index=True)


class MetadataField(UUIDPk, Base):
    """A flexible KEY:VALUE metadata key (HP, RARITY, ARTIST, CARD_LANGUAGE...)."""

    __tablename__ = "metadata_field"
    key: Mapped[str] = mapped_column(String(60), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    description: Mapped[str | None] = mapped_column(Text)


class FieldValue(UUIDPk, Base):
    __tablename__ = "field_value"
    __table_args__ = (Index("ix_field_value_entity", "entity_type", "entity_id"),)
    field_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("metadata_field.id", ondelete=CASCADE), index=True)
    entity_type: Mapped[str] = mapped_column(String(20))  # card | set | release | segment
    entity_id: Mapped[uuid.UUID] = mapped_column(Uuid)
    value: Mapped[str] = mapped_column(String(500))


class CardImage(UUIDPk, Timestamps, Base):
    __tablename__ = "card_image"
    card_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card.id", ondelete=CASCADE), index=True)
    side: Mapped[str] = mapped_column(String(10), default="front")
    content_type: Mapped[str] = mapped_column(String(40))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    width: Mapped[int | None] = mapped_column(Integer)
    height: Mapped[int | None] = mapped_column(Integer)
    phash: Mapped[str | None] = mapped_column(String(64), index=True)
    features: Mapped[dict | None] = mapped_column(JSON)
    source: Mapped[str | None] = mapped_column(String(200))


# --------------------------------------------------------------------------- grading
class GradingCompany(UUIDPk, Base):
    __tablename__ = "grading_company"
    name: Mapped[str] = mapped_column(String(120), unique=True)
    abbreviation: Mapped[str] = mapped_column(String(20), unique=True)
    description: Mapped[str | None] = mapped_column(Text)
    note: Mapped[str | None] = mapped_column(Text)
    sort_order: Mapped[int] = mapped_column(Integer, default=0)


class GradingType(UUIDPk, Base):
    __tablename__ = "grading_type"
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("grading_company.id", ondelete=CASCADE), index=True)
    name: Mapped[str] = mapped_column(String(120))
    description: Mapped[str | None] = mapped_column(Text)
    sort_order: Mapped[int] = mapped_column(Integer, default=0)


class Grade(UUIDPk, Base):
    __tablename__ = "grade"
    type_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("grading_type.id", ondelete=CASCADE), index=True)
    value: Mapped[str] = mapped_column(String(40))
    condition: Mapped[str | None] = mapped_column(String(80))
    numeric: Mapped[float | None] = mapped_column()
    sort_order: Mapped[int] = mapped_column(Integer, default=0)


class GradeQualifier(UUIDPk, Base):
    """PSA-style qualifiers (OC, MC, PD, ST, MK, OF) attached to a numeric grade."""

    __tablename__ = "grade_qualifier"
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("grading_company.id", ondelete=CASCADE), index=True)
    code: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(80))


# --------------------------------------------------------------------------- market data
class PopulationSetLink(UUIDPk, Base):
    """Our set <-> a grading company's own set name; only confirmed links feed set/release reports."""

    __tablename__ = "population_set_link"
    __table_args__ = (UniqueConstraint("company_id", "set_id"),)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("grading_company.id", ondelete=CASCADE))
    set_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card_set.id", ondelete=CASCADE), index=True)
    external_name: Mapped[str | None] = mapped_column(String(300))
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)


class PopulationSync(Base):
    __tablename__ = "population_sync"
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("grading_company.id", ondelete=CASCADE), primary_key=True)
    last_synced_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    synthetic: Mapped[bool] = mapped_column(Boolean, default=False)


class PopulationCount(UUIDPk, Base):
    __tablename__ = "population_count"
    __table_args__ = (Index("ix_population_count_card_grade", "card_id", "parallel_id", "grade_id"),)
    card_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card.id", ondelete=CASCADE))
    parallel_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("parallel.id", ondelete=CASCADE), index=True)
    grade_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("grade.id", ondelete=CASCADE), index=True)
    population: Mapped[int] = mapped_column(Integer, default=0)
    qualified_population: Mapped[int] = mapped_column(Integer, default=0)
    synthetic: Mapped[bool] = mapped_column(Boolean, default=False)


class PriceRecord(UUIDPk, Base):
    """A historical listing: auction = completed sale, fixed = asking price."""

    __tablename__ = "price_record"
    __table_args__ = (Index("ix_price_record_card_date", "card_id", "date"),)
    card_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card.id", ondelete=CASCADE))
    parallel_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("parallel.id", ondelete=CASCADE), index=True)
    grade_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("grade.id", ondelete="SET NULL"), index=True)
    qualifier: Mapped[str | None] = mapped_column(String(10))
    title: Mapped[str] = mapped_column(String(500))
    price_cents: Mapped[int] = mapped_column(Integer)
    date: Mapped[date] = mapped_column(Date, index=True)
    listing_type: Mapped[str] = mapped_column(String(10))
    source: Mapped[str] = mapped_column(String(120))
    url: Mapped[str | None] = mapped_column(String(1000))
    image_url: Mapped[str | None] = mapped_column(String(1000))
    external_id: Mapped[str | None] = mapped_column(String(200), unique=True)
    synthetic: Mapped[bool] = mapped_column(Boolean, default=False)


class CardPrice(UUIDPk, Base):
    """The current price of a card in one condition, materialised from ``price_record``.

    One row per (card, parallel or base, grade or raw). ``price_key`` is ``raw`` or
    ``<company abbreviation lowercase>-<grade value>`` (``psa-10``, ``bgs-9.5``). The catalog's
    ``prices`` object and the collection analytics both read these rows, so they always agree.
    The market-data code owns the refresh and documents the method (e.g. median of recent
    completed sales).
    """

    __tablename__ = "card_price"
    # value_cents is in the index so pricing a collection entry is an index-only probe
    __table_args__ = (Index("ix_card_price_lookup", "card_id", "parallel_id", "grade_id", "value_cents"),)
    card_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card.id", ondelete=CASCADE))
    parallel_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("parallel.id", ondelete=CASCADE))
    grade_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("grade.id", ondelete=CASCADE))
    price_key: Mapped[str] = mapped_column(String(40))
    value_cents: Mapped[int] = mapped_column(Integer)
    sample_count: Mapped[int] = mapped_column(Integer, default=0)
    as_of: Mapped[date | None] = mapped_column(Date)
    synthetic: Mapped[bool] = mapped_column(Boolean, default=False)


class MarketplaceListing(UUIDPk, Base):
    __tablename__ = "marketplace_listing"
    card_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("card.id", ondelete=CASCADE), index=True)
    parallel_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("parallel.id", ondelete=CASCADE))
    grade_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("grade.id", ondelete="SET NULL"))
    title: Mapped[str] = mapped_column(String(500))
    source: Mapped[str] = mapped_column(String(120))
    price_cents: Mapped[int | None] = mapped_column(Integer)
    listing_type: Mapped[str] = mapped_column(String(10))
    url: Mapped[str | None] = mapped_column(String(1000))
    image_url: Mapped[str | None] = mapped_column(String(1000))
    condition: Mapped[str | None] = mapped_column(String(200))
    end_date: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    bid_count: Mapped[int | None] = mapped_column(Integer)
    listed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    external_id: Mapped[str | None] = mapped_column(String(200), unique=True)
    synthetic: Mapped[bool] = mapped_column(Boolean, default=False)


# --------------------------------------------------------------------------- tenancy
class ApiKey(UUIDPk, Timestamps, Base):
    """An API key, stored as a SHA-256 hash; ``prefix`` (first characters) helps people tell keys apart."""

    __tablename__ = "api_key"
    name: Mapped[str | None] = mapped_column(String(120))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ApiKeyUsage(Base):
    """Requests made with an API key in one calendar month (UTC), for ``GET /v1/subscription/``."""

    __tablename__ = "api_key_usage"
    api_key_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("api_key.id", ondelete=CASCADE), primary_key=True)
    month: Mapped[str] = mapped_column(String(7), primary_key=True)  # YYYY-MM
    calls: Mapped[int] = mapped_column(BigInteger, default=0)


class Collector(UUIDPk, Timestamps, Base):
    __tablename__ = "collector"
    api_key_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("api_key.id", ondelete=CASCADE), index=True)
    name: Mapped[str | None] = mapped_column(String(200))


class Collection(UUIDPk, Timestamps, Base):
    __tablename__ = "collection"
    api_key_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("api_key.id", ondelete=CASCADE), index=True)
    collector_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("collector.id", ondelete=CASCADE), index=True)
    name: Mapped[str | None] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(Text)


class CollectionCard(UUIDPk, Timestamps, Base):
    __tablename__ = "collection_card"
    # a collection's held cards (unsold: no sold price or date) from the index alone (set progress)
    __table_args__ = (Index("ix_collection_card_owned", "collection_id", "card_id", "sold_price_cents", "sold_date"),)
    collection_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("collection.id", ondelete=CASCADE))
    card_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card.id", ondelete=CASCADE), index=True)
    parallel_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("parallel.id", ondelete="SET NULL"))
    grade_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("grade.id", ondelete="SET NULL"))
    quantity: Mapped[int] = mapped_column(Integer, default=1)
    buy_price_cents: Mapped[int | None] = mapped_column(Integer)
    buy_date: Mapped[date | None] = mapped_column(Date)
    sell_price_cents: Mapped[int | None] = mapped_column(Integer)
    sold_price_cents: Mapped[int | None] = mapped_column(Integer)
    sold_date: Mapped[date | None] = mapped_column(Date)
    # facts the analytics group and value by: the card's, its release's and prices; kept current by
    # triggers (migration collection_0002), which also index them per breakdown dimension
    unit_cents: Mapped[int | None] = mapped_column(Integer)  # card_price of exactly this condition
    raw_cents: Mapped[int | None] = mapped_column(Integer)  # the card's raw base price
    release_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)
    card_name: Mapped[str | None] = mapped_column(String(300))
    set_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)
    is_base: Mapped[bool | None] = mapped_column(Boolean)
    numbered_to: Mapped[int | None] = mapped_column(Integer)
    release_year: Mapped[str | None] = mapped_column(String(9))
    manufacturer_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)


class CollectionCardImage(UUIDPk, Base):
    __tablename__ = "collection_card_image"
    collection_card_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("collection_card.id", ondelete=CASCADE), unique=True
    )
    content_type: Mapped[str] = mapped_column(String(40))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    thumb: Mapped[bytes] = mapped_column(LargeBinary)
    uploaded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Binder(UUIDPk, Timestamps, Base):
    __tablename__ = "binder"
    __table_args__ = (UniqueConstraint("collection_id", "name"),)
    collection_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("collection.id", ondelete=CASCADE), index=True)
    name: Mapped[str | None] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(Text)


class BinderCard(UUIDPk, Timestamps, Base):
    __tablename__ = "binder_card"
    __table_args__ = (UniqueConstraint("binder_id", "collection_card_id"),)
    binder_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("binder.id", ondelete=CASCADE))
    collection_card_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("collection_card.id", ondelete=CASCADE), index=True)


class WantList(UUIDPk, Timestamps, Base):
    __tablename__ = "want_list"
    api_key_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("api_key.id", ondelete=CASCADE), index=True)
    collector_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("collector.id", ondelete=CASCADE), index=True)
    name: Mapped[str | None] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(Text)


class WantListCard(UUIDPk, Timestamps, Base):
    __tablename__ = "want_list_card"
    __table_args__ = (UniqueConstraint("list_id", "card_id"),)
    list_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("want_list.id", ondelete=CASCADE))
    card_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("card.id", ondelete=CASCADE), index=True)


class Feedback(UUIDPk, Base):
    __tablename__ = "feedback"
    __table_args__ = (Index("ix_feedback_key_created", "api_key_id", "created_at"),)
    api_key_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("api_key.id", ondelete=CASCADE))
    entity_type: Mapped[str] = mapped_column(String(20))
    entity_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)
    feedback_type: Mapped[str | None] = mapped_column(String(20))
    message: Mapped[str] = mapped_column(String(1000))
    status: Mapped[str] = mapped_column(String(20), default="not_reviewed")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class IdentificationRequest(UUIDPk, Timestamps, Base):
    __tablename__ = "identification_request"
    api_key_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("api_key.id", ondelete=CASCADE), index=True)
    segment_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("segment.id", ondelete="SET NULL"))
    detected_count: Mapped[int] = mapped_column(Integer, default=0)
    processing_ms: Mapped[float | None] = mapped_column()
    result: Mapped[dict | None] = mapped_column(JSON)
