"""Server CPU per 1,000 cold name searches (or autocomplete prefixes), two trees served side by side.

    python bench/catalog_search_cpu_pair.py --url URL --url-key KEYFILE --search-dir DIR TREE_A TREE_B
                                            [--n 3000] [--rounds 6] [--target autocomplete] [--log-level INFO]

On a shared machine one server's CPU per request moves by 15-30 % from run to run with the others' load;
two servers run at the same time see the same load. Each round starts ``cardwise serve`` (one process,
log level WARNING unless ``--log-level``, rate limit off, as ``catalog_search_bench.py`` runs it) from each tree (its own
``.venv``), waits until both idle after start-up, warms both with the same 600 names, then drives both at
once with their own ``wrk`` (32 connections) through the same ``--n`` distinct catalog names, each asked
once (no answer comes from the response cache; ``--target autocomplete``: the bench's autocomplete prefixes at
``/v1/autocomplete/cards``). Prints each server's CPU seconds (user + system, from
``/proc/<pid>/stat``) per 1,000 requests, and the ratio B / A per round. Both trees share the index folder
(``--search-dir``) when their index schema is the same.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.catalog_search_bench import catalog_terms  # noqa: E402

# each request the next line of a file; a thread stops after its share of lines and writes a marker, so
# the driver stops wrk (SIGINT: it prints its figures) after a fixed number of requests, not a duration
LUA = r"""
local n = 0
function setup(thread) thread:set("tid", n); n = n + 1 end
function init(args)
  paths = {}
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  marker = args[2]; pos = tid; got = 0
end
function request()
  local path = paths[(pos % #paths) + 1]; pos = pos + 1
  return wrk.format("GET", path)
end
function response(status, headers, body)
  got = got + 1
  if got >= #paths then
    local m = io.open(marker, "w"); m:write("x"); m:close()
    wrk.thread:stop()
  end
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests": %d, "errors": %d, "p99": %d}\n', summary.requests,
    e.status + e.connect + e.read + e.write + e.timeout, latency:percentile(99)))
end
"""


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _serve(tree: str, env: dict) -> tuple[subprocess.Popen, int]:
    port = _port()
    proc = subprocess.Popen([f"{tree}/.venv/bin/python", "-m", "cli", "serve", "--port", str(port), "--no-migrate",
                             "--workers", "1"], env=env, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc, port


def _wait_idle(servers: list[tuple[subprocess.Popen, int]]) -> None:
    for _, port in servers:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
    before = [_cpu(p.pid) for p, _ in servers]
    while True:  # start-up work (identification's warm-up thread) over: both idle
        time.sleep(1.0)
        now = [_cpu(p.pid) for p, _ in servers]
        if all(b - a < 0.03 for a, b in zip(before, now)):
            return
        before = now


def _drive(servers, paths: Path, folder: Path, key: str) -> list[tuple[float, dict]]:
    """Both servers at once, each through every line of ``paths``: (CPU seconds, wrk's figures) each."""
    runs, start = [], [_cpu(p.pid) for p, _ in servers]
    for i, (_, port) in enumerate(servers):
        marker = folder / f"done-{i}"
        marker.unlink(missing_ok=True)
        runs.append((subprocess.Popen(["wrk", "-t", "1", "-c", "32", "-d", "600s", "--timeout", "10s", "-H",
                                       f"X-API-Key: {key}", "-s", str(folder / "paths.lua"),
                                       f"http://127.0.0.1:{port}", "--", str(paths), str(marker)],
                                      stdout=subprocess.PIPE, text=True), marker))
    out: list = [None] * len(servers)
    while any(o is None for o in out):
        for i, (wrk, marker) in enumerate(runs):
            if out[i] is None and marker.exists():
                wrk.send_signal(2)
                text = wrk.communicate()[0]
                time.sleep(0.2)  # the last answers written
                figures = json.loads(next(x for x in text.splitlines() if x.startswith("WRKJSON "))[8:])
                out[i] = (_cpu(servers[i][0].pid) - start[i], figures)
        time.sleep(0.02)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trees", nargs=2, help="two source trees, each with its .venv")
    ap.add_argument("--url", required=True, help="a database with the catalog (SQLAlchemy URL)")
    ap.add_argument("--url-key", required=True, help="a file holding an API key of that database")
    ap.add_argument("--search-dir", required=True, help="the index folder both servers use (built on first use)")
    ap.add_argument("--n", type=int, default=3000, help="distinct names per round")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--target", choices=["names", "autocomplete"], default="names",
                    help="cold name searches, or autocomplete prefixes")
    ap.add_argument("--log-level", default="WARNING", help="the servers' log level (INFO: an access record a request)")
    args = ap.parse_args()
    key = Path(args.url_key).read_text().strip()
    names, prefixes = asyncio.run(catalog_terms(args.url))
    route, param = "/v1/catalog/cards", "name"
    if args.target == "autocomplete":
        names, route, param = prefixes, "/v1/autocomplete/cards", "q"
    if (args.rounds * args.n) > len(names) - 600:
        raise SystemExit(f"{args.rounds} rounds of {args.n} need more than the catalog's {len(names)} names")
    folder = Path(tempfile.mkdtemp(prefix="cw-pair-"))
    (folder / "paths.lua").write_text(LUA)

    def path_file(name: str, terms: list[str]) -> Path:
        f = folder / name
        f.write_text("".join(f"{route}?{urlencode({param: t})}\n" for t in terms))
        return f

    warm = path_file("warm.txt", names[-600:])
    env = {**os.environ, "CARDWISE_DATABASE_URL": args.url, "CARDWISE_LOG_LEVEL": args.log_level,
           "CARDWISE_DB_POOL_SIZE": "16", "CARDWISE_RATE_LIMIT_PER_MIN": "0", "CARDWISE_SEARCH_DIR": args.search_dir}
    per: dict[str, list[float]] = {t: [] for t in args.trees}
    for r in range(args.rounds):
        batch = path_file("batch.txt", names[r * args.n:(r + 1) * args.n])
        servers = [_serve(t, env) for t in args.trees]
        try:
            _wait_idle(servers)
            _drive(servers, warm, folder, key)
            load = os.getloadavg()[0]
            got = _drive(servers, batch, folder, key)
        finally:
            for p, _ in servers:
                p.terminate()
                p.wait(30)
        line = []
        for tree, (cpu, w) in zip(args.trees, got):
            per[tree].append(cpu / w["requests"] * 1000)
            line.append(f"{tree}: {per[tree][-1]:.3f} ({w['requests']} requests, {w['errors']} errors, "
                        f"p99 {w['p99'] / 1000:.0f} ms)")
        print(f"round {r} (load {load:.1f}): " + "; ".join(line), flush=True)
    a, b = (per[t] for t in args.trees)
    ratios = [y / x for x, y in zip(a, b)]
    for tree, v in per.items():
        print(f"{tree}: CPU s per 1,000 requests, median {statistics.median(v):.3f}, mean {statistics.mean(v):.3f}")
    print(f"B / A per round: median {statistics.median(ratios):.3f} "
          f"(range {min(ratios):.3f}-{max(ratios):.3f}); of the means {statistics.mean(b) / statistics.mean(a):.3f}")


if __name__ == "__main__":
    main()
