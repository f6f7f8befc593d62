"""``magg serve`` as a service: it binds before it says it serves, closes connections that send no
headers, and stops on SIGTERM as on Ctrl-C, its database closed whole."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

import magg_kg.cli.serve
from magg_kg.cli.serve import TimedHeaders
from tests.cli import magg


def test_a_port_in_use_is_one_line_and_nothing_said_to_be_served(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It said "serving ... at http://127.0.0.1:PORT/" and then failed with uvicorn's own log.
    taken = socket.create_server(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    try:
        code, out, err = magg(["serve", "--db", str(db), "--port", str(port)], capsys)
    finally:
        taken.close()
    assert code == 2 and "serving" not in out
    assert f"cannot listen on 127.0.0.1:{port}" in err and "choose another --host or --port" in err


def _answer(request: object) -> PlainTextResponse:
    return PlainTextResponse("ok")


def test_a_connection_that_sends_no_headers_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    # 1,100 connections that sent half a request each were held for ever: no file was left to open.
    monkeypatch.setattr(magg_kg.cli.serve, "HEADER_TIMEOUT_S", 0.5)
    app = Starlette(routes=[Route("/", _answer)])
    listener = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, http=TimedHeaders, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    try:
        address = listener.getsockname()
        slow = socket.create_connection(address, timeout=10)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
        started = time.monotonic()
        assert slow.recv(100) == b""  # closed by the server
        assert 0.4 < time.monotonic() - started < 5
        whole = socket.create_connection(address, timeout=10)
        whole.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(1.0)  # past the bound: an answered connection is not cut
        assert whole.recv(1000).endswith(b"ok")
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@pytest.mark.parametrize(
    ("stop", "code", "said"), [(signal.SIGTERM, 143, "terminated:"), (signal.SIGINT, 130, "interrupted:")]
)
def test_sigterm_stops_serving_as_ctrl_c_does(db: Path, stop: signal.Signals, code: int, said: str) -> None:
    # SIGTERM (a service manager's stop) ended the process at once: exit 143 by the signal, and
    # the database left as three files (-wal, -shm). Then an idle server said "every batch written
    # is whole (the one being written was rolled back); run the command again to finish", as a
    # command that writes batches says: there was no batch, and nothing to finish.
    port_finder = socket.create_server(("127.0.0.1", 0))
    port = port_finder.getsockname()[1]
    port_finder.close()
    command = [sys.executable, "-m", "magg_kg.cli", "serve", "--db", str(db), "--port", str(port)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    ) as run:
        try:
            assert run.stdout is not None and "serving" in run.stdout.readline()
            with socket.create_connection(("127.0.0.1", port), timeout=30):
                pass  # it listens
            run.send_signal(stop)
            _, err = run.communicate(timeout=60)
        finally:
            run.kill()  # nothing, once it has stopped
    assert run.returncode == code and err.startswith(f"{said} magg serve stopped") and err.count("\n") == 1
    assert "batch" not in err and "run the command again" not in err
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()


def test_a_client_that_leaves_mid_body_costs_no_traceback_in_the_log(db: Path) -> None:
    # Each one logged a ~50-line traceback (starlette.requests.ClientDisconnect): any client could
    # flood the log.
    port_finder = socket.create_server(("127.0.0.1", 0))
    port = port_finder.getsockname()[1]
    port_finder.close()
    command = [sys.executable, "-m", "magg_kg.cli", "serve", "--db", str(db), "--port", str(port)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as run:
        assert run.stdout is not None and "serving" in run.stdout.readline()
        for path in ("/api/ask", "/proposals/p-1/decision") * 2:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
                head = (
                    f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    "Content-Length: 1000\r\n\r\n"
                )
                client.sendall(head.encode() + b'{"question": "what is')  # and leaves
                time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(b"GET /queue HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert client.recv(100).startswith(b"HTTP/1.1 200")  # served on, after them
        run.send_signal(signal.SIGTERM)
        _, err = run.communicate(timeout=60)
    assert "Traceback" not in err and "ClientDisconnect" not in err and "ERROR" not in err, err


def _ipv6_loopback() -> bool:
    try:
        socket.create_server(("::1", 0), family=socket.AF_INET6).close()
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _ipv6_loopback(), reason="needs an IPv6 loopback address")
def test_an_ipv6_address_is_printed_in_brackets_as_a_url_writes_it(db: Path) -> None:
    # It printed "at http://::1:PORT/", which no browser or `magg ask --server` reads as a URL.
    command = [sys.executable, "-m", "magg_kg.cli", "serve", "--db", str(db), "--host", "::1", "--port", "0"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as run:
        assert run.stdout is not None
        said = run.stdout.readline()
        run.send_signal(signal.SIGTERM)
        run.communicate(timeout=60)
    assert " at http://[::1]:" in said and "://::1:" not in said, said
