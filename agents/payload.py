"""Reading a prompt's payload and data defensively: the offline roles take whatever a prompt holds
(JSON from a file, a model, a test) and never fail on a missing or mistyped field; a value of the
wrong shape reads as empty.

>>> as_strings(["a", 1]), as_list("not a list"), as_mapping(None), as_number("7")
(['a', '1'], [], {}, 0.0)
>>> quotes_of('[{"index": 0, "quote": "A is B."}, {"index": 1}]')
{0: 'A is B.'}
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from magg_kg.markup import as_read

__all__ = ["as_list", "as_mapping", "as_number", "as_strings", "quotes_of"]


def as_mapping(value: object) -> Mapping[str, object]:
    """A dict, or an empty one."""
    return value if isinstance(value, dict) else {}


def as_list(value: object) -> list[object]:
    """A list (a tuple is read as one), or an empty one."""
    return list(value) if isinstance(value, list | tuple) else []


def as_strings(value: object) -> list[str]:
    """A list of strings (each item as text), or an empty one."""
    return [str(item) for item in as_list(value)]


def as_number(value: object) -> float:
    """A number, or 0."""
    return float(value) if isinstance(value, int | float) else 0.0


def quotes_of(data: str) -> dict[int, str]:
    """The quotes of a prompt's data (a JSON array of ``{index, quote, ...}``), by index, as a reader
    reads them (a character reference as its character: :func:`magg_kg.markup.as_read`)."""
    try:
        items = json.loads(data) if data else []
    except json.JSONDecodeError:
        return {}
    if not isinstance(items, list):
        return {}
    return {
        int(item["index"]): as_read(str(item["quote"]))
        for item in items
        if isinstance(item, dict) and "quote" in item
    }
