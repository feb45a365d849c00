"""Memory an image request freed goes back to the system (a server's resident size must not creep
up request after request: it had reached 620 MB after 120 identifications)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.factories import seed_catalog
from tests.vision.helpers import photo
from tools import identify as ident
from vision import memory

ROOT = Path(__file__).resolve().parents[2]
# ~200 MB in heap blocks, one in 64 kept (so the freed ones lie between live ones, as after a
# request), then the resident size before and after ``release``
PROGRAM = textwrap.dedent("""
    from vision import memory
    def rss():
        line = next(x for x in open("/proc/self/status") if x.startswith("VmRSS:"))
        return int(line.split()[1]) // 1024
    blocks = [bytearray(4000) for _ in range(50_000)]
    keep = blocks[::64]
    del blocks
    before = rss()
    memory.release()
    print(before, rss())
""")


def _rss_before_and_after(env: dict[str, str]) -> tuple[int, int]:
    out = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, env={**os.environ, **env}, check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[0]), int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim and /proc are Linux's")
def test_freed_memory_is_handed_back_to_the_system_unless_turned_off():
    before, after = _rss_before_and_after({"CARDWISE_MALLOC_TRIM": "1"})
    assert before - after > 100, (before, after)
    before, after = _rss_before_and_after({"CARDWISE_MALLOC_TRIM": "0"})
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
    ident._EXECUTOR.submit(lambda: None).result()  # the releases queued behind the work are done
    assert len(calls) == 6
