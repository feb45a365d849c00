"""set progress: per-set base-card counts and raw prices, kept by triggers

Set progress compares a collection with the catalog: for each set the collection touches, its base
cards (not a ``variation_of``), how many are serial-numbered, how many have a raw base price and
their sum. Counting those from ``card`` and ``card_price`` on every read visits ~150,000 index
entries for a collection spread over the real catalog. ``set_base_stats`` holds them per set:

* ``card.raw_cents``: the card's raw base price (the higher one should two rows exist), set by
  triggers on ``card_price`` rows without parallel and grade;
* ``set_base_stats(set_id, base_cards, numbered_base_cards, priced_base_cards, raw_base_cents)``:
  a card's insert, delete or change of set, variation, serial number or raw price adds and
  subtracts its contribution (PostgreSQL: statement triggers over the transition tables, so a bulk
  import costs one statement per batch; SQLite: row triggers). A deleted card subtracts what its row
  held, so the order in which a cascade removes its prices does not matter.

Like the search tables, ``set_base_stats`` is made here and not in the models (only triggers write it).

Revision ID: collection_0003
Revises: collection_0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "collection_0003"
down_revision = "collection_0002"
branch_labels = None
depends_on = None

LOCK = 7_266_533_211_901  # the advisory lock of collection_0002: prices vs. the values derived from them
STATS = ("base_cards", "numbered_base_cards", "priced_base_cards", "raw_base_cents")


def _raw(card_id: str) -> str:
    return (f"(SELECT max(p.value_cents) FROM card_price p WHERE p.card_id = {card_id} "
            "AND p.parallel_id IS NULL AND p.grade_id IS NULL)")


def _parts(row: str) -> list[str]:
    """A base card's contribution to each of the STATS columns."""
    return ["1", f"(CASE WHEN {row}.numbered_to IS NULL THEN 0 ELSE 1 END)",
            f"(CASE WHEN {row}.raw_cents IS NULL THEN 0 ELSE 1 END)", f"coalesce({row}.raw_cents, 0)"]


def _contribution(row: str, sign: str = "") -> str:
    return ", ".join(f"{sign}{p} AS {c}" for p, c in zip(_parts(row), STATS))


def _add(select: str, target: str = "set_base_stats") -> str:
    """Upsert: add the selected (set_id, STATS) rows to the per-set sums."""
    return (f"INSERT INTO {target} (set_id, {', '.join(STATS)}) {select} ON CONFLICT (set_id) DO UPDATE SET "
            + ", ".join(f"{c} = set_base_stats.{c} + excluded.{c}" for c in STATS))


def _pg() -> list[str]:
    sums = ", ".join(f"sum({c})" for c in STATS)
    delta = ("SELECT set_id, {sums} FROM ({parts}) d GROUP BY set_id")
    new = f"SELECT set_id, {_contribution('n')} FROM new_rows n WHERE n.variation_of IS NULL"
    old = f"SELECT set_id, {_contribution('o', '-')} FROM old_rows o WHERE o.variation_of IS NULL"
    out = []
    for event, parts in (("insert", [new]), ("delete", [old]), ("update", [new, old])):
        tables = {"insert": "NEW TABLE AS new_rows", "delete": "OLD TABLE AS old_rows",
                  "update": "OLD TABLE AS old_rows NEW TABLE AS new_rows"}[event]
        body = _add(delta.format(sums=sums, parts=" UNION ALL ".join(parts)))
        out += [
            f"""CREATE FUNCTION card_set_stats_{event}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    {body};
    RETURN NULL;
END $$""",
            f"CREATE TRIGGER card_set_stats_{event} AFTER {event.upper()} ON card REFERENCING {tables} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION card_set_stats_{event}()",
        ]
    out += [
        f"""CREATE FUNCTION card_price_raw() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock({LOCK});
    IF TG_OP <> 'INSERT' AND OLD.parallel_id IS NULL AND OLD.grade_id IS NULL THEN
        UPDATE card c SET raw_cents = {_raw('OLD.card_id')} WHERE c.id = OLD.card_id
            AND c.raw_cents IS DISTINCT FROM {_raw('OLD.card_id')};
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.parallel_id IS NULL AND NEW.grade_id IS NULL THEN
        UPDATE card c SET raw_cents = {_raw('NEW.card_id')} WHERE c.id = NEW.card_id
            AND c.raw_cents IS DISTINCT FROM {_raw('NEW.card_id')};
    END IF;
    RETURN NULL;
END $$""",
        "CREATE TRIGGER card_price_raw AFTER INSERT OR UPDATE OR DELETE ON card_price "
        "FOR EACH ROW EXECUTE FUNCTION card_price_raw()",
    ]
    return out


def _sqlite() -> list[str]:
    def sub(row: str) -> str:
        return ("UPDATE set_base_stats SET " + ", ".join(f"{c} = {c} - {v}" for c, v in zip(STATS, _parts(row)))
            + f" WHERE set_id = {row}.set_id AND {row}.variation_of IS NULL;")

    def add(row: str) -> str:
        return _add(f"SELECT {row}.set_id, {_contribution(row)} WHERE {row}.variation_of IS NULL") + ";"

    out = [
        f"CREATE TRIGGER card_set_stats_i AFTER INSERT ON card BEGIN {add('new')} END",
        f"CREATE TRIGGER card_set_stats_d AFTER DELETE ON card BEGIN {sub('old')} END",
        "CREATE TRIGGER card_set_stats_u AFTER UPDATE OF set_id, variation_of, numbered_to, raw_cents ON card WHEN "
        "old.set_id IS NOT new.set_id OR old.variation_of IS NOT new.variation_of OR old.numbered_to IS NOT "
        f"new.numbered_to OR old.raw_cents IS NOT new.raw_cents BEGIN {sub('old')} {add('new')} END",
    ]
    for event, rows in (("INSERT", ("new",)), ("DELETE", ("old",)), ("UPDATE", ("old", "new"))):
        body = "".join(f"UPDATE card SET raw_cents = {_raw(r + '.card_id')} WHERE id = {r}.card_id "
                       f"AND {r}.parallel_id IS NULL AND {r}.grade_id IS NULL; " for r in rows)
        out.append(f"CREATE TRIGGER card_price_raw_{event[0].lower()} AFTER {event} ON card_price BEGIN {body}END")
    return out


def upgrade() -> None:
    op.add_column("card", sa.Column("raw_cents", sa.Integer()))
    op.create_table(
        "set_base_stats",
        sa.Column("set_id", sa.Uuid(), sa.ForeignKey("card_set.id", ondelete="CASCADE",
                                                     name="fk_set_base_stats_set_id_card_set"), primary_key=True),
        *[sa.Column(c, sa.BigInteger(), nullable=False) for c in STATS],
    )
    op.execute(f"UPDATE card SET raw_cents = {_raw('card.id')} WHERE id IN "
               "(SELECT card_id FROM card_price WHERE parallel_id IS NULL AND grade_id IS NULL)")
    op.execute(f"INSERT INTO set_base_stats (set_id, {', '.join(STATS)}) SELECT set_id, count(*), count(numbered_to), "
               "count(raw_cents), coalesce(sum(raw_cents), 0) FROM card WHERE variation_of IS NULL GROUP BY set_id")
    for stmt in _pg() if op.get_bind().dialect.name == "postgresql" else _sqlite():
        op.execute(stmt)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS card_price_raw ON card_price")
        op.execute("DROP FUNCTION IF EXISTS card_price_raw()")
        for event in ("insert", "delete", "update"):
            op.execute(f"DROP TRIGGER IF EXISTS card_set_stats_{event} ON card")
            op.execute(f"DROP FUNCTION IF EXISTS card_set_stats_{event}()")
    else:
        for trig in ("card_set_stats_i", "card_set_stats_d", "card_set_stats_u",
                     "card_price_raw_i", "card_price_raw_d", "card_price_raw_u"):
            op.execute(f"DROP TRIGGER IF EXISTS {trig}")
    op.drop_table("set_base_stats")
    op.execute("ALTER TABLE card DROP COLUMN raw_cents")
