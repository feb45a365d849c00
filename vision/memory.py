"""Handing the memory an image request freed back to the system.

glibc's allocator keeps what image work frees (decoded photos, straightened crops, the OCR
models' tensors: megabytes each, from the vision worker thread's own arena) for reuse, and with
it fragmented a server's resident size grew request after request: ``bench/identify_rss.py``
measured 306 MB after the first identification, 620 MB after 120 and a peak of 776 MB.
``release`` asks glibc to return every free page (``malloc_trim(0)``, all arenas); elsewhere (no
glibc) it does nothing. ``CARDWISE_MALLOC_TRIM=0`` turns it off.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from functools import lru_cache


@lru_cache(maxsize=1)
def _trim():
    if os.environ.get("CARDWISE_MALLOC_TRIM", "1") == "0":
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        fn = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    fn.argtypes, fn.restype = [ctypes.c_size_t], ctypes.c_int
    return fn


def release() -> bool:
    """Return freed heap memory to the system; True if glibc released some."""
    fn = _trim()
    return bool(fn(0)) if fn is not None else False
