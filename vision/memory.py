"""Keeping an image worker's resident memory down: glibc's allocator tuned at start, and freed
memory handed back after each request.

glibc keeps what image work frees (decoded photos, straightened crops, the OCR models' tensors:
megabytes each) for reuse, in one arena per thread, and raises its mmap threshold to the largest
block freed, so later blocks of that size stay in the heap. A server's resident size grew
request after request (``bench/identify_rss.py``: 620 MB after 120 identifications, peak 776 MB),
and one OCR call left up to 140 MB behind that the next did not reuse (the peak, 560-610 MB, was
reached inside a request).

- ``release`` asks glibc to return every free page after a request (``malloc_trim(0)``, all
  arenas); elsewhere (no glibc) it does nothing. ``CARDWISE_MALLOC_TRIM=0`` turns it off.
- ``exec_tuned`` restarts the server's process once, at start, with ``TUNABLES`` in
  ``GLIBC_TUNABLES`` (glibc reads them only when a process starts): blocks of 4 MB and more come
  from their own mappings and go back to the system when freed, with transparent huge pages for
  those mappings. It trades speed for memory: fresh pages must be zeroed, reused heap need not.
  Measured (``bench/identify_rss.py``, 120 requests; the eval, seed 7, medium and scans rows, time
  per row against glibc as it comes in the same session):

  | mmap threshold | server peak | eval peak | eval time |
  |---|---|---|---|
  | dynamic (glibc as it comes) | 543-611 MB | 526-591 MB | 1 |
  | 8 MB | 479, 529 MB | 466-470 MB | 0.93-0.95 |
  | **4 MB** (default) | 446 MB | 447-454 MB | 1.06-1.15 |
  | 2 MB | 414-428 MB | 419-435 MB | 1.10-1.19 |

  Without huge pages a 2 MB threshold cost 14-28 %; one arena for all threads lowered nothing
  further. It applies only with glibc 2.35 or later and transparent huge pages not turned off. An
  operator's own ``GLIBC_TUNABLES`` is left as it is (``glibc.malloc.mmap_threshold=8388608`` buys
  the speed back); ``CARDWISE_MALLOC_TUNE=0`` turns the tuning off.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from functools import lru_cache
from pathlib import Path

TUNABLES = {
    "glibc.malloc.hugetlb": "1",  # transparent huge pages for the allocator's mappings (madvise)
    "glibc.malloc.mmap_threshold": str(4 << 20),
    "glibc.malloc.trim_threshold": str(32 << 20),
}
THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")


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


def glibc_version() -> tuple[int, int] | None:
    try:
        name, version = (os.confstr("CS_GNU_LIBC_VERSION") or "").split()
        major, minor = version.split(".")[:2]
        return (int(major), int(minor)) if name == "glibc" else None
    except (ValueError, OSError, AttributeError):
        return None


def huge_pages() -> bool:
    """Whether the kernel gives transparent huge pages to mappings that ask (``madvise`` or ``always``)."""
    try:
        return "[never]" not in THP.read_text()
    except OSError:
        return False


def tuned_environ(environ: dict[str, str]) -> dict[str, str] | None:
    """``environ`` with ``TUNABLES`` in ``GLIBC_TUNABLES``; None where they do not apply (see the
    module docstring) or are set already."""
    if environ.get("CARDWISE_MALLOC_TUNE", "1") == "0" or "GLIBC_TUNABLES" in environ:
        return None
    version = glibc_version()
    if version is None or version < (2, 35) or not huge_pages():
        return None
    return {**environ, "GLIBC_TUNABLES": ":".join(f"{k}={v}" for k, v in TUNABLES.items())}


def exec_tuned() -> None:
    """Restart this program (same interpreter and arguments, same pid) with ``tuned_environ``; a
    no-op where it does not apply. Call it first thing in a program's entry point, never from
    library code or tests (it replaces the running process)."""
    env = tuned_environ(dict(os.environ))
    if env is None or not sys.executable:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)
    except OSError:  # pragma: no cover - the interpreter cannot be run again: go on untuned
        return
