"""Request bodies of ``magg serve``, read only up to a bound: a request that declares more, or
streams more, is refused without the rest being read into memory."""

from __future__ import annotations

from starlette.requests import Request

__all__ = ["read_body"]


async def read_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None when it is longer than ``limit`` bytes (a declared length over
    it is refused before reading; a streamed body is read until it passes it)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    body = bytearray()
    async for piece in request.stream():
        body += piece
        if len(body) > limit:
            return None
    return bytes(body)
