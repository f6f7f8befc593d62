"""Starts the ``ts-apply`` Worker under ``wrangler dev --local`` for benchmarks and tests.

One implementation, used by ``benchmarks/worker_throughput.py`` and by the tests that need the
Worker (the session fixture in ``tests/conftest_worker.py`` among them): migrate a fresh local D1
in a temporary folder, start ``wrangler dev`` on a free 127.0.0.1 port with random write and read
tokens, wait for ``/v1/health``, and stop the process group on exit. The tokens go to a private env
file passed with ``--env-file``, so a developer's own ``ts-apply/.dev.vars`` is neither read nor
overwritten.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

__all__ = ["TS_APPLY", "RunningWorker", "running_worker", "worker_missing"]

TS_APPLY = Path(__file__).resolve().parent.parent / "ts-apply"
WRANGLER = TS_APPLY / "node_modules" / ".bin" / "wrangler"


@dataclass(frozen=True)
class RunningWorker:
    url: str
    token: str
    read_token: str
    log: Path


def worker_missing() -> str | None:
    """Why the Worker cannot be started here, or None when it can."""
    if not WRANGLER.exists():
        return "ts-apply/node_modules is absent: run `npm ci` in ts-apply to run the D1 tests"
    return None


def _environment() -> dict[str, str]:
    return {
        **os.environ,
        "CLOUDFLARE_CF_FETCH_ENABLED": "false",
        "CI": "true",
        "WRANGLER_SEND_METRICS": "false",
        "NO_COLOR": "1",
        "FORCE_COLOR": "0",
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _tail(log: Path) -> str:
    return log.read_text("utf-8", errors="replace")[-3000:] if log.exists() else ""


def _stop(process: subprocess.Popen[bytes]) -> None:
    # wrangler runs workerd as a child: stop the whole group this process leads.
    for sig, wait_s in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


@contextmanager
def running_worker(folder: Path, *, ready_timeout_s: float = 90.0) -> Iterator[RunningWorker]:
    """A migrated local Worker whose state lives in ``folder`` (which must be empty or new)."""
    missing = worker_missing()
    if missing:
        raise RuntimeError(missing)
    folder.mkdir(parents=True, exist_ok=True)
    state = folder / "state"
    log = folder / "wrangler.log"
    migrate = subprocess.run(
        [str(WRANGLER), "d1", "migrations", "apply", "DB", "--local", "--persist-to", str(state)],
        cwd=TS_APPLY,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    if migrate.returncode != 0:
        raise RuntimeError(f"wrangler d1 migrations apply failed:\n{migrate.stdout}\n{migrate.stderr}")
    token = secrets.token_urlsafe(32)
    read_token = secrets.token_urlsafe(32)
    env_file = folder / "worker.env"
    env_file.touch(mode=0o600)
    env_file.write_text(f"MAGG_D1_TOKEN={token}\nMAGG_D1_READ_TOKEN={read_token}\n", "utf-8")
    port = _free_port()
    command = [
        str(WRANGLER),
        "dev",
        "--local",
        "--ip",
        "127.0.0.1",
        "--port",
        str(port),
        "--inspector-port",
        str(_free_port()),
        "--persist-to",
        str(state),
        "--env-file",
        str(env_file),
        "--show-interactive-dev-session=false",
        "--log-level",
        "warn",
    ]
    with log.open("wb") as output:
        process = subprocess.Popen(
            command,
            cwd=TS_APPLY,
            env=_environment(),
            stdout=output,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ready_timeout_s
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"wrangler dev exited with {process.returncode}:\n{_tail(log)}")
            try:
                if httpx.get(f"{url}/v1/health", timeout=2.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"wrangler dev was not ready after {ready_timeout_s} s:\n{_tail(log)}")
            time.sleep(0.2)
        yield RunningWorker(url=url, token=token, read_token=read_token, log=log)
    finally:
        _stop(process)
