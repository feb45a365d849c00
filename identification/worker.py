"""Where the image work runs (one worker thread, one image at a time per process, off the event loop),
and the time budget that stops a photo's closer reads."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import cv2

from identification import names
from vision import memory

# OpenCV's own threads per call in the image worker: 1, as the worker is one thread and onnxruntime already
# runs two; splitting each resize, blur and edge map across threads cost more CPU than it saved time on a
# busy 2-core machine (figures: evals/vision-results.md), for the same pixels
CV_THREADS = 1
_EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardwise-vision",
                               initializer=cv2.setNumThreads, initargs=(CV_THREADS,))


async def run_cpu(fn, *args, **kwargs):
    """Run CPU-bound image work off the event loop (one image at a time per process)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_EXECUTOR, lambda: fn(*args, **kwargs))


def release_memory() -> None:
    """After an image request: the word similarities cached for its matching are dropped, and the
    memory its work freed goes back to the system (``vision.memory``), in the image worker once its
    queued work is done, without holding up the response."""
    names.forget_word_similarities()
    _EXECUTOR.submit(memory.release)


def deadline(started: float, cards: int, budget_s: float, per_card_s: float) -> float | None:
    """When a photo's closer reads must stop starting (``time.perf_counter()``): the upload's start plus
    ``budget_s`` and ``per_card_s`` for each further card; None: no budget (``budget_s`` 0)."""
    if budget_s <= 0:
        return None
    return started + budget_s + per_card_s * max(0, cards - 1)


def past(until: float | None) -> bool:
    return until is not None and time.perf_counter() >= until
