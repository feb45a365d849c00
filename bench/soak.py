"""Bounded soak: mixed realistic traffic from concurrent clients against ``cardwise serve`` on PostgreSQL.

    .venv/bin/python bench/soak.py                      # ~60 s per worker count, 32 clients, 1 then 2 workers
    .venv/bin/python bench/soak.py --duration 600 --workers 1,2,4
    .venv/bin/python bench/soak.py --base-url http://host:8080 --key KEY   # an already running server

Traffic is discovered from /openapi.json, so routes merged later join in: catalog/grade reads
(list routes, and detail routes filled with ids from their list), collection writes (POST routes
whose body needs only a name) and the reads under what they created (analytics, cards), agent
questions, identifications (a small generated JPEG). Absent kinds are skipped with a note.
Prints p50/p99 per route template, error counts, server RSS over time and throughput per worker
count. Each client has its own API key (the per-key rate limit applies as in production).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._server import SEEDED, Servers, create_database, drop_database, prepare  # noqa: E402

Op = dict[str, Any]


def _jpeg() -> bytes:
    from PIL import Image

    img = Image.new("RGB", (300, 420), (200, 30, 30))
    for x in range(40, 260):
        for y in range(60, 70):
            img.putpixel((x, y), (250, 250, 250))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=80)
    return buf.getvalue()


def _first_ids(body: Any) -> list[str]:
    """Ids from the first list of objects in a response (``{"segments": [{"id": ...}]}`` or a list)."""
    if isinstance(body, list):
        return [str(x["id"]) for x in body if isinstance(x, dict) and "id" in x]
    if isinstance(body, dict):
        for v in body.values():
            if isinstance(v, list) and v and isinstance(v[0], dict) and "id" in v[0]:
                return [str(x["id"]) for x in v if "id" in x]
        if "id" in body:
            return [str(body["id"])]
    return []


def _body_schema(op: dict, doc: dict) -> dict | None:
    content = op.get("requestBody", {}).get("content", {})
    schema = (content.get("application/json") or {}).get("schema")
    if schema and "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _required_query(op: dict) -> dict[str, str] | None:
    """Values for the required query parameters (an enum's first value, a default, a search word),
    or None when one cannot be filled."""
    out = {}
    for p in op.get("parameters", []):
        if p.get("in") != "query" or not p.get("required"):
            continue
        schema = p.get("schema", {})
        if schema.get("enum"):
            out[p["name"]] = str(schema["enum"][0])
        elif schema.get("default") is not None:
            out[p["name"]] = str(schema["default"])
        elif p["name"] in ("q", "query", "name", "search"):
            out[p["name"]] = "ohtani"
        else:
            return None
    return out


class Plan:
    """What to call: built from /openapi.json and a warm-up pass."""

    def __init__(self) -> None:
        self.ops: list[tuple[str, float, Op]] = []  # (kind, weight, op)
        self.notes: list[str] = []

    def add(self, kind: str, weight: float, method: str, template: str, path: str, **kw: Any) -> None:
        self.ops.append((kind, weight, {"method": method, "template": template, "path": path, **kw}))

    def pick(self, rng: random.Random) -> Op:
        kinds = [o for o in self.ops]
        return rng.choices(kinds, weights=[w for _, w, _ in kinds])[0][2]


async def build_plan(http: aiohttp.ClientSession, base: str, key: str) -> Plan:
    plan = Plan()
    doc = await (await http.get(f"{base}/openapi.json")).json()
    h = {"X-API-Key": key}
    list_ids: dict[str, list[str]] = {}
    gets = [(p, o) for p, ops in doc["paths"].items() for m, o in ops.items() if m == "get"]
    for path, op in sorted(gets):
        if path in ("/metrics", "/openapi.json", "/docs") or "{" in path:
            continue
        if "image" in path or "random" in path:
            continue
        params = {p["name"] for p in op.get("parameters", []) if p.get("in") == "query"}
        query = {"take": "10"} if "take" in params else {}
        required = _required_query(op)
        if required is None:
            plan.notes.append(f"skipped GET {path}: a required query parameter it cannot fill")
            continue
        query.update(required)
        async with http.get(f"{base}{path}", params=query, headers=h) as r:
            if r.status != 200:
                plan.notes.append(f"skipped GET {path}: warm-up answered {r.status}")
                continue
            body = await r.json() if r.content_type == "application/json" else None
        list_ids[path] = _first_ids(body)
        plan.add("read", 3.0 if path.startswith("/v1/catalog") else 1.0, "GET", path, path, params=query)
    posts = [(p, o) for p, ops in doc["paths"].items() for m, o in ops.items() if m == "post"]
    writable = {p for p, o in posts if "{" not in p and 0 < len(set((_body_schema(o, doc) or {}).get("required", [])))
                and set(_body_schema(o, doc)["required"]) <= {"name"}}
    # detail routes: /x/{id} and /x/{id}/y filled with ids from the list route /x, or with what each
    # client created itself where /x is a write route (objects are private to the key)
    for path, op in sorted(gets):
        m = re.fullmatch(r"(.*?)/\{([^}]+)\}(.*)", path)
        if not m or "{" in m.group(3) or "image" in path:
            continue
        required = _required_query(op)
        kind = "analytics" if any(w in path for w in ("analytics", "breakdown", "progress")) else "read"
        if m.group(1) in writable and required is not None:
            plan.add(kind, 2.0, "GET", path, m.group(1) + "/{}" + m.group(3), own=m.group(1), params=required)
            continue
        ids = list_ids.get(m.group(1))
        param = m.group(2).lower()
        if not ids:  # an id of the seeded catalog where the parameter names an entity
            ids = next((SEEDED[e] for e in ("card", "set", "release") if param.startswith(e) and SEEDED.get(e)), None)
        if not ids:
            plan.notes.append(f"skipped GET {path}: no ids for {{{m.group(2)}}}")
            continue
        if required is None:
            plan.notes.append(f"skipped GET {path}: a required query parameter it cannot fill")
            continue
        plan.add(kind, 2.0, "GET", path, m.group(1) + "/{}" + m.group(3), ids=ids[:20], params=required)
    # writes: POST routes whose JSON body needs only a name; agent questions; identifications
    for path, op in sorted(posts):
        if "{" in path:
            continue
        schema = _body_schema(op, doc) or {}
        req = set(schema.get("required", []))
        if any(w in path for w in ("agent", "query", "ask", "chat")):
            field = next((f for f in ("query", "question", "message", "prompt") if f in schema.get("properties", {})),
                         None)
            if field:
                plan.add("agent", 0.5, "POST", path, path, json={field: "How many Shohei Ohtani cards are there?"})
                continue
        if "content" in op.get("requestBody", {}) and "multipart/form-data" in op["requestBody"]["content"]:
            if "identify" in path or "detect" in path:
                plan.add("identify", 0.5, "POST", path, path, upload=True)
            continue
        if path in writable:
            plan.add("write", 1.0, "POST", path, path, json={"name": "soak"}, creates=path)
    for kind, what in (("write", "collection writes"), ("agent", "agent questions"),
                       ("identify", "identifications"), ("analytics", "analytics")):
        if not any(k == kind for k, _, _ in plan.ops):
            plan.notes.append(f"no {what}: no such route on this build")
    return plan


class Stats:
    def __init__(self) -> None:
        self.lat: dict[str, list[float]] = defaultdict(list)
        self.status: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.errors: list[str] = []

    def record(self, op: Op, status: int, seconds: float) -> None:
        name = f"{op['method']} {op['template']}"
        self.lat[name].append(seconds)
        self.status[name][status] += 1
        if status >= 500 or status in (400, 401, 404, 405, 413, 429):
            if len(self.errors) < 20:
                self.errors.append(f"{name} -> {status}")

    @property
    def total(self) -> int:
        return sum(len(v) for v in self.lat.values())

    @property
    def error_count(self) -> int:
        return sum(n for d in self.status.values() for s, n in d.items()
                   if s >= 500 or s in (400, 401, 404, 405, 413, 429))


async def client(i: int, urls: list[str], key: str, plan: Plan, stats: Stats, stop: float, jpeg: bytes) -> None:
    rng = random.Random(i)
    base = urls[i % len(urls)]
    h = {"X-API-Key": key}
    created: dict[str, list[str]] = defaultdict(list)  # write route -> ids this client created
    writes = {o["creates"]: o for _, _, o in plan.ops if o.get("creates")}
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(timeout=timeout, connector=aiohttp.TCPConnector(limit=1)) as http:
        while time.monotonic() < stop:
            op = plan.pick(rng)
            if op.get("own") and not created[op["own"]]:
                op = writes[op["own"]]  # create something of its own first
            path = op["path"]
            if "{}" in path:
                path = path.replace("{}", rng.choice(created[op["own"]] if op.get("own") else op["ids"]))
            kw: dict[str, Any] = {"headers": h}
            if "params" in op:
                kw["params"] = op["params"]
            if "json" in op:
                kw["json"] = {**op["json"], **({"name": f"soak-{i}-{rng.random():.6f}"} if op.get("creates") else {})}
            if op.get("upload"):
                form = aiohttp.FormData()
                form.add_field("image", jpeg, filename="card.jpg", content_type="image/jpeg")
                kw["data"] = form
            t0 = time.perf_counter()
            try:
                async with http.request(op["method"], base + path, **kw) as r:
                    body = await r.read()
                    status = r.status
            except (aiohttp.ClientError, asyncio.TimeoutError):
                status, body = 599, b""
            stats.record(op, status, time.perf_counter() - t0)
            if op.get("creates") and status in (200, 201):
                created[op["creates"]] += _first_ids(json.loads(body))[:1]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


async def run_once(urls: list[str], keys: list[str], plan: Plan, duration: float, clients: int,
                   servers: Servers | None) -> tuple[Stats, list[tuple[float, list[float]]], float]:
    stats = Stats()
    jpeg = _jpeg()
    start = time.monotonic()
    stop = start + duration
    rss: list[tuple[float, list[float]]] = []

    async def sampler() -> None:
        while time.monotonic() < stop:
            if servers:
                rss.append((time.monotonic() - start, servers.rss_mb()))
            await asyncio.sleep(max(1.0, duration / 12))

    tasks = [asyncio.create_task(client(i, urls, keys[i % len(keys)], plan, stats, stop, jpeg))
             for i in range(clients)]
    samp = asyncio.create_task(sampler())
    await asyncio.gather(*tasks)
    await samp
    if servers:
        rss.append((time.monotonic() - start, servers.rss_mb()))
    return stats, rss, time.monotonic() - start


def report(label: str, stats: Stats, rss, elapsed: float) -> None:
    print(f"\n== {label}: {stats.total} requests in {elapsed:.1f} s = {stats.total / elapsed:.0f} req/s, "
          f"errors {stats.error_count}")
    print(f"{'route':60} {'n':>7} {'p50 ms':>8} {'p99 ms':>8}  statuses")
    for name in sorted(stats.lat):
        v = stats.lat[name]
        codes = ",".join(f"{s}:{n}" for s, n in sorted(stats.status[name].items()))
        print(f"{name[:60]:60} {len(v):7d} {pct(v, .5) * 1000:8.1f} {pct(v, .99) * 1000:8.1f}  {codes}")
    if stats.errors:
        print("first errors:", "; ".join(stats.errors[:10]))
    if rss:
        print("server RSS MB over time:", "  ".join(f"{t:.0f}s:" + "/".join(f"{m:.0f}" for m in ms) for t, ms in rss))


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=float, default=60, help="seconds per worker count (default 60)")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--workers", default="1,2", help="worker process counts to compare, e.g. 1,2,4")
    ap.add_argument("--base-url", help="use a running server instead of starting workers")
    ap.add_argument("--key", help="API key for --base-url")
    args = ap.parse_args()

    if args.base_url:
        async with aiohttp.ClientSession() as http:
            plan = await build_plan(http, args.base_url, args.key)
        print("\n".join("note: " + n for n in plan.notes))
        stats, rss, el = await run_once([args.base_url], [args.key], plan, args.duration, args.clients, None)
        report(args.base_url, stats, rss, el)
        return 1 if stats.error_count else 0

    url, name = await create_database()
    failed = False
    try:
        keys = await prepare(url, args.clients)
        throughput = {}
        for n in [int(x) for x in args.workers.split(",")]:
            servers = Servers(url, n)
            try:
                await servers.wait_ready()
                async with aiohttp.ClientSession() as http:
                    plan = await build_plan(http, servers.urls[0], keys[0])
                if n == int(args.workers.split(",")[0]):
                    print(f"soak on PostgreSQL, {args.clients} clients, {args.duration:.0f} s per run; routes in the mix: "
                          f"{len(plan.ops)}")
                    print("\n".join("note: " + x for x in plan.notes))
                stats, rss, el = await run_once(servers.urls, keys, plan, args.duration, args.clients, servers)
                report(f"{n} worker(s)", stats, rss, el)
                print("server peak RSS MB:", "/".join(f"{m:.0f}" for m in servers.peak_mb()))
                throughput[n] = stats.total / el
                failed |= stats.error_count > 0
            finally:
                servers.stop()
        print("\nthroughput by workers:", "  ".join(f"{n}: {t:.0f} req/s" for n, t in throughput.items()))
    finally:
        await drop_database(name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
