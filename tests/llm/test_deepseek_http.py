"""The deepseek provider's HTTP client: a deadline per attempt, one client per provider, bodies
that cannot be decoded. Real HTTP on 127.0.0.1 where timing matters, respx elsewhere."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
import respx
from pydantic import SecretStr

from magg_kg.config import LLMConfig
from magg_kg.llm.deepseek import DeepSeekLLM
from magg_kg.llm.port import Answer, Failure
from tests.llm.fake_server import running
from tests.llm.test_deepseek import ENDPOINT, GOOD, PROMPT, Score, Sleeps, completion, config

BODY = completion(GOOD).content


@dataclass
class Drip:
    """A local server that sends ``padding`` bytes of leading whitespace (valid JSON) one at a time,
    ``pause_s`` apart, then the rest of a chat completion (or, ``in_headers``, the bytes of a header's
    value, before the end of the headers); the client ports it served and closed."""

    base_url: str = ""
    served: list[int] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)


@contextmanager
def drip(pause_s: float, padding: int, *, in_headers: bool = False) -> Iterator[Drip]:
    server = Drip()
    stop = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, so that connection reuse shows

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length", "0")))
            server.served.append(self.client_address[1])
            length = len(BODY) + (0 if in_headers else padding)
            head = f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {length}\r\n"
            try:
                self.wfile.write(head.encode("ascii") + (b"x-padding: " if in_headers else b"\r\n"))
                for _ in range(padding):
                    if stop.wait(pause_s):
                        return
                    self.wfile.write(b"x" if in_headers else b" ")
                self.wfile.write((b"\r\n\r\n" if in_headers else b"") + BODY)
            except OSError:  # the client gave up on the reply
                self.close_connection = True

        def finish(self) -> None:
            server.closed.append(self.client_address[1])
            super().finish()

        def log_message(self, format: str, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: object, client_address: object) -> None:
            pass  # a connection the client dropped mid-reply is expected here

    with running(Server(("127.0.0.1", 0), Handler)) as server.base_url:
        try:
            yield server
        finally:
            stop.set()  # the handler's pauses end before the server shuts down


def local(base_url: str, **changes: object) -> LLMConfig:
    base = LLMConfig(
        provider="deepseek", base_url=base_url, api_key=SecretStr("sk-test"), allow_any_host=True
    )
    return base.model_copy(update=changes).checked()


@pytest.fixture
def gateway() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_called=False) as router:
        yield router


def test_a_drip_fed_reply_times_out_at_the_attempt_deadline() -> None:
    # 20 bytes, 0.3 s apart: 6 s per reply, far past the 1 s deadline, each read well within it.
    with drip(pause_s=0.3, padding=20) as server:
        sleeps = Sleeps()
        llm = DeepSeekLLM(local(server.base_url, timeout_s=1.0, http_attempts=2), sleep=sleeps)
        started = time.perf_counter()
        reply = llm.ask(PROMPT, Score)
        elapsed = time.perf_counter() - started

    assert isinstance(reply, Failure) and reply.kind == "unavailable", reply
    assert "2 HTTP attempts" in reply.reason and "timed out after 1 s" in reply.reason
    assert reply.attempts == 2 and len(server.served) == 2
    assert sleeps == [1.0]
    assert elapsed < 2 * 2.5  # each attempt ends about 1 s in, at the first byte past its deadline


def test_drip_fed_headers_time_out_at_the_attempt_deadline() -> None:
    # The deadline was checked only once the headers had all arrived: 20 header bytes, 0.25 s apart,
    # held an attempt for 5 s, each read well within httpx's 1 s.
    with drip(pause_s=0.25, padding=20, in_headers=True) as server:
        llm = DeepSeekLLM(local(server.base_url, timeout_s=1.0, http_attempts=1), sleep=Sleeps())
        started = time.perf_counter()
        reply = llm.ask(PROMPT, Score)
        elapsed = time.perf_counter() - started
        llm.close()

    assert isinstance(reply, Failure) and reply.kind == "unavailable", reply
    assert "1 HTTP attempts" in reply.reason and "timed out after 1 s" in reply.reason
    assert len(server.served) == 1
    assert elapsed < 2.0  # about 1 s: the attempt ends at its deadline, not when the headers end


def test_headers_within_the_deadline_are_read() -> None:
    with drip(pause_s=0.02, padding=5, in_headers=True) as server:
        llm = DeepSeekLLM(local(server.base_url, timeout_s=5.0), sleep=Sleeps())
        reply = llm.ask(PROMPT, Score)
        llm.close()
    assert isinstance(reply, Answer), reply


def test_a_reply_within_the_deadline_is_read_over_one_reused_connection() -> None:
    with drip(pause_s=0.05, padding=3) as server:
        llm = DeepSeekLLM(local(server.base_url, timeout_s=5.0), sleep=Sleeps())
        first, second = llm.ask(PROMPT, Score), llm.ask(PROMPT, Score)
        assert len(server.served) == 2 and server.closed == []
        llm.close()
        llm.close()  # closing twice is harmless
        waited = 0.0
        while not server.closed and waited < 5.0:
            time.sleep(0.05)
            waited += 0.05

    assert isinstance(first, Answer) and isinstance(second, Answer)
    assert server.served[0] == server.served[1]  # one client, one kept-alive connection, both calls
    assert server.closed == server.served[:1]  # close() hung up on it


@pytest.mark.parametrize(("step_s", "timed_out"), [(0.4, True), (0.1, False)])
def test_the_deadline_reads_the_injected_timer(
    gateway: respx.MockRouter, step_s: float, timed_out: bool
) -> None:
    now = [0.0]

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(BODY), 50):  # 6 chunks; each "takes" step_s on the timer
            now[0] += step_s
            yield BODY[start : start + 50]

    route = gateway.post(ENDPOINT).mock(
        side_effect=lambda request: httpx.Response(
            200, content=chunks(), headers={"content-type": "application/json"}
        )
    )
    sleeps = Sleeps()

    reply = DeepSeekLLM(config(timeout_s=1.0), sleep=sleeps, timer=lambda: now[0]).ask(PROMPT, Score)

    if timed_out:
        assert isinstance(reply, Failure) and reply.kind == "unavailable", reply
        assert "timed out after 1 s" in reply.reason and route.call_count == 3
        assert sleeps == [1.0, 2.0]
    else:
        assert isinstance(reply, Answer) and route.call_count == 1


def test_the_gateway_header_and_the_read_timeout_reach_the_request(
    gateway: respx.MockRouter,
) -> None:
    route = gateway.post(ENDPOINT).mock(return_value=completion(GOOD))

    assert isinstance(DeepSeekLLM(config(timeout_s=7.0), sleep=Sleeps()).ask(PROMPT, Score), Answer)

    request = route.calls.last.request
    assert request.headers["cf-aig-authorization"] == "Bearer gw-token"
    assert request.headers["authorization"] == "Bearer sk-test"
    assert request.extensions["timeout"] == {"connect": 7.0, "read": 7.0, "write": 7.0, "pool": 7.0}


def test_a_body_that_is_not_the_gzip_it_claims_is_unreadable(gateway: respx.MockRouter) -> None:
    route = gateway.post(ENDPOINT).mock(
        return_value=httpx.Response(
            200,
            stream=httpx.ByteStream(b'{"not": "gzip"}'),
            headers={"content-encoding": "gzip", "content-type": "application/json"},
        )
    )
    sleeps = Sleeps()

    reply = DeepSeekLLM(config(), sleep=sleeps).ask(PROMPT, Score)

    assert isinstance(reply, Failure) and reply.kind == "unavailable", reply
    assert "unreadable response (the body could not be decoded: " in reply.reason
    assert "could not connect" not in reply.reason
    assert route.call_count == 3 and reply.attempts == 3 and sleeps == [1.0, 2.0]


def test_a_refused_connection_still_says_it_could_not_connect(gateway: respx.MockRouter) -> None:
    gateway.post(ENDPOINT).mock(side_effect=httpx.ConnectError("connection refused"))

    reply = DeepSeekLLM(config(), sleep=Sleeps()).ask(PROMPT, Score)

    assert isinstance(reply, Failure) and reply.kind == "unavailable"
    assert "could not connect" in reply.reason


@pytest.mark.parametrize(
    "dropped",
    [httpx.RemoteProtocolError("Server disconnected without sending a response."), httpx.ReadError("")],
)
def test_a_connection_the_gateway_drops_is_not_said_to_be_one_never_made(
    gateway: respx.MockRouter, dropped: httpx.TransportError
) -> None:
    gateway.post(ENDPOINT).mock(side_effect=dropped)

    reply = DeepSeekLLM(config(), sleep=Sleeps()).ask(PROMPT, Score)

    assert isinstance(reply, Failure) and reply.kind == "unavailable"
    assert (
        "the connection closed before a whole response" in reply.reason
        and "could not connect" not in reply.reason
    )


def test_a_proxy_named_in_the_environment_is_still_used(monkeypatch: pytest.MonkeyPatch) -> None:
    # The deadline must not cost users behind a proxy their way out: the openai SDK's own client
    # honours HTTP(S)_PROXY, and so does this one. The gateway's name does not resolve here.
    with drip(pause_s=0.0, padding=0) as proxy:
        for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("HTTP_PROXY", proxy.base_url)
        llm = DeepSeekLLM(local("http://gateway.example.invalid/v1", timeout_s=5.0), sleep=Sleeps())
        reply = llm.ask(PROMPT, Score)
        llm.close()
    assert isinstance(reply, Answer), reply
    assert len(proxy.served) == 1


def test_drip_fed_headers_from_a_proxy_named_in_the_environment_time_out_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with drip(pause_s=0.25, padding=20, in_headers=True) as proxy:
        for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("HTTP_PROXY", proxy.base_url)
        llm = DeepSeekLLM(
            local("http://gateway.example.invalid/v1", timeout_s=1.0, http_attempts=1), sleep=Sleeps()
        )
        started = time.perf_counter()
        reply = llm.ask(PROMPT, Score)
        elapsed = time.perf_counter() - started
        llm.close()
    assert isinstance(reply, Failure) and "timed out after 1 s" in reply.reason, reply
    assert len(proxy.served) == 1 and elapsed < 2.0
