"""collection analytics: each entry carries the catalog and price facts it is grouped and valued by

Analytics, breakdown and set progress used to re-derive, for every entry on every read, its card
(release, name, set, base flag, serial number) and two prices (the entry's condition and the card's
raw base price): ~20,000 index probes per read of a 10,000-entry collection. These facts now live
on ``collection_card`` and the database keeps them current with triggers, so every write path is
covered without the application having to remember it (the API, importers, the price refresh,
cascades such as a deleted parallel setting ``parallel_id`` to NULL):

* ``unit_cents``: the ``card_price`` value for exactly (card, parallel or base, grade or raw), the
  higher one should two rows exist; NULL without one.
* ``raw_cents``: the card's raw base price (set progress sums it over owned base cards).
* ``release_id``, ``card_name``, ``set_id``, ``is_base`` (not a ``variation_of``), ``numbered_to``:
  the card's; ``release_year``, ``manufacturer_id``: its release's.

Triggers: an entry's facts are (re)computed when it is inserted or its card, parallel or grade
change; a ``card_price`` insert, update or delete revalues the entries of that card in that
condition (and their raw price for a raw base row); a change of a card's name, release, set,
variation or serial number is copied to its entries, and so is a release's new year or manufacturer.

Indexes ``ix_collection_card_by_<group>`` (collection, group column, then the topCards order: held
and priced first, highest value, larger quantity, id; then the other columns the aggregates read)
let a breakdown read a group's top entries with one short index range and aggregate a collection's
entries from the index alone, in group order, without sorting them; ``ix_collection_card_sets``
(collection, set, card, base flag, serial number, raw price, sold) does the same for set progress.
They hold expressions or serve only these reads, so like the search indexes they are made here and
not in the models.

Concurrency (PostgreSQL, READ COMMITTED): an entry write takes a shared transaction advisory lock
before it reads prices; a price or card change takes it exclusively before it rewrites entries.
Either the entry write commits first and the price change then sees (and revalues) the entry, or it
waits for the price change and reads the new prices. SQLite serialises writers (a write transaction
whose snapshot is stale fails instead of writing), so the triggers alone suffice there.

Revision ID: collection_0002
Revises: collection_0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "collection_0002"
down_revision = "collection_0001"
branch_labels = None
depends_on = None

LOCK = 7_266_533_211_901  # pg advisory lock: entry values vs. price and card changes
FACTS = ("release_id", "card_name", "set_id", "is_base", "numbered_to", "release_year", "manufacturer_id")
WATCHED = ("name", "release_id", "set_id", "variation_of", "numbered_to")  # card columns the facts copy
# the held value (NULL when sold) and the breakdown's topCards order (tools/analytics.py, README)
HELD = "CASE WHEN sold_price_cents IS NOT NULL AND sold_date IS NOT NULL THEN NULL ELSE unit_cents END"
TOP_ORDER = f"(({HELD}) IS NULL), ({HELD}) DESC, quantity DESC, id"
GROUPS = {"release": "release_id", "year": "release_year", "manufacturer": "manufacturer_id",
          "player": "card_name", "grade": "grade_id"}
COVERED = "card_id, buy_price_cents, sell_price_cents, sold_price_cents, sold_date, unit_cents"
SETS = "collection_id, set_id, card_id, is_base, numbered_to, raw_cents, sold_price_cents, sold_date"


def _card_facts(card_id: str) -> str:
    return ("(SELECT c.release_id, c.name, c.set_id, c.variation_of IS NULL, c.numbered_to, r.year, r.manufacturer_id "
            f"FROM card c JOIN release r ON r.id = c.release_id WHERE c.id = {card_id})")


def _release_facts(e: str) -> str:
    """Copy a release's year and manufacturer (NEW) to the entries of its cards."""
    return (f"UPDATE collection_card {e} SET release_year = NEW.year, manufacturer_id = NEW.manufacturer_id "
            "WHERE card_id IN (SELECT id FROM card WHERE release_id = NEW.id)")


def _price(e: str, *, raw: bool, same: str) -> str:
    """Scalar subquery: the price of entry ``e``'s condition (or the raw base price)."""
    cond = ("p.parallel_id IS NULL AND p.grade_id IS NULL" if raw else
            f"p.parallel_id {same} {e}.parallel_id AND p.grade_id {same} {e}.grade_id")
    return f"(SELECT max(p.value_cents) FROM card_price p WHERE p.card_id = {e}.card_id AND {cond})"


def _pg() -> list[str]:
    same = "IS NOT DISTINCT FROM"
    facts = ", ".join(f"NEW.{c}" for c in FACTS)
    revalue = """
    PERFORM pg_advisory_xact_lock({lock});
    UPDATE collection_card e SET unit_cents = {unit} WHERE e.card_id = r.card_id
        AND e.parallel_id IS NOT DISTINCT FROM r.parallel_id AND e.grade_id IS NOT DISTINCT FROM r.grade_id;
    IF r.parallel_id IS NULL AND r.grade_id IS NULL THEN
        UPDATE collection_card e SET raw_cents = {raw} WHERE e.card_id = r.card_id;
    END IF;"""
    return [
        f"""CREATE FUNCTION collection_card_facts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared({LOCK});
    SELECT * INTO {facts} FROM {_card_facts('NEW.card_id')} f;
    NEW.unit_cents := {_price('NEW', raw=False, same=same)};
    NEW.raw_cents := {_price('NEW', raw=True, same=same)};
    RETURN NEW;
END $$""",
        "CREATE TRIGGER collection_card_facts BEFORE INSERT OR UPDATE OF card_id, parallel_id, grade_id "
        "ON collection_card FOR EACH ROW EXECUTE FUNCTION collection_card_facts()",
        f"""CREATE FUNCTION card_price_entry_values() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        r := OLD;{revalue.format(lock=LOCK, unit=_price('e', raw=False, same=same), raw=_price('e', raw=True, same=same))}
    END IF;
    IF TG_OP <> 'DELETE' THEN
        r := NEW;{revalue.format(lock=LOCK, unit=_price('e', raw=False, same=same), raw=_price('e', raw=True, same=same))}
    END IF;
    RETURN NULL;
END $$""",
        "CREATE TRIGGER card_price_entry_values AFTER INSERT OR UPDATE OR DELETE ON card_price "
        "FOR EACH ROW EXECUTE FUNCTION card_price_entry_values()",
        f"""CREATE FUNCTION card_entry_facts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock({LOCK});
    UPDATE collection_card e SET ({", ".join(FACTS)}) = {_card_facts('NEW.id')} WHERE e.card_id = NEW.id;
    RETURN NULL;
END $$""",
        f"CREATE TRIGGER card_entry_facts AFTER UPDATE OF {', '.join(WATCHED)} ON card FOR EACH ROW WHEN ("
        + " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in WATCHED)
        + ") EXECUTE FUNCTION card_entry_facts()",
        f"""CREATE FUNCTION release_entry_facts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock({LOCK});
    {_release_facts('e')};
    RETURN NULL;
END $$""",
        "CREATE TRIGGER release_entry_facts AFTER UPDATE OF year, manufacturer_id ON release FOR EACH ROW WHEN ("
        "OLD.year IS DISTINCT FROM NEW.year OR OLD.manufacturer_id IS DISTINCT FROM NEW.manufacturer_id) "
        "EXECUTE FUNCTION release_entry_facts()",
    ]


def _sqlite() -> list[str]:
    facts = (f"({', '.join(FACTS)}) = {_card_facts('collection_card.card_id')}, "
             f"unit_cents = {_price('collection_card', raw=False, same='IS')}, "
             f"raw_cents = {_price('collection_card', raw=True, same='IS')}")
    out = [
        f"CREATE TRIGGER collection_card_facts_ai AFTER INSERT ON collection_card BEGIN "
        f"UPDATE collection_card SET {facts} WHERE id = new.id; END",
        f"CREATE TRIGGER collection_card_facts_au AFTER UPDATE OF card_id, parallel_id, grade_id ON collection_card "
        f"BEGIN UPDATE collection_card SET {facts} WHERE id = new.id; END",
        f"CREATE TRIGGER card_entry_facts_au AFTER UPDATE OF {', '.join(WATCHED)} ON card WHEN "
        + " OR ".join(f"old.{c} IS NOT new.{c}" for c in WATCHED)
        + f" BEGIN UPDATE collection_card SET ({', '.join(FACTS)}) = {_card_facts('new.id')} WHERE card_id = new.id; END",
        "CREATE TRIGGER release_entry_facts_au AFTER UPDATE OF year, manufacturer_id ON release WHEN "
        f"old.year IS NOT new.year OR old.manufacturer_id IS NOT new.manufacturer_id BEGIN {_release_facts('')}; END",
    ]
    for event, rows in (("INSERT", ("new",)), ("DELETE", ("old",)), ("UPDATE", ("old", "new"))):
        body = "".join(
            f"UPDATE collection_card SET unit_cents = {_price('collection_card', raw=False, same='IS')} "
            f"WHERE card_id = {r}.card_id AND parallel_id IS {r}.parallel_id AND grade_id IS {r}.grade_id; "
            f"UPDATE collection_card SET raw_cents = {_price('collection_card', raw=True, same='IS')} "
            f"WHERE card_id = {r}.card_id AND {r}.parallel_id IS NULL AND {r}.grade_id IS NULL; "
            for r in rows)
        out.append(f"CREATE TRIGGER card_price_entry_values_{event[0].lower()} AFTER {event} ON card_price "
                   f"BEGIN {body}END")
    return out


def upgrade() -> None:
    for column in (sa.Column("unit_cents", sa.Integer()), sa.Column("raw_cents", sa.Integer()),
                   sa.Column("release_id", sa.Uuid()), sa.Column("card_name", sa.String(length=300)),
                   sa.Column("set_id", sa.Uuid()), sa.Column("is_base", sa.Boolean()),
                   sa.Column("numbered_to", sa.Integer()), sa.Column("release_year", sa.String(length=9)),
                   sa.Column("manufacturer_id", sa.Uuid())):
        op.add_column("collection_card", column)  # nullable: a plain ALTER TABLE on both engines
    dialect = op.get_bind().dialect.name
    same = "IS NOT DISTINCT FROM" if dialect == "postgresql" else "IS"
    e = "collection_card"
    op.execute(f"UPDATE {e} SET ({', '.join(FACTS)}) = {_card_facts(e + '.card_id')}, "
               f"unit_cents = {_price(e, raw=False, same=same)}, raw_cents = {_price(e, raw=True, same=same)}")
    for stmt in _pg() if dialect == "postgresql" else _sqlite():
        op.execute(stmt)
    for column in GROUPS.values():
        op.execute(f"CREATE INDEX ix_collection_card_by_{column} ON collection_card "
                   f"(collection_id, {column}, {TOP_ORDER}, {COVERED})")
    op.execute(f"CREATE INDEX ix_collection_card_sets ON collection_card ({SETS})")


def downgrade() -> None:
    for column in GROUPS.values():
        op.execute(f"DROP INDEX IF EXISTS ix_collection_card_by_{column}")
    op.execute("DROP INDEX IF EXISTS ix_collection_card_sets")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS release_entry_facts ON release")
        op.execute("DROP TRIGGER IF EXISTS card_entry_facts ON card")
        op.execute("DROP TRIGGER IF EXISTS card_price_entry_values ON card_price")
        op.execute("DROP TRIGGER IF EXISTS collection_card_facts ON collection_card")
        for fn in ("release_entry_facts", "card_entry_facts", "card_price_entry_values", "collection_card_facts"):
            op.execute(f"DROP FUNCTION IF EXISTS {fn}()")
    else:
        for trig in ("collection_card_facts_ai", "collection_card_facts_au", "card_entry_facts_au", "release_entry_facts_au",
                     "card_price_entry_values_i", "card_price_entry_values_d", "card_price_entry_values_u"):
            op.execute(f"DROP TRIGGER IF EXISTS {trig}")
    for col in ("manufacturer_id", "release_year", "numbered_to", "is_base", "set_id", "card_name", "release_id",
                "raw_cents", "unit_cents"):
        op.execute(f"ALTER TABLE collection_card DROP COLUMN {col}")  # SQLite >= 3.35 too, no table copy
