"""The bot under test: `python -m bot` in its own process group, CPU and RSS read from /proc."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path
from typing import Any

from benchmarks.load.config import CLK_TCK


class BotProcess:
    """`python -m bot` in its own process group; CPU and RSS read from /proc."""

    def __init__(self, env: dict[str, str], cwd: Path, log_path: Path) -> None:
        self.env = env
        self.cwd = cwd
        self.log_path = log_path
        self.proc: asyncio.subprocess.Process | None = None
        self.cpu_done = 0.0  # CPU of incarnations that are gone
        self.children_done = 0.0  # of which their child processes
        self._log: Any = None

    async def start(self) -> None:
        self._log = open(self.log_path, "ab")  # noqa: SIM115, ASYNC230 - closed in stop()/kill()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=self.cwd,
            env=self.env,
            stdout=self._log,
            stderr=self._log,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def _pids(self) -> list[int]:
        """The bot and its children (the expert players' process pool)."""
        pids = [self.pid]
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.pid:
                pids.append(int(entry))
        return pids

    def cpu_now(self) -> float:
        return sum(self._cpu_split())

    def _cpu_split(self) -> tuple[float, float]:
        """(the bot's own process, its children: the drawing processes and the expert players'
        pool), CPU seconds so far."""
        if self.proc is None or self.proc.returncode is not None:
            return 0.0, 0.0
        own = children = 0
        for pid in self._pids():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if pid == self.pid:
                own += int(fields[11]) + int(fields[12])  # utime, stime
                children += int(fields[13]) + int(fields[14])  # reaped children
            else:
                children += int(fields[11]) + int(fields[12])
        return own / CLK_TCK, children / CLK_TCK

    def cpu_total(self) -> float:
        return self.cpu_done + self.cpu_now()

    def cpu_children(self) -> float:
        """CPU seconds of the bot's child processes, every incarnation."""
        return self.children_done + self._cpu_split()[1]

    def _book(self) -> None:
        own, children = self._cpu_split()
        self.cpu_done += own + children
        self.children_done += children

    def rss_kb(self) -> tuple[int, int]:
        """(VmRSS, VmHWM) of the bot process in KB."""
        rss = hwm = 0
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss = int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        hwm = int(line.split()[1])
        except OSError:
            pass
        return rss, hwm

    async def kill(self) -> None:
        """SIGKILL the bot and its process group (a crash), after booking its CPU time."""
        assert self.proc is not None
        self._book()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()
        self._close_log()

    async def stop(self, timeout: float = 20.0) -> int | None:  # noqa: ASYNC109
        """SIGTERM; returns the exit code (None when it had to be killed)."""
        if self.proc is None:
            return None
        if self.proc.returncode is not None:
            self._close_log()
            return self.proc.returncode
        self._book()
        self.proc.send_signal(signal.SIGTERM)
        try:
            code: int | None = await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            await self.proc.wait()
            code = None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # stray pool workers, if any
        self._close_log()
        return code

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None
