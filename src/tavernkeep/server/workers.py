"""`tavernkeep serve --workers N`: N server processes on one host, kept running.

Each is an ordinary `serve` process on the same port (SO_REUSEPORT, so the kernel spreads
new connections among them) over the same PostgreSQL database, which alone coordinates
them (peers.py): this supervisor only starts them, starts one again when it dies, and
stops them all when it is stopped. uvicorn's own `--workers` would need the app as an
import string rebuilt from settings in each process; a `serve` a process is the same
program a second host runs, so one host and many are deployed alike.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from types import FrameType

RESTART_AFTER = 1.0
"""Seconds before a process that died is started again (a crash loop costs little)."""


def supervise(args: list[str], workers: int) -> int:
    """Run `workers` processes of `args` until this one is told to stop (SIGINT, SIGTERM);
    a process that exits meanwhile is started again. The exit code: 0."""
    stopping = False

    def stop(_signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    procs = [subprocess.Popen(args) for _ in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for i, proc in enumerate(procs):
                code = proc.poll()
                if code is not None and not stopping:
                    print(
                        f"tavernkeep: server process {proc.pid} exited ({code}): starting another",
                        file=sys.stderr,
                    )
                    time.sleep(RESTART_AFTER)
                    procs[i] = subprocess.Popen(args)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15.0
        for proc in procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
    return 0
