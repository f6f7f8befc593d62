"""The shared write-protocol vectors, applied by the embedded SQLite backend.

The Worker runs the same files (``ts-apply/test/vectors.test.ts``); together they keep the two
appliers identical. See ``tests/vectors/make_vectors.py`` for the format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from magg_kg.operations import Batch
from magg_kg.sqlite import SQLiteStore

VECTORS = Path(__file__).parent / "vectors"
OP_TAGS = {
    "expect_state",
    "expect_unclaimed",
    "expect_active",
    "add_lesson",
    "add_chunk",
    "add_concept",
    "add_alias",
    "link_lesson_concept",
    "set_domain",
    "assign_domain",
    "unassign_domain",
    "add_proposal",
    "record_decision",
    "commit_edge",
    "invalidate_edge",
    "enqueue_review",
    "append_audit",
    "record_usage",
    "put_cache",
}


def load_vectors() -> list[dict[str, Any]]:
    return [json.loads(path.read_text("utf-8")) for path in sorted(VECTORS.glob("*.json"))]


def table_rows(store: SQLiteStore, table: str) -> list[dict[str, Any]]:
    """Every row of ``table`` in insertion order."""
    return [dict(row) for row in store._db.execute(f"SELECT * FROM {table} ORDER BY rowid")]


def same_row(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    """Equal rows, reading a JSON-text column when the vector gives parsed JSON."""
    if expected.keys() != actual.keys():
        return False
    for key, want in expected.items():
        got = actual[key]
        if isinstance(want, dict | list) and isinstance(got, str):
            got = json.loads(got)
        if want != got:
            return False
    return True


def assert_rows(store: SQLiteStore, expected: dict[str, list[dict[str, Any]]]) -> None:
    for table, want in expected.items():
        got = table_rows(store, table)
        assert len(got) == len(want), f"{table}: {len(got)} rows, expected {len(want)}"
        for index, (a, b) in enumerate(zip(want, got, strict=True)):
            assert same_row(a, b), f"{table} row {index}: {b} != {a}"


def error_fields(error: ValidationError) -> list[str]:
    """The dotted paths pydantic blames, without the discriminator tag (``ops.0.reason``)."""
    fields = []
    for item in error.errors():
        loc = [str(part) for part in item["loc"] if str(part) not in OP_TAGS]
        if item["type"] in ("union_tag_invalid", "union_tag_not_found"):
            loc.append("op")
        fields.append(".".join(loc))
    return fields


def test_the_vectors_cover_every_operation_type() -> None:
    used = {
        op["op"]
        for vector in load_vectors()
        for body in [*vector["setup"], vector["batch"]]
        for op in body["ops"]
    }
    assert OP_TAGS <= used


@pytest.mark.parametrize("vector", load_vectors(), ids=lambda vector: vector["name"])
def test_vector(vector: dict[str, Any]) -> None:
    expect = vector["expect"]
    store = SQLiteStore.open(":memory:")
    for body in vector["setup"]:
        assert store.apply(Batch.model_validate(body)).status == "applied"
    if expect.get("code") == "invalid":
        with pytest.raises(ValidationError) as caught:
            Batch.model_validate(vector["batch"])
        assert expect["field"] in error_fields(caught.value)
    else:
        result = store.apply(Batch.model_validate(vector["batch"]))
        assert (result.status, result.code) == (expect["status"], expect.get("code", ""))
        assert expect.get("reason_contains", "") in result.reason
    assert_rows(store, expect["rows"])
    store.close()
