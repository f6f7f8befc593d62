"""What the review site reads from a request, each read so that no client can make it fail: the
host it was addressed to, a secret it carries, where to send a browser back, a number in a query.
"""

from __future__ import annotations

import hmac

from starlette.datastructures import URL

from magg_kg.errors import UserError

__all__ = ["return_path", "same_secret", "seconds_at_least"]


def same_secret(given: str, secret: str) -> bool:
    """Whether ``given`` is ``secret``, in constant time, whatever characters a client sent."""
    return hmac.compare_digest(*(text.encode("utf-8", "surrogatepass") for text in (given, secret)))


def seconds_at_least(text: str) -> float:
    """The queue's age filter in seconds (none, "", is 0); :class:`UserError` for anything but a
    plain non-negative number, as the page says it.

    >>> seconds_at_least("3600"), seconds_at_least("")
    (3600.0, 0.0)
    >>> seconds_at_least("nan")
    Traceback (most recent call last):
    magg_kg.errors.UserError: the age filter 'nan' is not a number of seconds: ...
    """
    if not text:
        return 0.0
    try:
        value = float(text) if text.isascii() else -1.0
    except ValueError:
        value = -1.0
    if not 0.0 <= value < float("inf"):  # nan too
        raise UserError(
            f"the age filter {text[:40]!r} is not a number of seconds: choose one of the list "
            "(3600 is an hour), or any time"
        )
    return value


def return_path(url: URL) -> str:
    """A path on this site to send a browser back to: its path (never "//host", which a browser
    reads as another site) and its query."""
    path = "/" + url.path.lstrip("/")
    return f"{path}?{url.query}" if url.query else path
