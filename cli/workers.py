"""``cardwise serve --workers N``: N forked server processes sharing one port through SO_REUSEPORT.

The parent has already migrated the database; it forks the workers (each builds its own app,
engine and pool after the fork, so no connection crosses a process), then only supervises:
SIGTERM or SIGINT is passed on to every worker as SIGTERM (aiohttp's graceful shutdown: stop
accepting, finish in-flight requests, close the pool); if one worker dies on its own, the others
are stopped too and the exit status is non-zero, so a supervisor restarts the whole service.
Workers sit in their own process group, so a terminal's Ctrl-C reaches them only once, through
the parent.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable

log = logging.getLogger("cardwise.api")


def _worker(serve: Callable[[], None]) -> None:
    os.setpgid(0, 0)
    for s in (signal.SIGTERM, signal.SIGINT):  # the parent's flag-setting handlers came along with the fork
        signal.signal(s, signal.SIG_DFL)
    serve()


def run_workers(serve: Callable[[], None], n: int, *, grace_s: float = 15.0) -> int:
    """Run ``serve`` (which must bind with ``reuse_port=True``) in ``n`` forked processes until a signal."""
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_worker, args=(serve,), name=f"cardwise-worker-{i}", daemon=False)
             for i in range(n)]
    stopping = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    old = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        for p in procs:
            p.start()
        log.info("workers started", extra={"workers": n, "pids": [p.pid for p in procs]})
        while not stopping and all(p.is_alive() for p in procs):
            time.sleep(0.2)
        died = [p for p in procs if not p.is_alive()] if not stopping else []
        for p in procs:
            if p.is_alive():
                os.kill(p.pid, signal.SIGTERM)  # type: ignore[arg-type]
        deadline = time.monotonic() + grace_s
        for p in procs:
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join()
        if died:
            print(f"worker {died[0].name} exited with {died[0].exitcode}; stopped the others", file=sys.stderr)
            return 1
        return 0
    finally:
        for s, h in old.items():
            signal.signal(s, h)
