"""Property-based tests for the parsers a client reaches: query-string coercion (adapter), UUID
rules, money and date strings (tools/_models.py). Nothing a client sends may raise anything but a
validation error, and what is accepted round-trips."""

from __future__ import annotations

import re
import uuid
from datetime import date
from decimal import Decimal

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from tools._models import DateStr, LooseUUIDStr, Money, UUIDStr, Year, cents_to_money, money_to_cents

FAST = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
HTTP = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))

uuid_ta, loose_ta, money_ta, date_ta, year_ta = (TypeAdapter(t) for t in (UUIDStr, LooseUUIDStr, Money, DateStr, Year))
anything = st.one_of(st.text(), st.integers(), st.floats(allow_nan=True), st.booleans(), st.none(),
                     st.binary().map(lambda b: b.decode("latin-1")), st.lists(st.text(), max_size=3))


def _accepts(ta: TypeAdapter, value) -> bool:
    try:
        ta.validate_python(value)
        return True
    except ValidationError:
        return False  # the only failure allowed: anything else would be a 500


# ------------------------------------------------------------------------------- UUIDs
@FAST
@given(st.uuids(), st.sampled_from([str.lower, str.upper]))
def test_uuid_rules(u: uuid.UUID, case):
    text = case(str(u))
    strict_ok = text == str(u) and u.version is not None and 1 <= u.version <= 5 and u.variant == uuid.RFC_4122
    assert _accepts(uuid_ta, text) == strict_ok
    if _accepts(loose_ta, text):
        assert loose_ta.validate_python(text) == str(u)  # normalised to lowercase


@FAST
@given(st.integers(min_value=1, max_value=8), st.uuids())
def test_loose_uuid_accepts_versions_1_to_8_in_any_case(version, u):
    forged = uuid.UUID(int=(u.int & ~(0xF << 76)) | (version << 76))  # set the version nibble
    forged = uuid.UUID(int=(forged.int & ~(0xC << 60)) | (0x8 << 60))  # and the RFC 4122 variant
    assert loose_ta.validate_python(str(forged).upper()) == str(forged)
    assert _accepts(uuid_ta, str(forged)) == (version <= 5)


@pytest.mark.parametrize("special", ["00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"])
def test_nil_and_max_are_loose_uuids_only(special):
    assert loose_ta.validate_python(special) == special.lower()
    assert not _accepts(uuid_ta, special)


@FAST
@given(anything)
def test_uuid_parsers_never_crash(value):
    for ta in (uuid_ta, loose_ta):
        if _accepts(ta, value):
            assert re.fullmatch(r"[0-9a-f-]{36}", ta.validate_python(value))


# ------------------------------------------------------------------------------- money
@FAST
@given(st.integers(min_value=0, max_value=999_999_999_99))
def test_money_round_trips_through_cents(cents):
    text = cents_to_money(cents)
    assert money_ta.validate_python(text) == text
    assert money_to_cents(text) == cents


@FAST
@given(st.decimals(min_value=0, max_value=Decimal("999999999.99"), places=2, allow_nan=False, allow_infinity=False))
def test_money_accepts_numbers_with_two_places(d):
    value = money_ta.validate_python(str(d))
    assert Decimal(value) == d


@FAST
@given(anything)
def test_money_never_crashes_and_accepts_only_plain_amounts(value):
    if _accepts(money_ta, value):
        out = money_ta.validate_python(value)
        assert re.fullmatch(r"\d{1,9}(\.\d{1,2})?", out)
        assert money_to_cents(out) >= 0


@pytest.mark.parametrize("bad", ["-1", "1.234", "1e3", "NaN", "Infinity", " 1", "1,00", "", "１２", "1.٥"])
def test_money_rejects(bad):
    """Regression (property finding): non-ASCII digits such as "１２" were accepted as money."""
    assert not _accepts(money_ta, bad)


@pytest.mark.parametrize("bad", ["２０２４", "２０２４-01-01"])
def test_years_and_dates_take_ascii_digits_only(bad):
    assert not _accepts(year_ta, bad) and not _accepts(date_ta, bad)


# ------------------------------------------------------------------------------- dates, years
@FAST
@given(st.dates(min_value=date(1000, 1, 1)))
def test_dates_round_trip(d):
    assert date_ta.validate_python(d.isoformat()) == d.isoformat()


@FAST
@given(st.from_regex(r"\A\d{4}-\d{2}-\d{2}\Z"))
def test_date_shaped_strings_are_accepted_only_when_real(text):
    try:
        date.fromisoformat(text)
        real = True
    except ValueError:
        real = False
    assert _accepts(date_ta, text) == real


@FAST
@given(anything)
def test_date_and_year_never_crash(value):
    _accepts(date_ta, value)
    if _accepts(year_ta, value):
        assert re.fullmatch(r"\d{4}(-\d{2,4})?", year_ta.validate_python(value))


# ------------------------------------------------------------------------------- query strings over HTTP
@HTTP
@given(st.text(max_size=30))
def test_take_query_coercion(live_server, value):
    r = requests.get(f"{live_server.base_url}/v1/catalog/segments", params={"take": value},
                     headers={"X-API-Key": live_server.key}, timeout=30)
    assert r.status_code in (200, 400), r.text
    if r.status_code == 200 and value != "":
        assert 1 <= int(value.strip()) <= 100
        assert r.json()["take"] == int(value.strip())
    if re.fullmatch(r"[1-9]\d?|100", value):
        assert r.status_code == 200
    if r.status_code == 400:
        assert set(r.json()) == {"error", "code"} and r.json()["code"] == "VALIDATION_ERROR"


@HTTP
@given(st.dictionaries(st.sampled_from(["name", "is_identifiable", "take", "skip", "sort", "order", "bogus"]),
                       st.text(max_size=20), max_size=5))
def test_any_query_string_is_200_or_400(live_server, params):
    r = requests.get(f"{live_server.base_url}/v1/catalog/segments", params=params,
                     headers={"X-API-Key": live_server.key}, timeout=30)
    assert r.status_code in (200, 400), (params, r.text)
    if r.status_code == 400:
        assert set(r.json()) == {"error", "code"}


@HTTP
@given(st.text(min_size=1, max_size=40).filter(lambda s: "/" not in s and s not in (".", "..")))
def test_path_ids_are_400_or_404_never_500(live_server, ident):
    r = requests.get(f"{live_server.base_url}/v1/grades/companies/{requests.utils.quote(ident, safe='')}/types",
                     headers={"X-API-Key": live_server.key}, timeout=30)
    assert r.status_code in (200, 400, 404), (ident, r.text)
    assert r.status_code == 200 or set(r.json()) == {"error", "code"}


@pytest.mark.parametrize("query", ["name=%00", "name=a%00b", "order=asc%00"])
def test_nul_characters_are_400_not_500(live_server, query):
    """Regression (fuzzing finding): a NUL in any text input was a 500 on PostgreSQL."""
    r = requests.get(f"{live_server.base_url}/v1/catalog/segments?{query}", headers={"X-API-Key": live_server.key},
                     timeout=30)
    assert r.status_code == 400 and r.json()["code"] == "VALIDATION_ERROR"


async def test_repeated_query_keys_fill_list_fields_and_the_last_wins_for_scalars(aiohttp_client, settings,
                                                                                   sessions, auth):
    """Adapter rule: list fields collect repeated keys; scalar fields take the last value; empty values
    are ignored. Checked on a probe route that uses the real adapter."""
    from api.app import create_app
    from tests.hardening.probes import add_probes

    c = await aiohttp_client(add_probes(create_app(settings)))
    r = await c.get("/probe/list?tag=a&tag=b&tag=&take=5&take=7", headers=auth)
    assert r.status == 200
    assert await r.json() == {"size": 2, "tags": ["a", "b"], "take": 7}
    r = await c.get("/probe/list?take=0", headers=auth)
    assert r.status == 400 and (await r.json())["code"] == "VALIDATION_ERROR"
