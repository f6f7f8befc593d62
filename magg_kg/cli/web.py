"""What the review site reads from a request, each read so that no client can make it fail: the
host it was addressed to, a secret it carries, where to send a browser back, a number in a query.
"""

from __future__ import annotations

import hmac

from starlette.datastructures import URL

__all__ = ["return_path", "same_secret", "seconds_at_least"]


def same_secret(given: str, secret: str) -> bool:
    """Whether ``given`` is ``secret``, in constant time, whatever characters a client sent."""
    return hmac.compare_digest(*(text.encode("utf-8", "surrogatepass") for text in (given, secret)))


def seconds_at_least(text: str) -> float:
    """The queue's age filter in seconds; anything but a plain non-negative number filters nothing.

    >>> [seconds_at_least(text) for text in ("3600", "\u00b2", "-5", "nan")]
    [3600.0, 0.0, 0.0, 0.0]
    """
    try:
        value = float(text) if text.isascii() else 0.0
    except ValueError:
        return 0.0
    return value if 0.0 <= value < float("inf") else 0.0


def return_path(url: URL) -> str:
    """A path on this site to send a browser back to: its path (never "//host", which a browser
    reads as another site) and its query."""
    path = "/" + url.path.lstrip("/")
    return f"{path}?{url.query}" if url.query else path
