"""``cardwise serve --workers 2``: two processes listen on one port and SIGTERM stops them all."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_REUSEPORT workers: Linux")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def _listening_inodes(port: int) -> set[str]:
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            f = line.split()
            if f[3] == "0A" and int(f[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f[9])
    return inodes


def _sockets_of(pid: int) -> set[str]:
    out = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            out.add(target[8:-1])
    return out


def _get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.status


@contextmanager
def two_workers(db_url: str, tmp_path: Path) -> Iterator[tuple[subprocess.Popen, int, list[int]]]:
    """``cardwise serve --workers 2`` on a free port, once both workers listen: (process, port, worker pids).
    Stopped with SIGTERM afterwards if the test left it running."""
    port = _port()
    env = {**os.environ, "CARDWISE_DATABASE_URL": db_url, "CARDWISE_LOG_LEVEL": "WARNING"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port), "--workers", "2"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 120   # a cold start on a busy 2-core machine
        while True:
            workers = _children(proc.pid)
            listening = _listening_inodes(port)
            if len(listening) == 2 and len([w for w in workers if _sockets_of(w) & listening]) == 2:
                break
            assert proc.poll() is None, log.read_text()
            if time.monotonic() > deadline:
                pytest.fail(f"two listening workers expected, saw {workers}")
            time.sleep(0.2)
        yield proc, port, workers
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_two_workers_serve_one_port_and_sigterm_stops_both(db_url, tmp_path):
    with two_workers(db_url, tmp_path) as (proc, port, workers):
        # every fresh connection is answered, whichever worker the kernel hands it to
        assert all(_get(f"http://127.0.0.1:{port}/health") == 200 for _ in range(20))

        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        for w in workers:
            assert not Path(f"/proc/{w}").exists() or "zombie" in Path(f"/proc/{w}/status").read_text()
        assert not _listening_inodes(port)
        with pytest.raises(OSError):
            _get(f"http://127.0.0.1:{port}/health")


def test_workers_must_be_positive(db_url, monkeypatch):
    from cli.main import main

    monkeypatch.setenv("CARDWISE_DATABASE_URL", db_url)
    assert main(["serve", "--workers", "0", "--no-migrate"]) == 2


def _metric(text: str, name: str, **labels: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + "{") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_metrics_sum_every_worker(db_url, tmp_path):
    """With --workers 2, /metrics (answered by either worker) counts the requests both workers served."""
    with two_workers(db_url, tmp_path) as (_, port, _):
        for _ in range(30):
            assert _get(f"http://127.0.0.1:{port}/health") == 200
        for _ in range(4):  # whichever worker answers the scrape
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
                text = r.read().decode()
            assert _metric(text, "cardwise_http_requests_total", route="/health", status="200") == 30
