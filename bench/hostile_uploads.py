"""Peak server memory under hostile bodies: 25 MB uploads (with and without a length, multipart),
gzip bombs, huge and deeply nested JSON, many at once. Prints the server's RSS before, its peak
(VmHWM) after each attack, and whether it still serves.

    .venv/bin/python bench/hostile_uploads.py [--parallel 8]
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import io
import sys
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._server import Servers, create_database, drop_database, prepare  # noqa: E402

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


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--parallel", type=int, default=8, help="copies of each attack sent at once")
    args = ap.parse_args()
    url, name = await create_database()
    ok = True
    try:
        key = (await prepare(url, 1))[0]
        servers = Servers(url, 1, module="bench._probe_server")
        try:
            await servers.wait_ready()
            base = servers.urls[0]
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as http:
                await http.get(f"{base}/v1/grades/companies", headers={"X-API-Key": key})
                print(f"server RSS at rest: {servers.rss_mb()[0]:.0f} MB (peak so far {servers.peak_mb()[0]:.0f} MB)")
                print(f"{'attack':40} {'x':>3} {'answers':24} {'s':>5} {'RSS MB':>7} {'peak MB':>8} serving")
                for label, (path, kw) in attacks().items():
                    t0 = time.perf_counter()
                    answers = await asyncio.gather(*(fire(http, base, key, path, kw) for _ in range(args.parallel)))
                    took = time.perf_counter() - t0
                    serving = await still_serving(base, key) and servers.procs[0].poll() is None
                    ok &= serving and all(a.startswith("4") or a in ("ClientOSError", "ServerDisconnectedError")
                                          for a in answers)
                    summary = ",".join(sorted(set(answers)))
                    print(f"{label:40} {args.parallel:3d} {summary:24} {took:5.1f} {servers.rss_mb()[0]:7.0f} "
                          f"{servers.peak_mb()[0]:8.0f} {'yes' if serving else 'NO'}")
        finally:
            servers.stop()
    finally:
        await drop_database(name)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
