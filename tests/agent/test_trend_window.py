"""A price trend reads "the last six months" as those days: sales a week past the cut count as recent even
when the month they fall in began before it (monthly buckets put them with the older sales)."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

from agent.builtin.answers.market import RECENT_DAYS


async def test_sales_just_inside_the_six_months_are_recent(ctx, sessions, catalog):
    from agent.llm import make_llm
    from agent.loop import run_query
    from store.models import PriceRecord

    griffey = catalog.cards["griffey"].id
    recent_day = date.today() - timedelta(days=RECENT_DAYS - 8)
    sales = [(date.today() - timedelta(days=250 + k), 1000) for k in range(3)] + [(recent_day, 2000)] * 7
    async with sessions() as s, s.begin():
        s.add_all([PriceRecord(id=uuid.uuid4(), card_id=griffey, title="1989 Topps Ken Griffey Jr. #41T",
                               price_cents=cents, date=day, listing_type="auction", source="test")
                   for day, cents in sales])
    answer = (await run_query(ctx, "has the 1989 topps griffey 41t gone up lately", make_llm(ctx.settings))).answer
    assert "trending up" in answer and "last six months (7 sales)" in answer and "(3 sales)" in answer, answer
