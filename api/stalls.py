"""Event-loop stall log (CARDWISE_STALL_LOG_MS): a heartbeat on the loop and a watcher thread that, when the
beat is late by the threshold, takes the loop thread's stack; the beat then logs how long the loop was held
and where, so a blocking call in a handler shows in the logs instead of only as other requests' latency."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
import traceback
from collections.abc import AsyncIterator

from aiohttp import web

from api.keys import SETTINGS

log = logging.getLogger("cardwise.api.stalls")
STACK_FRAMES = 8  # innermost frames logged
IDLE = "idle in select: the process waited for a core, or for the GIL another thread held"


class StallWatch:
    """Heartbeat (on the loop) and watcher (a daemon thread); ``threshold_s`` late = a stall."""

    def __init__(self, threshold_s: float) -> None:
        self.threshold_s = threshold_s
        self.beat = time.monotonic()
        self.where: tuple[float, list[str]] = (0.0, [])  # (the beat it is late after, the loop thread's stack)
        self.loop_thread = threading.get_ident()
        self._stop = threading.Event()

    def watch(self) -> None:
        """Watcher thread: take the loop's stack once per stall, while it is still stuck."""
        while not self._stop.wait(self.threshold_s / 4):
            beat = self.beat
            if self.where[0] != beat and time.monotonic() - beat > self.threshold_s:
                frame = sys._current_frames().get(self.loop_thread)
                if frame is not None:
                    stack = traceback.extract_stack(frame)[-STACK_FRAMES:]
                    self.where = (beat, [f"{'/'.join(f.filename.rsplit('/', 2)[-2:])}:{f.lineno} {f.name}"
                                         for f in stack])

    async def heartbeat(self) -> None:
        step = self.threshold_s / 4
        self.beat = time.monotonic()
        while True:
            await asyncio.sleep(step)
            now = time.monotonic()
            late = now - self.beat - step
            if late > self.threshold_s:
                taken, stack = self.where
                stack = stack if taken == self.beat else []
                # caught in select: the loop had nothing to run, yet woke late (no core free, or no GIL)
                where = IDLE if stack and stack[-1].endswith(" select") else " < ".join(reversed(stack))
                log.warning("event loop blocked", extra={"blocked_ms": round(late * 1000, 1), "where": where})
            self.beat = now

    def stop(self) -> None:
        self._stop.set()


async def stall_log(app: web.Application) -> AsyncIterator[None]:
    """Cleanup context: the stall log while the app runs, when CARDWISE_STALL_LOG_MS is above 0."""
    ms = app[SETTINGS].stall_log_ms
    if ms <= 0:
        yield
        return
    watch = StallWatch(ms / 1000)
    threading.Thread(target=watch.watch, name="stall-watch", daemon=True).start()
    beat = asyncio.create_task(watch.heartbeat())
    try:
        yield
    finally:
        watch.stop()
        beat.cancel()
