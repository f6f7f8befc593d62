"""A deadline for each whole HTTP request of the deepseek provider: connecting, sending, the reply's
headers and its body, however slowly a gateway drips them.

httpx's own timeout (which the openai SDK sets to ``timeout_s`` too, and which stays) bounds each
read, not a request: a reply that trickles in, a byte every few seconds, could hold an attempt for
ever, whether it trickles in its headers or in its body. :class:`DeadlineClient` gives each request
a deadline of ``timeout_s`` from its start (redirects included):

- every network operation of the request (connect, each write, each read) waits at most until the
  deadline, so an attempt ends at its deadline even while the headers are still arriving: the read
  then fails with a timeout, and httpcore closes the connection (:class:`_DeadlineBackend`);
- the deadline is also checked when the headers have arrived and at each piece of the body, on the
  injected ``timer`` (which tests drive), whatever transport answers (:class:`_DeadlineBody`).

Past it, the request fails with :class:`httpx.ReadTimeout` (a connect with
:class:`httpx.ConnectTimeout`), which the openai SDK raises as ``APITimeoutError``. Everything else
(proxies from the environment, connection pooling) is httpx's own.
"""

from __future__ import annotations

import ssl
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import httpcore
import httpx

__all__ = ["DeadlineClient"]


@dataclass(frozen=True)
class _Deadline:
    """When the request under way must be over, on ``timer``; ``timeout_s`` names it in errors."""

    at: float
    timer: Callable[[], float]
    timeout_s: float

    def message(self) -> str:
        return f"the reply took longer than {self.timeout_s:g} s in all"

    def check(self, request: httpx.Request) -> None:
        """Raises :class:`httpx.ReadTimeout` once the deadline has passed."""
        if self.timer() > self.at:
            raise httpx.ReadTimeout(self.message(), request=request)

    def left(self, timeout: float | None, error: type[httpcore.TimeoutException]) -> float:
        """``timeout`` (httpx's, for one network operation) cut to what is left before the
        deadline; ``error`` when nothing is left."""
        left = self.at - self.timer()
        if left <= 0:
            raise error(self.message())
        return left if timeout is None else min(timeout, left)


_CURRENT: ContextVar[_Deadline | None] = ContextVar("magg_llm_http_deadline", default=None)
"""The deadline of the request this thread is sending (None between requests)."""


def _left(timeout: float | None, error: type[httpcore.TimeoutException]) -> float | None:
    deadline = _CURRENT.get()
    return timeout if deadline is None else deadline.left(timeout, error)


class _DeadlineSocket(httpcore.NetworkStream):
    """A connection whose every read and write waits at most until the current request's deadline."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        tls = self._stream.start_tls(ssl_context, server_hostname, _left(timeout, httpcore.ConnectTimeout))
        return _DeadlineSocket(tls)

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's network backend, its connections made (and used) within the current deadline."""

    def __init__(self, backend: httpcore.NetworkBackend) -> None:
        self._backend = backend

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        left = _left(timeout, httpcore.ConnectTimeout)
        return _DeadlineSocket(self._backend.connect_tcp(host, port, left, local_address, socket_options))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        left = _left(timeout, httpcore.ConnectTimeout)
        return _DeadlineSocket(self._backend.connect_unix_socket(path, left, socket_options))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


def _bound(transport: httpx.BaseTransport | None) -> None:
    """Routes the connections of one of httpx's transports through :class:`_DeadlineBackend`.

    httpx (pinned below 0.29) takes no network backend, so it is set on the httpcore pool its
    transport holds: a direct pool, or a proxy's (HTTP or SOCKS, both pools), so every route a
    client has, the environment's proxies included, is bounded. A transport of another kind (a test's
    mock) is left as it is: the deadline is still checked at the headers and at each piece of body.
    """
    pool = getattr(transport, "_pool", None)
    if isinstance(pool, httpcore.ConnectionPool) and not isinstance(pool._network_backend, _DeadlineBackend):
        pool._network_backend = _DeadlineBackend(pool._network_backend)


class _DeadlineBody(httpx.SyncByteStream):
    """A reply's body that raises :class:`httpx.ReadTimeout` at the first piece past the deadline."""

    def __init__(self, body: httpx.SyncByteStream, request: httpx.Request, deadline: _Deadline) -> None:
        self._body = body
        self._request = request
        self._deadline = deadline

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._body:
            self._deadline.check(self._request)
            yield chunk

    def close(self) -> None:
        self._body.close()


class DeadlineClient(httpx.Client):
    """An httpx client with a deadline of ``timeout_s`` (on ``timer``) for each whole request (see
    the module). A reply read later (``stream=True``) is checked at each piece of its body only."""

    def __init__(self, timeout_s: float, timer: Callable[[], float]) -> None:
        super().__init__(timeout=timeout_s, follow_redirects=True)  # as the openai SDK's client
        self._deadline_s = timeout_s
        self._timer = timer
        for transport in (self._transport, *self._mounts.values()):
            _bound(transport)

    def send(self, request: httpx.Request, *, stream: bool = False, **kwargs: Any) -> httpx.Response:
        deadline = _Deadline(self._timer() + self._deadline_s, self._timer, self._deadline_s)
        token = _CURRENT.set(deadline)
        try:
            return self._send(request, deadline, stream=stream, **kwargs)
        finally:
            _CURRENT.reset(token)

    def _send(
        self, request: httpx.Request, deadline: _Deadline, *, stream: bool, **kwargs: Any
    ) -> httpx.Response:
        response = super().send(request, stream=True, **kwargs)
        try:
            deadline.check(request)
            body = response.stream
            if not isinstance(body, httpx.SyncByteStream):  # a synchronous client always has one
                raise TypeError(f"a synchronous transport answered with {type(body).__name__}")
            response.stream = _DeadlineBody(body, request, deadline)
            if not stream:
                response.read()
        except BaseException:
            response.close()
            raise
        return response
