"""Canonical JSON text written straight from validated models.

The text is :func:`~magg_kg.records.canonical_json`'s (sorted keys, no spaces, UTF-8 kept).
Writing a batch is mostly writing JSON: its digest covers every operation, and a store keeps some
fields as JSON text. ``model_dump`` first copies every model into new dicts; a model whose fields
validation already made JSON values (text, numbers, booleans, null, lists of one nested model
type) is written here from its own fields, with the same text, by the encoder ``json.dumps``
itself runs.
"""

from __future__ import annotations

import types
from _json import encode_basestring, make_encoder
from collections.abc import Callable
from typing import Annotated, Literal, Union, get_args, get_origin

from pydantic import BaseModel

__all__ = ["Writer", "allowed_types"]


def allowed_types(annotation: object) -> list[object]:
    """The types a field annotation allows, ``Annotated`` and unions unwrapped.

    >>> allowed_types(Annotated[int, "meta"] | None)
    [<class 'int'>, <class 'NoneType'>]
    """
    origin = get_origin(annotation)
    if origin is Annotated:
        return allowed_types(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return [kind for arg in get_args(annotation) for kind in allowed_types(arg)]
    return [annotation]


def _encoder(default: Callable[[object], object]) -> make_encoder:
    # The C encoder json.dumps runs (no indent, no ASCII escapes, sorted keys, NaN allowed), made
    # once: JSONEncoder.encode would make it anew for each value, which costs more than a small
    # value's text. No circular check: the values are validated models, trees by construction.
    return make_encoder(None, default, encode_basestring, None, ":", ",", True, False, True)


class Writer:
    """Writes canonical JSON of values whose nested models are all of type ``nested``."""

    def __init__(self, nested: type[BaseModel]) -> None:
        self._nested = nested
        self._encode = _encoder(self._fields)

    def holds_json(self, model: type[BaseModel]) -> bool:
        """Whether every field of ``model``, once validated, holds what ``model_dump(mode="json")``
        gives: text, numbers, booleans, null, a Literal of text, a list of ``nested`` models."""
        return all(
            self._json_type(kind)
            for field in model.model_fields.values()
            for kind in allowed_types(field.annotation)
        )

    def _json_type(self, kind: object) -> bool:
        if get_origin(kind) is Literal:
            return all(type(value) is str for value in get_args(kind))
        if get_origin(kind) is list:
            return get_args(kind) == (self._nested,)
        return kind in (str, int, float, bool, type(None))

    def text(self, value: object) -> str:
        """The canonical JSON of ``value``; nested models are written as their fields."""
        return "".join(self._encode(value, 0))

    def _fields(self, value: object) -> dict[str, object]:
        if isinstance(value, self._nested):
            return value.__dict__
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
