"""Fixtures for the collection-area tests: the small catalog, prices, and JSON helpers over HTTP."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import pytest
from sqlalchemy import func, select

from store.models import CardPrice, Grade, GradingCompany, GradingType
from tests.factories import seed_catalog


@pytest.fixture
async def cat(sessions) -> SimpleNamespace:
    c = await seed_catalog(sessions)
    async with sessions() as s:
        rows = (await s.execute(
            select(Grade.id, GradingCompany.abbreviation, Grade.value, GradingType.name)
            .join(GradingType, GradingType.id == Grade.type_id)
            .join(GradingCompany, GradingCompany.id == GradingType.company_id)
        )).all()
    c.grades = {}
    for gid, abbr, value, _type_name in sorted(rows, key=lambda r: r[3] != "Card"):
        c.grades.setdefault(f"{abbr.lower()}-{value}", gid)
    return c


async def add_price(sessions, card_id, cents: int, *, parallel_id=None, grade_id=None, key: str = "raw") -> None:
    async with sessions() as s, s.begin():
        s.add(CardPrice(id=uuid.uuid4(), card_id=card_id, parallel_id=parallel_id, grade_id=grade_id, price_key=key,
                        value_cents=cents, sample_count=3))


async def count_rows(sessions, model) -> int:
    async with sessions() as s:
        return int(await s.scalar(select(func.count()).select_from(model)))


class Api:
    """Small JSON client: ``await api.post(path, body)`` -> (status, json or None)."""

    def __init__(self, client, headers):
        self.client, self.headers = client, headers

    async def _do(self, method: str, path: str, body=None, **params):
        kw = {"headers": self.headers}
        if body is not None:
            kw["json"] = body
        if params:
            kw["params"] = {k: str(v) for k, v in params.items()}
        resp = await self.client.request(method, path, **kw)
        data = None
        if resp.content_type == "application/json":
            data = await resp.json()
        else:
            await resp.read()
        return resp.status, data

    async def get(self, path, **params):
        return await self._do("GET", path, **params)

    async def post(self, path, body):
        return await self._do("POST", path, body)

    async def put(self, path, body):
        return await self._do("PUT", path, body)

    async def delete(self, path):
        return await self._do("DELETE", path)


@pytest.fixture
def api(client, auth) -> Api:
    return Api(client, auth)


@pytest.fixture
def other_api(client, other_auth) -> Api:
    return Api(client, other_auth)


@pytest.fixture
async def owned(api) -> SimpleNamespace:
    """A collector with one empty collection."""
    st, collector = await api.post("/v1/collectors/", {"name": "Ana"})
    assert st == 201, collector
    st, coll = await api.post("/v1/collection/", {"collectorId": collector["id"], "name": "Main"})
    assert st == 201, coll
    return SimpleNamespace(collector=collector, collection=coll, cid=coll["id"])
