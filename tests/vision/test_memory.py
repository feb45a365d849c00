"""Memory an image request freed goes back to the system (a server's resident size must not creep
up request after request: it had reached 620 MB after 120 identifications), and the server's
allocator is tuned at start so a request's freed blocks do not pile up inside it either."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.factories import seed_catalog
from tests.hardening.pgcluster import free_port
from tests.hardening.test_shutdown import _wait_ready
from tests.vision.helpers import photo
from tests.vision.ocr_fakes import read_lines
from identification import names as m
from identification import worker
from vision import memory

ROOT = Path(__file__).resolve().parents[2]
RSS = textwrap.dedent("""
    def rss():
        line = next(x for x in open("/proc/self/status") if x.startswith("VmRSS:"))
        return int(line.split()[1]) // 1024
""")
# ~200 MB in heap blocks, one in 64 kept (so the freed ones lie between live ones, as after a
# request), then the resident size before and after ``release``
PROGRAM = RSS + textwrap.dedent("""
    from vision import memory
    blocks = [bytearray(4000) for _ in range(50_000)]
    keep = blocks[::64]
    del blocks
    before = rss()
    memory.release()
    print(before, rss())
""")


def _rss_before_and_after(program: str, env: dict[str, str]) -> tuple[int, int]:
    """The two sizes ``program`` prints, run with glibc as it comes unless ``env`` tunes it."""
    clean = {k: v for k, v in os.environ.items() if k not in ("GLIBC_TUNABLES", "CARDWISE_MALLOC_TUNE")}
    out = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env={**clean, **env}, check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[0]), int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim and /proc are Linux's")
def test_freed_memory_is_handed_back_to_the_system_unless_turned_off():
    before, after = _rss_before_and_after(PROGRAM, {"CARDWISE_MALLOC_TRIM": "1"})
    assert before - after > 100, (before, after)
    before, after = _rss_before_and_after(PROGRAM, {"CARDWISE_MALLOC_TRIM": "0"})
    assert before - after < 20, (before, after)


@pytest.fixture
async def cat(sessions):
    return await seed_catalog(sessions)


async def test_every_image_request_releases_its_memory_also_when_it_fails(client, auth, cat, monkeypatch):
    calls = []
    monkeypatch.setattr(memory, "release", lambda: calls.append(1))
    data = photo(cat, ["judge"], seed=3)
    jpeg = {**auth, "Content-Type": "image/jpeg"}
    for path in ("/v1/identify/card", "/v1/detect/card", "/v1/cardmagic/process"):
        r = await client.post(path, data=data, headers=jpeg)
        assert r.status == 200, path
        r = await client.post(path, data=data[: len(data) // 3], headers=jpeg)  # truncated
        assert r.status == 400, path
    worker._EXECUTOR.submit(lambda: None).result()  # the releases queued behind the work are done
    assert len(calls) == 6


async def test_an_answered_identification_keeps_no_word_similarities(client, auth, cat, monkeypatch):
    # the matching caches how well each catalog name's words fit the words read (tens of MB once
    # full, on a real catalog); the next photo reads other words, so the cache goes with the request
    read_lines(monkeypatch, ["Prwl Slrenes"])  # a blurred name: scored word by word

    async def identify() -> int:
        m._word_similarity.cache_clear()
        r = await client.post("/v1/identify/card", data=photo(cat, ["skenes"], seed=4),
                              headers={**auth, "Content-Type": "image/jpeg"})
        assert r.status == 200 and (await r.json())["detections"]
        return m._word_similarity.cache_info().currsize

    assert await identify() == 0
    monkeypatch.setattr(m, "forget_word_similarities", lambda: None)
    assert await identify() > 0  # what the request had cached


# An OCR call's blocks, as glibc sees them: one 12 MB block freed first (glibc then raises its mmap
# threshold to 12 MB), then twelve more in the worker thread, each followed by a small block that
# stays alive, all twelve freed; the resident size before and after, with no ``release``
FRAGMENTS = RSS + textwrap.dedent("""
    import threading
    kept, out = [], []
    def work():
        bytearray(12 << 20)
        big = []
        for _ in range(12):
            big.append(bytearray(b"x" * (12 << 20)))
            kept.append(bytearray(64))
        out.append(rss())
        del big[:]
        out.append(rss())
    t = threading.Thread(target=work)
    t.start()
    t.join()
    print(*out)
""")

needs_tuning = pytest.mark.skipif(memory.tuned_environ({}) is None,
                                  reason="glibc 2.35+ with transparent huge pages only")


@needs_tuning
def test_with_the_tuned_allocator_big_blocks_go_back_to_the_system_as_they_are_freed():
    held, tuned = _rss_before_and_after(FRAGMENTS, memory.tuned_environ({}))
    assert held - tuned > 120, (held, tuned)
    # glibc as it comes keeps most of them between the small blocks
    _, untuned = _rss_before_and_after(FRAGMENTS, {})
    assert untuned - tuned > 80, (untuned, tuned)


def test_tuning_applies_only_where_it_helps_and_never_over_an_operators_own(monkeypatch, tmp_path):
    monkeypatch.setattr(memory, "glibc_version", lambda: (2, 36))
    thp = tmp_path / "enabled"
    monkeypatch.setattr(memory, "THP", thp)
    thp.write_text("always [madvise] never\n")
    tuned = memory.tuned_environ({"PATH": "/bin"})
    assert tuned["PATH"] == "/bin"
    assert "glibc.malloc.mmap_threshold=4194304" in tuned["GLIBC_TUNABLES"].split(":")
    assert "glibc.malloc.hugetlb=1" in tuned["GLIBC_TUNABLES"].split(":")
    assert memory.tuned_environ({"CARDWISE_MALLOC_TUNE": "0"}) is None
    assert memory.tuned_environ({"GLIBC_TUNABLES": "glibc.malloc.arena_max=4"}) is None
    thp.write_text("always madvise [never]\n")  # without huge pages the thresholds cost speed
    assert memory.tuned_environ({}) is None
    thp.unlink()
    assert memory.tuned_environ({}) is None
    thp.write_text("[always] madvise never\n")
    monkeypatch.setattr(memory, "glibc_version", lambda: (2, 34))  # no hugetlb tunable yet
    assert memory.tuned_environ({}) is None
    monkeypatch.setattr(memory, "glibc_version", lambda: None)  # musl, macOS
    assert memory.tuned_environ({}) is None


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(x.decode().split("=", 1) for x in raw if b"=" in x)


@needs_tuning
@pytest.mark.parametrize("tune", ["1", "0"])
async def test_the_server_runs_with_the_tuned_allocator_unless_turned_off(db_url, tune, tmp_path):
    port = free_port()
    env = {**{k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}, "CARDWISE_DATABASE_URL": db_url,
           "CARDWISE_MALLOC_TUNE": tune}
    with (tmp_path / "server.log").open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--no-migrate", "--port", str(port)],
                                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        await _wait_ready(f"http://127.0.0.1:{port}", proc)  # the process it started (same pid) answers
        # (glibc splits the variable where the kernel shows it, so only its start is compared)
        tunables = _environ(proc.pid).get("GLIBC_TUNABLES")
        if tune == "1":
            assert tunables and memory.tuned_environ({})["GLIBC_TUNABLES"].startswith(tunables)
        else:
            assert tunables is None
    finally:
        proc.terminate()
        proc.wait(20)
