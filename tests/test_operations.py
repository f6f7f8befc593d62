"""Operations as JSON: what the digest and a store's JSON columns are written from.

The digest and the stored JSON text are written from the operations themselves (``op_fields``),
field by field (``op_writer``), rather than from ``model_dump``: these tests hold that the text is
the same, byte for byte.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from typing import Any

import pytest
from pydantic import ValidationError

from magg_kg.operations import (
    JSON_TEXT,
    AddChunk,
    AddConcept,
    Batch,
    CommitEdge,
    Operation,
    SpanData,
    field_json,
    op_fields,
    op_writer,
)
from magg_kg.records import canonical_json
from tests.test_vectors import load_vectors

T = "2026-01-01T00:00:00.000000Z"


def valid_batches() -> list[Batch]:
    """Every batch of the shared write-protocol vectors that validates (setups included)."""
    found = []
    for vector in load_vectors():
        for body in [*vector["setup"], vector["batch"]]:
            try:
                found.append(Batch.model_validate(body))
            except ValidationError:
                continue
    return found


def reference_digest(batch: Batch) -> str:
    """The digest as it is defined: SHA-256 of the canonical JSON of the dumped content."""
    ops = [op.model_dump(mode="json") for op in batch.ops]
    body = {"batch_id": batch.batch_id, "sent_at": batch.sent_at, "ops": ops}
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def test_the_vectors_give_batches_of_every_operation_type() -> None:
    kinds = {op.op for batch in valid_batches() for op in batch.ops}
    assert kinds == set(JSON_TEXT)


@pytest.mark.parametrize("batch", valid_batches(), ids=lambda batch: batch.batch_id)
def test_the_digest_is_the_digest_of_the_dumped_content(batch: Batch) -> None:
    assert batch.content_digest() == reference_digest(batch)


@pytest.mark.parametrize("batch", valid_batches(), ids=lambda batch: batch.batch_id)
def test_op_fields_write_the_text_model_dump_writes(batch: Batch) -> None:
    for op in batch.ops:
        dumped = op.model_dump(mode="json")
        fields = op_fields(op)
        assert set(fields) == set(dumped)
        for name, value in dumped.items():
            assert field_json(fields[name]) == canonical_json(value), f"{op.op}.{name}"
        assert field_json(fields) == canonical_json(dumped)


@pytest.mark.parametrize("batch", valid_batches(), ids=lambda batch: batch.batch_id)
def test_the_op_writer_writes_each_field_and_the_whole_as_the_general_encoder_does(batch: Batch) -> None:
    for op in batch.ops:
        writer, fields = op_writer(op.op), op_fields(op)
        values, texts, text = writer.write(fields)
        assert writer.names == tuple(sorted(fields))
        assert values == tuple(fields[name] for name in writer.names)
        assert texts == tuple(field_json(fields[name]) for name in writer.names), op.op
        assert text == field_json(fields)


class Word(str):
    """Text of a subclass of str: written as any text is."""


@pytest.mark.parametrize(
    "update",
    [
        {"confidence": 1},  # a whole number where validation keeps a float
        {"confidence": float("nan")},
        {"confidence": True},
        {"reason": 5},  # a number where text is declared
        {"reason": Word("odd")},
        {"evidence": None},
        {"evidence": ({"lesson_id": "l", "start": 0},)},  # no span models, not a list
        {"evidence": [{"lesson_id": "l", "start": True}]},
    ],
    ids=repr,
)
def test_a_value_validation_did_not_make_is_written_by_the_general_encoder(update: dict[str, Any]) -> None:
    edge = CommitEdge.model_construct(**{**vector_op("commit_edge").__dict__, **update})
    fields = op_fields(edge)
    values, texts, text = op_writer("commit_edge").write(fields)
    assert values == tuple(fields[name] for name in sorted(fields))
    assert texts == tuple(field_json(fields[name]) for name in sorted(fields))
    assert text == field_json(fields)
    chunk = AddChunk.model_construct(id="k", lesson_id="l", ordinal=True, start=0, end=1.5, heading="")
    assert op_writer("add_chunk").write(op_fields(chunk))[2] == field_json(op_fields(chunk))


def vector_op(kind: str) -> Operation:
    """The first operation of this type in the vectors."""
    return next(op for batch in valid_batches() for op in batch.ops if op.op == kind)


@pytest.mark.parametrize("text", ["\x00", 'a"\x00', '"\x00"', "\x00\x00"])
def test_text_with_nul_and_quotes_is_written_as_dumped(text: str) -> None:
    span = SpanData(lesson_id="l", start=0, end=len(text), quote=text, kind="explicit")
    edge = vector_op("commit_edge").model_copy(
        update={"version_id": text, "reason": text, "evidence": [span]}
    )
    ops: list[Operation] = [AddConcept(id=text, name=text, type="t", recorded_at=T), edge]
    batch = Batch.of(text, T, ops)
    assert batch.digest == batch.content_digest() == reference_digest(batch)
    assert field_json(op_fields(edge)["evidence"]) == canonical_json([span.model_dump()])


def test_a_free_form_object_is_written_as_dumped() -> None:
    odd: dict[str, Any] = {"when": datetime.date(2026, 1, 2), "pair": (1, 2.0), "nan": float("nan"), "ü": "x"}
    decision = vector_op("record_decision").model_copy(update={"detail": odd})
    domain = vector_op("set_domain").model_copy(update={"card": {"n": {1, 2}}})
    batch = Batch.of("b-odd", T, [decision, domain])
    assert batch.digest == batch.content_digest() == reference_digest(batch)
    written = field_json(op_fields(decision)["detail"])
    assert written == canonical_json(decision.model_dump(mode="json")["detail"])
    assert json.loads(written)["when"] == "2026-01-02"


def test_json_text_names_the_list_and_object_fields() -> None:
    assert {name for names in JSON_TEXT.values() for name in names} == {"evidence", "card", "detail"}
    assert JSON_TEXT["commit_edge"] == {"evidence"} and JSON_TEXT["add_concept"] == frozenset()


@pytest.mark.parametrize("when", ["٢٠٢٦-02-01T00:00:00.000000Z", "2026-0２-01T00:00:00.000000Z"])
def test_a_time_stamp_takes_ascii_digits_only(when: str) -> None:
    # The Worker's pattern (JavaScript's \d) takes ASCII digits only; Python's took any script's,
    # and text order, which every as-of read relies on, would no longer be time order.
    with pytest.raises(ValidationError):
        AddConcept(id="c", name="c", type="concept", description="", recorded_at=when)
    AddConcept(id="c", name="c", type="concept", description="", recorded_at="2026-02-01T00:00:00.000000Z")
