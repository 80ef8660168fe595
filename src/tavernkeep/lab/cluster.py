"""Running a simulation's blocks as Ray tasks.

The blocks are the same as on local workers and each is played by the same function, so
a seed gives the same tallies and rows on a cluster as on this machine. Ray is an
optional extra (`pip install 'tavernkeep[ray]'`) and only this module imports it.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tavernkeep.engine.errors import ConfigError

J = TypeVar("J")
R = TypeVar("R")

LOCAL = "local"
"""The `--ray` value for a Ray started on this machine rather than joined."""
CLIENT_PORT = 10001
"""Ray Client's port, where a `ray://host` address names none."""
REACH_SECONDS = 5.0


def host_and_port(address: str) -> tuple[str, int] | None:
    """Where `address` (host:port, ray://host[:port], [v6]:port) points; None for an
    address Ray resolves itself ("auto", "local") or one that names no port."""
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    if not colon or "]" in port:
        host, port = (rest, str(CLIENT_PORT)) if address.startswith("ray://") else ("", "")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host, int(port)


def check_reachable(address: str) -> None:
    """ConfigError now, in one line, if nothing answers at `address`: Ray itself would
    retry for minutes, printing a warning every few seconds."""
    where = host_and_port(address)
    if where is None:
        return
    try:
        with socket.create_connection(where, timeout=REACH_SECONDS):
            pass
    except socket.gaierror:
        reason = f"no such host '{where[0]}'"
    except TimeoutError:
        reason = f"no answer in {REACH_SECONDS:g} s"
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
    else:
        return
    raise ConfigError(f"--ray {address}: cannot reach a Ray cluster there ({reason})")


def connect(address: str) -> Any:
    """The ray module, connected to `address` (or to a local Ray) unless it already is."""
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "--ray needs Ray, which is not installed: pip install 'tavernkeep[ray]'"
        ) from None
    if not ray.is_initialized():
        if address != LOCAL:
            check_reachable(address)
        try:
            ray.init(
                address=None if address == LOCAL else address,
                log_to_driver=False,
                include_dashboard=False,
                # Ray's start-up chatter would bury the report on stderr.
                logging_level=logging.ERROR,
            )
        except (ConnectionError, ValueError, RuntimeError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ConfigError(f"--ray {address}: cannot reach a Ray cluster ({first})") from None
    return ray


def run_on_ray(
    jobs: Sequence[J], address: str, play: Callable[[J], R], take: Callable[[R], None]
) -> None:
    """Run `play` on every job as a Ray task and hand each result to `take` as it
    finishes. What a job is and how it is played is the caller's (lab/simulate.py)."""
    ray = connect(address)
    remote = ray.remote(play)
    pending = [remote.remote(job) for job in jobs]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            take(ray.get(ref))
