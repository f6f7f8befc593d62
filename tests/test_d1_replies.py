"""A D1 Worker that answers what it should not: each reply is refused in one line (BadReply, a run
failure), in bounded time and memory, and nothing of it is used. Found by putting a lying proxy in
front of the real Worker; here a fake transport plays the liar."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import respx
from pydantic import SecretStr

from magg_kg import d1
from magg_kg.config import Config, D1Config, load_config
from magg_kg.d1 import D1Store
from magg_kg.errors import BackendUnavailable, BadReply, ConfigError, RunError, SchemaError, StoreError
from magg_kg.operations import AddConcept, AppendAudit, Batch
from magg_kg.store import SCHEMA_VERSION, query_columns
from tests.cli import magg

Handler = Callable[[httpx.Request], httpx.Response]
T = "2026-01-01T00:00:00.000000Z"


def store(handler: Handler, *, sleeps: list[float] | None = None, timeout_s: float = 30.0) -> D1Store:
    client = httpx.Client(transport=httpx.MockTransport(handler))
    config = D1Config(url="http://worker.test/", token=SecretStr("secret"), timeout_s=timeout_s)
    return D1Store(config, client=client, sleep=(sleeps if sleeps is not None else []).append)


def edge_row(**changed: object) -> dict[str, object]:
    """An ``edges_as_of`` row as a Worker sends it, with ``changed`` columns."""
    row: dict[str, object] = {column: f"x-{column}" for column in query_columns()["edges_as_of"]}
    span = '[{"lesson_id": "l", "start": 0, "end": 1, "quote": "q", "kind": "explicit"}]'
    row.update(status="active", confidence=0.9, evidence=span, invalid_at=None, expired_at=None)
    row.update(invalidated_by=None, valid_at=T, recorded_at=T, **changed)
    return row


def answering(rows: object, next_offset: object = None) -> Handler:
    return lambda request: httpx.Response(200, json={"rows": rows, "next_offset": next_offset})


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        (["a row"], "is not a JSON object"),
        ([None], "is not a JSON object"),
        ([{"alias": "x"}], "has columns ['alias'], not"),
        ([{**edge_row(), "extra": 1}], "has columns"),
        ([edge_row(src=["a", "list"])], "holds a value that is no text, number or null"),
        ([edge_row(confidence=True)], "holds a value that is no text, number or null"),
    ],
)
def test_a_row_of_another_shape_is_refused_naming_its_query(rows: object, said: str) -> None:
    # Each was a traceback later (KeyError, TypeError, a pydantic error) or a row taken as it was.
    with pytest.raises(BadReply, match=re.escape(said)) as refused:
        store(answering(rows)).edges()
    assert "query edges_as_of" in str(refused.value) and isinstance(refused.value, RunError)


@pytest.mark.parametrize(
    ("changed", "said"),
    [
        ({"src": None}, "src is null"),  # exported as "None" before
        ({"confidence": "NaN-ish"}, "ValueError"),
        ({"evidence": "not json"}, "JSONDecodeError"),
    ],
)
def test_a_row_of_the_right_columns_that_a_read_cannot_take_is_refused(
    changed: dict[str, object], said: str
) -> None:
    with pytest.raises(BadReply, match=said) as refused:
        store(answering([edge_row(**changed)])).edges()
    assert "sent a row that edges cannot read" in str(refused.value)


def test_a_sound_row_is_read() -> None:
    (edge,) = store(answering([edge_row()])).edges()
    assert (edge.src, edge.grounding.confidence) == ("x-src", 0.9)


@pytest.mark.parametrize(("rows", "next_offset"), [([edge_row()], 0), ([edge_row()], -5), ([], 1000)])
def test_a_page_that_does_not_move_on_is_refused_not_followed_forever(rows: object, next_offset: int) -> None:
    asked: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request)
        return answering(rows, next_offset)(request)

    with pytest.raises(BadReply, match="paged query edges_as_of from offset 0"):
        store(handler).edges()
    assert len(asked) == 1


def test_a_retry_after_that_is_no_number_falls_back_to_the_backoff() -> None:
    replies = iter(
        [httpx.Response(429, headers={"Retry-After": "nan"}), httpx.Response(200, json={"rows": []})]
    )
    sleeps: list[float] = []
    assert store(lambda request: next(replies), sleeps=sleeps).edges() == []  # was a ValueError from sleep
    assert sleeps == [0.25]


def test_a_reply_larger_than_a_worker_can_hold_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(d1, "MAX_REPLY_BYTES", 10_000)  # 128 MiB in production
    huge = b'{"rows": [], "padding": "' + b"x" * 20_000 + b'"}'
    with pytest.raises(BadReply, match="sent more than 0 MiB for /v1/query"):
        store(lambda request: httpx.Response(200, content=huge)).edges()


class Trickle(httpx.SyncByteStream):
    """A body that comes a byte at a time, each in good time for a read, the whole far too late."""

    def __iter__(self) -> Iterator[bytes]:
        for byte in b'{"rows": []}':
            time.sleep(0.02)
            yield bytes([byte])


def test_a_reply_that_trickles_in_is_given_up_at_its_deadline() -> None:
    # Each read came within the timeout, so the reply was waited for without end (days, at a
    # byte every 5 s); the whole reply now has twice the timeout.
    started = time.monotonic()
    with pytest.raises(BackendUnavailable, match="the reply took over 0 s"):
        store(lambda request: httpx.Response(200, stream=Trickle()), timeout_s=0.05).edges()
    assert time.monotonic() - started < 4 * 0.3  # four attempts, each cut at its deadline


@pytest.mark.parametrize(
    ("rows", "error", "said"),
    [
        ([{"version": 99}], SchemaError, "migrated by a newer magg (schema version 99"),
        # magg never migrates D1: a batch with a precondition failed on "no such table" mid-write.
        ([{"version": SCHEMA_VERSION - 1}], SchemaError, "older than this magg's: apply the migrations"),
        ([{"version": 0}], StoreError, "apply the migrations"),
        ([{"version": "abc"}], StoreError, "apply the migrations"),
        ([], StoreError, "apply the migrations"),  # an IndexError before
    ],
)
def test_a_schema_version_this_magg_does_not_know_is_refused(
    rows: list[dict[str, object]], error: type[Exception], said: str
) -> None:
    # A version 99 or 0 was reported "ready", as SQLite never would.
    with pytest.raises(error, match=re.escape(said)):
        store(answering(rows)).schema_version()
    assert store(answering([{"version": SCHEMA_VERSION}])).schema_version() == SCHEMA_VERSION


def audited(batch_id: str, events: int) -> Batch:
    concept = AddConcept(id="a", name="A", type="t", recorded_at=T)
    audit = [
        AppendAudit(event_id=f"ev-{n}", kind="note", subject="a", payload="{}", recorded_at=T)
        for n in range(events)
    ]
    return Batch.of(batch_id, T, [concept, *audit])


@pytest.mark.parametrize(
    ("answer", "events", "taken"),
    [
        ({"status": "applied"}, 2, False),  # a canned answer: it was believed, and nothing written
        ({"status": "applied", "audit_head": {"seq": 1, "hash": "0" * 64}}, 2, False),  # behind the batch
        ({"status": "applied", "audit_head": {"seq": 7, "hash": "0" * 64}}, 2, True),
        ({"status": "applied"}, 0, True),  # no audit event: no head to name
    ],
)
def test_an_applied_answer_must_name_the_chain_head_its_audit_events_reach(
    answer: dict[str, object], events: int, taken: bool
) -> None:
    d1 = store(lambda request: httpx.Response(200, json=answer))
    batch = audited("b-1", events)
    if taken:
        assert d1.apply(batch).status == "applied"
    else:
        with pytest.raises(BadReply, match="without the chain's head that follows them"):
            d1.apply(batch)


def test_a_database_without_magg_s_migrations_is_said_at_once_not_retried() -> None:
    # The Worker's answer to "no such table": it was retried 4 times, then blamed the URL.
    reason = "the D1 database has no magg schema: apply the migrations (`wrangler d1 migrations apply DB`)"
    body = {"status": "error", "code": "misconfigured", "reason": reason}
    sleeps: list[float] = []
    with pytest.raises(StoreError, match="wrangler d1 migrations apply") as refused:
        store(lambda request: httpx.Response(500, json=body), sleeps=sleeps).schema_version()
    assert sleeps == [] and "did not answer" not in str(refused.value)


@pytest.mark.parametrize(
    ("version", "said"),
    [(99, "newer magg"), (SCHEMA_VERSION - 1, "apply the migrations"), (0, "apply the migrations")],
)
def test_a_d1_database_of_another_schema_is_refused_on_opening(version: int, said: str) -> None:
    # Only `init` and `export` asked: `ingest` wrote into a database a newer magg had migrated.
    from magg_kg.backends import open_store

    config = Config(store="d1", d1=D1Config(url="http://127.0.0.1:8787", token=SecretStr("secret")))
    with respx.mock(assert_all_called=True) as routes:
        routes.post("http://127.0.0.1:8787/v1/query").mock(
            return_value=httpx.Response(200, json={"rows": [{"version": version}], "next_offset": None})
        )
        with pytest.raises(StoreError, match=said):
            open_store(config)


def test_a_db_option_with_the_d1_store_is_refused_not_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `reconsider --db local.db` wrote to D1, and `coverage --db missing.db` printed D1's graph.
    monkeypatch.setenv("MAGG_STORE", "d1")
    monkeypatch.setenv("MAGG_D1_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("MAGG_D1_TOKEN", "secret")
    code, out, err = magg(["coverage", "--db", str(tmp_path / "local.db")], capsys)
    assert code == 2 and out == "" and "names a SQLite file, but MAGG_STORE=d1" in err
    assert "D1 at http://127.0.0.1:9" in err and "Traceback" not in err


def test_a_user_name_in_the_d1_url_is_refused_without_showing_the_password() -> None:
    # httpx sent it as Basic auth in place of the bearer token, and the Worker's 401 blamed the token.
    with pytest.raises(ConfigError, match="holds a user name") as refused:
        load_config({"MAGG_STORE": "d1", "MAGG_D1_URL": "http://me:hunter2@127.0.0.1:8787"})
    assert "hunter2" not in str(refused.value)
    assert Config(store="d1", d1=D1Config(url="https://w.example.dev")).where == "D1 at https://w.example.dev"
    assert Config(store="d1").where == "D1 (MAGG_D1_URL is not set)"  # was "D1 at :"
