"""Request bodies of ``magg serve``, read only up to a bound: a request that declares more, or
streams more, is refused without the rest being read into memory; a form's fields, read only from
UTF-8 text; and what a decision form lacks."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import parse_qs

from starlette.requests import Request

from governance.review import MAX_NOTE, reviewer_text

__all__ = ["decision_lacks", "form_fields", "read_body"]


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


def form_fields(body: bytes) -> dict[str, str] | None:
    """The fields of a form (``application/x-www-form-urlencoded``; the first value of each), or
    None when its text is not UTF-8, as sent or once its ``%XX`` escapes are read: decoded with
    replacement characters, a reviewer's name would be recorded as another.

    >>> form_fields(b"action=approve&reviewer=Ad%C3%A9le&note=")
    {'action': 'approve', 'reviewer': 'Adéle', 'note': ''}
    >>> form_fields(b"reviewer=Ad%FF"), form_fields(b"reviewer=Ad\\xff")
    (None, None)
    """
    try:
        fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        return None
    return {key: values[0] for key, values in fields.items()}


def decision_lacks(form: Mapping[str, str]) -> str:
    """What a decision form (approve or reject) lacks, as the page says it; "" when nothing.

    >>> decision_lacks({"action": "reject", "reviewer": "Ada", "note": " "})
    'a rejection needs a reason: fill in the note and decide again; nothing recorded'
    """
    if not reviewer_text(form.get("reviewer", "")):
        return "the form names no reviewer: fill in your name and decide again; nothing recorded"
    note = reviewer_text(form.get("note", ""))
    if form.get("action") == "reject" and not note:
        return "a rejection needs a reason: fill in the note and decide again; nothing recorded"
    if len(note) > MAX_NOTE:
        return f"the note is {len(note):,} characters long; at most {MAX_NOTE:,}; nothing recorded"
    return ""
