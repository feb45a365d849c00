"""API usage: every request made with a key is counted in memory and added to the database in
batches (``UsageCounter.flush``, every few seconds and at shutdown); ``GET /v1/subscription/``
answers the key's calls this calendar month (UTC), the stored total plus what this process has
not written yet (other server processes' last few seconds show after their next flush)."""

from __future__ import annotations

import time
import uuid
from collections import Counter
from datetime import datetime, timezone

from pydantic import Field

from store.models import ApiKey
from store.queries import usage as q
from tools._models import In, Out
from tools._registry import tool
from tools.context import ToolContext

def month_of(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m")


class UsageCounter:
    """Calls per (key, month) not yet written to the database."""

    def __init__(self) -> None:
        self.pending: Counter[tuple[uuid.UUID, str]] = Counter()
        self._month = ("", 0.0)  # this month and when it ends (epoch seconds): no date formatted per request

    def count(self, key_id: uuid.UUID, when: datetime | None = None) -> None:
        self.pending[(key_id, month_of(when) if when is not None else self._this_month())] += 1

    def _this_month(self) -> str:
        month, ends = self._month
        now = time.time()
        if now >= ends:
            today = datetime.fromtimestamp(now, timezone.utc)
            nxt = datetime(today.year + today.month // 12, today.month % 12 + 1, 1, tzinfo=timezone.utc)
            month = month_of(today)
            self._month = (month, nxt.timestamp())
        return month

    async def flush(self, ctx: ToolContext) -> int:
        """Write the pending counts; on failure they stay pending for the next flush."""
        counts, self.pending = self.pending, Counter()
        if not counts:
            return 0
        try:
            async with ctx.transaction() as s:
                await q.add(session=s, counts=dict(counts))
        except BaseException:
            self.pending.update(counts)
            raise
        return sum(counts.values())


class SubscriptionQuery(In):
    pass


class KeyUsage(Out):
    key: str = Field(description="The key, masked: its first characters and an ellipsis")
    calls: int = Field(ge=0, description="Requests made with this key this calendar month (UTC)")


class Subscription(Out):
    calls: int = Field(ge=0, description="Requests made this calendar month (UTC) with the keys listed")
    api_keys: list[KeyUsage] = Field(description="The calling key only: other keys' usage is not shown")


@tool("subscription", method="GET", path="/v1/subscription/", agent=False)
async def subscription(ctx: ToolContext, _: SubscriptionQuery) -> Subscription:
    """Show this API key's usage this calendar month (UTC): the requests made with it, this one included."""
    key_id = ctx.key_id()
    month = month_of(ctx.clock())
    async with ctx.transaction() as s:
        stored = await q.calls(session=s, key_id=key_id, month=month)
        row = await s.get(ApiKey, key_id)
    calls = stored + (ctx.usage.pending[(key_id, month)] if ctx.usage else 0)
    prefix = row.prefix if row is not None else str(key_id)[:8]
    return Subscription(calls=calls, api_keys=[KeyUsage(key=f"{prefix}…", calls=calls)])
