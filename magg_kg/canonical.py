"""Canonical JSON text written straight from validated models.

The text is :func:`~magg_kg.records.canonical_json`'s (sorted keys, no spaces, UTF-8 kept).
Writing a batch is mostly writing JSON: its digest covers every operation, and a store keeps some
fields as JSON text. ``model_dump`` first copies every model into new dicts; a model whose fields
validation already made JSON values (text, numbers, booleans, null, lists of one nested model
type) is written here from its own fields, with the same text, by the encoder ``json.dumps``
itself runs. A :class:`ModelWriter` writes one model type field by field (text by the C string
encoder, numbers by their repr, anything else by that encoder) and the whole from those texts, so
that a field kept as JSON text on its own (a store's JSON column) is written once for both.
:meth:`ModelWriter.write_many` writes many models of one type column by column, with the same
texts: each field of them all by one ``map`` of its encoder, each model's text by one ``join``.
"""

from __future__ import annotations

import types
from _json import encode_basestring, make_encoder
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from math import isfinite
from operator import call, itemgetter
from typing import Annotated, Literal, Union, cast, get_args, get_origin

from pydantic import BaseModel

__all__ = ["ModelWriter", "Writer", "allowed_types"]


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


_Encode = Callable[[object], str]
_EncodeMany = Callable[[Sequence[object]], list[str]]
Columns = list[Sequence[object]]
"""Many models' fields column by column: for each field (in :attr:`ModelWriter.names` order), its
value in each model, in the models' order."""


def _each(encode: _Encode) -> _EncodeMany:
    return lambda column: list(map(encode, column))


class ModelWriter:
    """Writes the fields of one model type as canonical JSON, field by field.

    :meth:`write` gives the values of the fields and the JSON text of each, both in sorted name
    order (:attr:`names`), and the model's canonical JSON made of those texts. Each field is
    written by the encoder of its declared type, which validation makes hold; a value that does
    not (a model built without validation) makes the general encoder write every field, so the
    text is always the general encoder's.
    """

    def __init__(
        self,
        names: tuple[str, ...],
        encoders: tuple[_Encode, ...],
        general: _Encode,
        columns: tuple[_EncodeMany, ...] | None = None,
    ) -> None:
        self.names = names
        self._read: Callable[[Mapping[str, object]], tuple[object, ...]] = (
            itemgetter(*names) if len(names) > 1 else lambda fields: (fields[names[0]],)
        )
        self._getters = tuple(map(itemgetter, names))
        self._encoders = encoders
        self._general = general
        self._columns = columns or tuple(map(_each, encoders))
        # The object's text: each field's text after its key; a copy is filled in by slice assignment.
        self._keys = [("," if at else "{") + encode_basestring(name) + ":" for at, name in enumerate(names)]
        self._pieces = [piece for key in self._keys for piece in (key, "")] + ["}"]

    def write(self, fields: Mapping[str, object]) -> tuple[tuple[object, ...], tuple[str, ...], str]:
        """The values of ``fields`` named in :attr:`names`, the JSON text of each, and the text of
        them all as one object."""
        values = self._read(fields)
        try:
            parts = tuple(map(call, self._encoders, values))
        except TypeError:
            parts = tuple(map(self._general, values))
        pieces = self._pieces.copy()
        pieces[1::2] = parts
        return values, parts, "".join(pieces)

    def write_many(self, many: Sequence[Mapping[str, object]]) -> tuple[Columns, Columns, list[str]]:
        """What :meth:`write` gives for each of ``many``, column by column: the values of each field
        in :attr:`names` order, the JSON texts of each, and the text of each model. A column an
        encoder refuses (a model built without validation) makes every model written by :meth:`write`."""
        if not many:
            return [() for _ in self.names], [() for _ in self.names], []
        values: Columns = [list(map(get, many)) for get in self._getters]  # no tuple per model
        try:
            parts: Columns = [encode(column) for encode, column in zip(self._columns, values, strict=True)]
        except TypeError:
            parts = list(zip(*(self.write(fields)[1] for fields in many), strict=True))
        spread = [piece for key, part in zip(self._keys, parts, strict=True) for piece in (repeat(key), part)]
        return values, parts, list(map("".join, zip(*spread, repeat("}"), strict=False)))  # repeat: endless


class Writer:
    """Writes canonical JSON of values whose nested models are all of type ``nested``."""

    def __init__(self, nested: type[BaseModel]) -> None:
        self._nested = nested
        self._encode = _encoder(self._fields)
        self._nested_writer = self.model_writer(nested)

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

    def model_writer(self, model: type[BaseModel]) -> ModelWriter:
        """The writer of ``model``'s fields (its ``__dict__`` if it :meth:`holds_json`, else its
        ``model_dump(mode="json")``): text, whole numbers and finite floats by their own encoders,
        anything else (lists, objects, null, booleans) by the general one."""
        names = tuple(sorted(model.model_fields))
        encoders = tuple(self._encoder_of(model.model_fields[name].annotation) for name in names)
        many: dict[_Encode, _EncodeMany] = {
            self._int: self._ints, self._float: self._floats, self.text: self._texts
        }  # fmt: skip
        return ModelWriter(names, encoders, self.text, tuple(many.get(e, _each(e)) for e in encoders))

    def _encoder_of(self, annotation: object) -> _Encode:
        kinds = allowed_types(annotation)
        if all(kind is str or (get_origin(kind) is Literal and self._json_type(kind)) for kind in kinds):
            return cast(_Encode, encode_basestring)  # raises TypeError on anything but text
        if kinds == [int]:
            return self._int
        if kinds == [float]:
            return self._float
        return self.text

    def _int(self, value: object) -> str:
        return int.__repr__(value) if type(value) is int else self.text(value)

    def _float(self, value: object) -> str:
        # float's repr is what the encoder writes for a finite float (inf - inf and nan - nan are nan).
        return float.__repr__(value) if type(value) is float and value - value == 0 else self.text(value)

    def _ints(self, column: Sequence[object]) -> list[str]:
        if set(map(type, column)) == {int}:  # not a bool: True is written true
            return list(map(int.__repr__, column))
        return list(map(self._int, column))

    def _floats(self, column: Sequence[object]) -> list[str]:
        if set(map(type, column)) == {float} and all(map(isfinite, column)):  # type: ignore[arg-type]
            return list(map(float.__repr__, column))
        return list(map(self._float, column))

    def _texts(self, column: Sequence[object]) -> list[str]:
        """The text of each value; when all are lists of ``nested`` models, each holding its fields
        alone (as validation leaves it), those models are written column by column."""
        if set(map(type, column)) == {list}:
            lists = cast(Sequence[list[object]], column)
            items = [item for value in lists for item in value]
            fields = [item.__dict__ for item in items if type(item) is self._nested]
            if len(fields) == len(items) and set(map(len, fields)) <= {len(self._nested_writer.names)}:
                try:
                    texts = self._nested_writer.write_many(fields)[2]
                except KeyError:  # a field missing, another in its place
                    return list(map(self.text, column))
                if set(map(len, lists)) == {1}:
                    return list(map("[{}]".format, texts))
                out, at = [], 0
                for value in lists:
                    out.append("[" + ",".join(texts[at : at + len(value)]) + "]")
                    at += len(value)
                return out
        return list(map(self.text, column))

    def _fields(self, value: object) -> dict[str, object]:
        if isinstance(value, self._nested):
            return value.__dict__
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
