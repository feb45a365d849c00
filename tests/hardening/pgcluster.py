"""A private, throwaway PostgreSQL server for fault tests: ``initdb`` into a temp dir, own port.

It never touches the shared server: its own data directory, port and socket directory, started
and stopped with ``pg_ctl`` from the PostgreSQL binaries on the machine (``/usr/lib/postgresql/*/bin``
or PATH). As root it runs as the ``postgres`` user (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
from pathlib import Path


def find_bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    which = shutil.which("initdb")
    return Path(which).parent if which else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateCluster:
    def __init__(self, root: Path, bindir: Path | None = None) -> None:
        self.bindir = bindir or find_bindir()
        if self.bindir is None:
            raise RuntimeError("PostgreSQL server binaries (initdb, pg_ctl) not found")
        self.root = root
        self.data = root / "data"
        self.port = free_port()
        self.log = root / "server.log"
        self._user = "postgres" if os.geteuid() == 0 else None

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, dbname: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{dbname}"

    def _run(self, *args: str, timeout: float = 60) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self._user:
            cmd = ["runuser", "-u", self._user, "--", *cmd]
        done = subprocess.run(cmd, timeout=timeout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")

    def init(self) -> "PrivateCluster":
        self.root.mkdir(parents=True, exist_ok=True)
        if self._user:
            pw = pwd.getpwnam(self._user)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
        return self

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=60"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast`` rolls back open transactions and disconnects; ``immediate`` is a crash."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def destroy(self) -> None:
        try:
            self.stop("immediate")
        except Exception:  # noqa: BLE001 - already stopped
            pass
        shutil.rmtree(self.root, ignore_errors=True)
