"""A tiny OpenAI-compatible server on 127.0.0.1 for tests: scripted replies per task.

It answers ``POST .../chat/completions`` with a ``chat.completion`` body (with a ``usage`` block)
whose content is the JSON the script gives for the request's task, read from the first line of the
system message (``task: <name>``, as :func:`magg_kg.llm.deepseek.render` writes it); a script may
also answer raw text or an HTTP error status. Every request is recorded; other paths get a 404.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

__all__ = ["ChatRequest", "FakeServer", "Script", "running", "serve"]


@dataclass(frozen=True)
class ChatRequest:
    """One request as the server saw it."""

    path: str
    headers: Mapping[str, str]
    body: Mapping[str, object]

    @property
    def messages(self) -> list[dict[str, str]]:
        messages = self.body.get("messages", [])
        assert isinstance(messages, list)
        return [dict(message) for message in messages]

    @property
    def task(self) -> str:
        system = next((m["content"] for m in self.messages if m.get("role") == "system"), "")
        first = system.splitlines()[0] if system else ""
        return first.removeprefix("task: ").strip() if first.startswith("task: ") else ""


# What the script returns for a request: a reply object (sent as JSON), raw text (sent as is), or
# an HTTP error status (sent with an OpenAI-style error body).
Script = Callable[[ChatRequest], Mapping[str, object] | str | int]


@dataclass
class FakeServer:
    """A running server: its base URL and the requests it received."""

    base_url: str
    requests: list[ChatRequest] = field(default_factory=list)
    usage: list[tuple[int, int]] = field(default_factory=list)  # (prompt, completion) tokens sent


def _handler_class(
    script: Script, server: FakeServer, lock: threading.Lock, retry_after: str | None
) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            request = ChatRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            with lock:
                server.requests.append(request)
            if not self.path.endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            reply = script(request)
            if isinstance(reply, int):
                headers = {"retry-after": retry_after} if retry_after is not None else {}
                self._send(reply, {"error": {"message": f"scripted HTTP {reply}"}}, headers)
                return
            content = reply if isinstance(reply, str) else json.dumps(reply)
            prompt_tokens = sum(len(m.get("content", "").split()) for m in request.messages)
            completion_tokens = len(content.split())
            with lock:
                server.usage.append((prompt_tokens, completion_tokens))
            self._send(
                200,
                {
                    "id": f"chatcmpl-{len(server.requests)}",
                    "object": "chat.completion",
                    "created": 0,
                    "model": str(body.get("model", "")),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {
                        "prompt_tokens": prompt_tokens,
                        "completion_tokens": completion_tokens,
                        "total_tokens": prompt_tokens + completion_tokens,
                    },
                },
            )

        def _send(
            self, status: int, body: Mapping[str, object], headers: Mapping[str, str] | None = None
        ) -> None:
            data = json.dumps(body).encode("utf-8")
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            pass  # keep the test output quiet

    return Handler


@contextmanager
def serve(script: Script, *, retry_after: str | None = None) -> Iterator[FakeServer]:
    """Runs the server on a free port of 127.0.0.1 for the duration of the ``with`` block.

    ``retry_after`` is sent as a ``Retry-After`` header with every scripted error status.
    """
    lock = threading.Lock()
    server = FakeServer(base_url="")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_class(script, server, lock, retry_after))
    with running(httpd) as server.base_url:
        yield server


@contextmanager
def running(httpd: ThreadingHTTPServer) -> Iterator[str]:
    """Serves ``httpd`` from a thread for the duration of the ``with`` block; its base URL."""
    host, port = httpd.server_address[:2]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host!s}:{port}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
