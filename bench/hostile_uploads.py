"""Peak server memory and /health latency under hostile bodies: 25 MB uploads (with and without a
length, multipart), gzip bombs, huge and deeply nested JSON, and hostile images (bad shapes, pixel
bombs, the largest images the decoder accepts) sent to every image route, many at once. Prints the
server's RSS before, its peak (VmHWM) after each attack, whether it still serves, and the /health
latency (p50, p99, max, polled every 20 ms by another process) while the attack runs.
Targets (issue 27): peak <= 600 MB, /health p99 <= 100 ms while 8 hostile uploads run.

    .venv/bin/python bench/hostile_uploads.py [--parallel 8]
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import io
import json
import statistics
import sys
import time
from pathlib import Path

import aiohttp
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._server import SEEDED, Servers, create_database, drop_database, prepare  # noqa: E402
from tests.hardening.images import encoded, png_of  # noqa: E402

MB = 1024 * 1024


def _stream(total: int, chunk: int = 256 * 1024):
    async def gen():
        left = total
        while left > 0:
            n = min(chunk, left)
            yield b"\xff" * n
            left -= n
    return gen()


def attacks() -> dict[str, tuple[str, dict]]:
    bomb = gzip.compress(b"\0" * (1024 * MB), compresslevel=9)
    return {
        "25 MB upload, Content-Length": ("/probe/upload", {"data": io.BytesIO(b"\xff" * 25 * MB),
                                                           "headers": {"Content-Type": "image/jpeg"}}),
        "25 MB upload, chunked": ("/probe/upload", {"data": "stream25", "headers": {"Content-Type": "image/jpeg"}}),
        "25 MB multipart": ("/probe/upload", {"data": "form25"}),
        f"gzip bomb ({len(bomb) // 1024} KB -> 1 GB)": ("/probe/upload", {"data": bomb, "headers": {
            "Content-Type": "image/jpeg", "Content-Encoding": "gzip"}}),
        "3 MB JSON": ("/probe/json", {"data": b'{"items": [' + b'"xxxxxxxx",' * 300_000 + b'"x"]}',
                                      "headers": {"Content-Type": "application/json"}}),
        "JSON nested 100k deep": ("/probe/json", {"data": b'{"items": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
                                                  "headers": {"Content-Type": "application/json"}}),
        "zero-byte body": ("/probe/upload", {"data": b"", "headers": {"Content-Type": "image/jpeg"}}),
    }


def hostile_images() -> dict[str, tuple[bytes, str]]:
    """Image bodies: the issue's reproductions, and images just inside the decoder's limits."""
    exif = Image.Exif()
    exif[0x0112] = 6
    big = Image.new("RGB", (8000, 8000), (10, 20, 30))
    out = {
        "PNG 1 x 60,000,000": (png_of(1, 60_000_000), "image/png"),
        "PNG 5000 x 1": (png_of(5000, 1), "image/png"),
        "WebP 8000 x 8000": (encoded(big, "WEBP", quality=10, method=0), "image/webp"),
        "JPEG 8000 x 6000 rotated (accepted)": (encoded(big.crop((0, 0, 8000, 6000)), "JPEG", quality=30, exif=exif),
                                                "image/jpeg"),
    }
    del big
    out["PNG 16-bit grey 6000 x 5000 (accepted)"] = (png_of(6000, 5000, 16, 0), "image/png")
    out["PNG RGBA 4000 x 4000 (accepted)"] = (png_of(4000, 4000, 8, 6), "image/png")
    out["PNG RGB 6000 x 6000 (accepted)"] = (png_of(6000, 6000, 8, 2), "image/png")
    out["PNG RGBA 7000 x 7000"] = (png_of(7000, 7000, 8, 6), "image/png")
    return out


async def image_routes(http: aiohttp.ClientSession, base: str, key: str) -> list[str]:
    """The four image routes (identify, detect, CardMagic, a collection entry's photo)."""
    h = {"X-API-Key": key}
    async with http.post(f"{base}/v1/collectors/", json={"name": "bench"}, headers=h) as r:
        collector = (await r.json())["id"]
    async with http.post(f"{base}/v1/collection/", json={"collectorId": collector}, headers=h) as r:
        cid = (await r.json())["id"]
    async with http.post(f"{base}/v1/collection/{cid}/cards", json={"cardId": SEEDED["card"][0]}, headers=h) as r:
        entry = (await r.json())["id"]
    return ["/v1/identify/card", "/v1/detect/card", "/v1/cardmagic/process",
            f"/v1/collection/{cid}/cards/{entry}/image"]


_POLLER = """
import json, sys, threading, time, urllib.request
stop = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
times = []
while not stop.is_set():
    t0 = time.perf_counter()
    try:
        urllib.request.urlopen(sys.argv[1] + "/health", timeout=60).read()
    except OSError:
        pass
    times.append((time.perf_counter() - t0) * 1000)
    time.sleep(0.02)
print(json.dumps(times))
"""


async def start_poller(base: str):
    """/health answer times (ms), polled every 20 ms by a process of its own (so the bench's own
    event loop, busy sending the attack, does not count) until its stdin closes."""
    return await asyncio.create_subprocess_exec(sys.executable, "-c", _POLLER, base, stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE)


async def stop_poller(proc) -> list[float]:
    out, _ = await proc.communicate(b"")
    return json.loads(out or b"[]")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def fire(http: aiohttp.ClientSession, base: str, key: str, path: str, kw: dict) -> str:
    kw = dict(kw)
    kw["headers"] = {**kw.get("headers", {}), "X-API-Key": key}
    if kw.get("data") == "stream25":
        kw["data"] = _stream(25 * MB)
    elif kw.get("data") == "form25":
        form = aiohttp.FormData()
        form.add_field("image", io.BytesIO(b"\xff" * 25 * MB), filename="x.jpg", content_type="image/jpeg")
        kw["data"] = form
    elif isinstance(kw.get("data"), io.BytesIO):
        kw["data"] = io.BytesIO(kw["data"].getvalue())
    try:
        async with http.post(base + path, **kw) as r:
            await r.read()
            return str(r.status)
    except aiohttp.ClientError as exc:
        return type(exc).__name__


async def still_serving(base: str, key: str) -> bool:
    """A fresh connection gets a normal answer (the attack's own connections may have been cut)."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as fresh:
        try:
            async with fresh.get(f"{base}/v1/grades/companies", headers={"X-API-Key": key}) as r:
                return r.status == 200
        except aiohttp.ClientError:
            return False


async def attack(base: str, key: str, servers: Servers, label: str, calls: list) -> tuple[bool, float]:
    """Run ``calls`` (coroutine factories) at once while /health is polled; print one row; (ok, p99 ms)."""
    poller = await start_poller(base)
    await asyncio.sleep(0.3)
    t0 = time.perf_counter()
    answers = await asyncio.gather(*(c() for c in calls))
    took = time.perf_counter() - t0
    lat = await stop_poller(poller)
    serving = await still_serving(base, key) and servers.procs[0].poll() is None
    ok = serving and all(a.startswith(("2", "4")) or a in ("ClientOSError", "ServerDisconnectedError")
                         for a in answers)
    summary = ",".join(sorted(set(answers)))
    p99 = pct(lat, 0.99)
    print(f"{label:40} {len(calls):3d} {summary[:24]:24} {took:5.1f} {servers.rss_mb()[0]:7.0f} "
          f"{servers.peak_mb()[0]:8.0f} {pct(lat, 0.5):6.1f} {p99:6.1f} {max(lat, default=0):6.1f} "
          f"{'yes' if serving else 'NO'}")
    return ok, p99


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--parallel", type=int, default=8, help="copies of each attack sent at once")
    args = ap.parse_args()
    images = hostile_images()
    url, name = await create_database()
    ok = True
    try:
        key = (await prepare(url, 1))[0]
        servers = Servers(url, 1, env={"CARDWISE_RATE_LIMIT_PER_MIN": "0"}, module="bench._probe_server")
        try:
            await servers.wait_ready()
            base = servers.urls[0]
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as http:
                await http.get(f"{base}/v1/grades/companies", headers={"X-API-Key": key})
                routes = await image_routes(http, base, key)
                print(f"server RSS at rest: {servers.rss_mb()[0]:.0f} MB (peak so far {servers.peak_mb()[0]:.0f} MB)")
                print(f"{'attack':40} {'x':>3} {'answers':24} {'s':>5} {'RSS MB':>7} {'peak MB':>8} "
                      f"{'p50 ms':>6} {'p99 ms':>6} {'max ms':>6} serving")
                _, idle_p99 = await attack(base, key, servers, "(none: /health alone for 1 s)",
                                           [lambda: asyncio.sleep(1, "200")])
                p99s = {"body": [], "image": []}
                for label, (path, kw) in attacks().items():
                    good, p99 = await attack(base, key, servers, label,
                                             [lambda p=path, k=kw: fire(http, base, key, p, k)] * args.parallel)
                    ok &= good
                    p99s["body"].append(p99)
                for label, (data, ctype) in images.items():
                    calls = [lambda r=routes[i % len(routes)]: fire(http, base, key, r, {
                        "data": data, "headers": {"Content-Type": ctype}}) for i in range(args.parallel)]
                    good, p99 = await attack(base, key, servers, label, calls)
                    ok &= good
                    p99s["image"].append(p99)
                peak = servers.peak_mb()[0]
                worst = max(p99s["image"])
                verdict = "met" if peak <= 600 else "NOT met"
                print(f"server peak over the run: {peak:.0f} MB (target <= 600 MB: {verdict})")
                print(f"/health p99 while {args.parallel} hostile image uploads run: worst {worst:.1f} ms, median "
                      f"{statistics.median(p99s['image']):.1f} ms (alone {idle_p99:.1f} ms; target <= 100 ms: "
                      f"{'met' if worst <= 100 else 'NOT met'}); under the body attacks: worst "
                      f"{max(p99s['body']):.1f} ms")
        finally:
            servers.stop()
    finally:
        await drop_database(name)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
