"""A throwaway PostgreSQL server from the installed binaries, for tests and benchmarks.

``initdb`` and ``pg_ctl`` come from PATH or from ``/usr/lib/postgresql/<version>/bin`` (the
newest version). The cluster lives in a fresh temporary directory, listens on 127.0.0.1 at a
free port (and a socket in the same directory), trusts local connections, and is deleted on
stop. PostgreSQL refuses to run as root, so under root the cluster belongs to an unprivileged
account (``postgres`` if it exists, else ``nobody``) and its binaries run as that account.

Run it by hand to get a server for a benchmark or the migration tool::

    python tests/data/pg_server.py      # prints a postgresql:// URL; Ctrl-C stops and deletes it
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

T = TypeVar("T")
SUPERUSER = "tienlen"
NOT_INSTALLED = (
    "PostgreSQL is not installed (no initdb/pg_ctl on PATH or under /usr/lib/postgresql/*/bin)"
)


def find_bindir() -> Path | None:
    """The directory holding initdb and pg_ctl, or None when PostgreSQL is not installed."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent
    candidates = []
    for bindir in Path("/usr/lib/postgresql").glob("*/bin"):
        if (bindir / "initdb").is_file() and (bindir / "pg_ctl").is_file():
            try:
                candidates.append((float(bindir.parent.name), bindir))
            except ValueError:
                continue
    return max(candidates)[1] if candidates else None


def run_sync(factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion on a fresh event loop in another thread.

    Works from synchronous code and from inside a running loop alike (the caller blocks).
    """
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(factory())
        except BaseException as exc:  # handed back to the caller
            box["error"] = exc

    thread = threading.Thread(target=target, name="run-sync")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TempPostgres:
    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        """`durable` keeps PostgreSQL's fsync on (benchmarks); tests turn it off for speed."""
        self.bindir = bindir
        self.durable = durable
        # Under root the server runs as another account, which must reach the directory:
        # /tmp is world-traversable where a private TMPDIR may not be.
        where = "/tmp" if os.geteuid() == 0 and os.path.isdir("/tmp") else None
        self.root = Path(tempfile.mkdtemp(prefix="tienlen-pg-", dir=where))
        self.data = self.root / "data"
        self.port = 0
        self._account: pwd.struct_passwd | None = None
        self._counter = 0
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                with contextlib.suppress(KeyError):
                    self._account = pwd.getpwnam(name)
                    break
            if self._account is None:  # pragma: no cover - every Debian has nobody
                raise RuntimeError("running as root and no unprivileged account for PostgreSQL")
            os.chown(self.root, self._account.pw_uid, self._account.pw_gid)
        os.chmod(self.root, 0o700)

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, Any] = {}
        if self._account is not None:
            kwargs = {
                "user": self._account.pw_uid,
                "group": self._account.pw_gid,
                "extra_groups": [],
            }
        return subprocess.run(
            [str(self.bindir / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            check=False,
            cwd=self.root,
            env={**os.environ, "LC_ALL": "C", "HOME": str(self.root)},
            **kwargs,
        )

    def start(self) -> None:
        init = self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", SUPERUSER, "-E", "UTF8",
            "--locale=C", "--no-sync",
        )  # fmt: skip
        if init.returncode != 0:
            raise RuntimeError(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        last = ""
        for _ in range(5):  # another process may take the free port first
            self.port = _free_port()
            options = (
                f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                "-c max_connections=300"
            )
            if not self.durable:
                options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            started = self._run(
                "pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"),
                "-w", "-t", "60", "-o", options, "start",
            )  # fmt: skip
            if started.returncode == 0:
                atexit.register(self.stop)  # even if the caller forgets
                return
            last = started.stderr.strip() or started.stdout.strip()
        raise RuntimeError(f"pg_ctl start failed: {last}")

    def stop(self) -> None:
        atexit.unregister(self.stop)
        if self.data.exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    async def _admin(self, sql: str) -> None:
        con = await asyncpg.connect(self.url())
        try:
            await con.execute(sql)
        finally:
            await con.close()

    def create_database(self, prefix: str = "t") -> str:
        """A fresh empty database; returns its URL."""
        self._counter += 1
        name = f"{prefix}_{os.getpid()}_{self._counter}"
        run_sync(lambda: self._admin(f'CREATE DATABASE "{name}"'))
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        run_sync(lambda: self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def main() -> int:
    bindir = find_bindir()
    if bindir is None:
        print(NOT_INSTALLED)
        return 1

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    server = TempPostgres(bindir, durable=True)
    try:
        server.start()
        print(server.create_database("tienlen"), flush=True)
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
