"""The store contract, run against both backends: SQLite in memory and D1 through the Worker.

The D1 half talks to a real ``wrangler dev --local`` (the session fixture ``worker``), whose
database is shared by the session: every case writes under its own id prefix and reads back only
its own rows. The second half pins D1Store's HTTP behaviour (retries, errors) with a fake
transport.
"""

from __future__ import annotations

import hashlib
import json
import socket
import time
import uuid
from collections.abc import Callable, Iterator

import httpx
import pytest
from pydantic import SecretStr

from benchmarks.local_worker import RunningWorker
from magg_kg.audit import find_break
from magg_kg.backends import open_store
from magg_kg.config import Config, D1Config
from magg_kg.d1 import D1Store
from magg_kg.errors import BackendUnavailable, ConfigError, StoreError
from magg_kg.graph import Adjacency
from magg_kg.operations import (
    AddAlias,
    AddConcept,
    AddLesson,
    AppendAudit,
    AssignDomain,
    Batch,
    CommitEdge,
    InvalidateEdge,
    Operation,
    RecordDecision,
    RecordUsage,
    SetDomain,
    SpanData,
    UnassignDomain,
)
from magg_kg.records import edge_id
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import WITHDRAWAL, Store, query_columns

T = "2026-02-01T00:00:00.000000Z"
LATER = "2026-02-01T00:00:05.000000Z"
EARLIER = "2026-01-31T23:59:59.000000Z"


@pytest.fixture(params=["sqlite", "d1"])
def backend(request: pytest.FixtureRequest) -> Iterator[Store]:
    if request.param == "sqlite":
        store: Store = SQLiteStore.open(":memory:")
    else:
        running: RunningWorker = request.getfixturevalue("worker")
        store = D1Store(D1Config(url=running.url, token=SecretStr(running.token)))
    yield store
    store.close()


@pytest.fixture
def prefix() -> str:
    return f"c{uuid.uuid4().hex[:10]}-"


def concept(prefix: str, name: str) -> AddConcept:
    return AddConcept(id=prefix + name, name=name.title(), type="math", recorded_at=T)


def decision(prefix: str, name: str, state: str = "committed") -> RecordDecision:
    return RecordDecision(
        id=prefix + name,
        proposal_id=None,
        stage="manual",
        verdict="accept",
        state_after=state,  # type: ignore[arg-type]
        rationale="test",
        detail={"by": "contract"},
        policy_version="p1",
        prompt_version="none",
        model="none",
        decided_at=T,
    )


def edge(prefix: str, version: str, src: str, dst: str, decision_id: str, at: str = T) -> CommitEdge:
    span = SpanData(lesson_id="l", start=0, end=4, quote="uses", kind="explicit")
    return CommitEdge(
        version_id=prefix + version,
        edge_id=edge_id(prefix + src, "prerequisite", prefix + dst),
        src=prefix + src,
        type="prerequisite",
        dst=prefix + dst,
        confidence=0.9,
        reason="it says so",
        source="test",
        evidence=[span],
        valid_at=at,
        recorded_at=at,
        decision_id=prefix + decision_id,
        policy_version="p1",
        prompt_version="none",
        model="none",
    )


def closing(
    prefix: str, version: str, decision_id: str, at: str = LATER, reason: str = "wrong"
) -> InvalidateEdge:
    return InvalidateEdge(
        version_id=prefix + version,
        decision_id=prefix + decision_id,
        invalid_at=at,
        expired_at=at,
        reason=reason,
    )


def batch(prefix: str, name: str, *ops: Operation) -> Batch:
    return Batch.of(prefix + name, T, list(ops))


def graph(prefix: str) -> Batch:
    return batch(
        prefix,
        "graph",
        concept(prefix, "a"),
        concept(prefix, "b"),
        decision(prefix, "d1"),
        edge(prefix, "v1", "a", "b", "d1"),
    )


def mine(prefix: str, ids: list[str]) -> list[str]:
    return [item for item in ids if item.startswith(prefix)]


# The contract: the same cases, the same answers, on both backends.


def test_applies_a_batch_and_reads_it_back(backend: Store, prefix: str) -> None:
    assert backend.apply(graph(prefix)).status == "applied"
    assert mine(prefix, [c.id for c in backend.concepts()]) == [prefix + "a", prefix + "b"]
    [found] = [e for e in backend.edges() if e.version_id == prefix + "v1"]
    assert (found.status, found.grounding.confidence, found.grounding.evidence[0].quote) == (
        "active",
        0.9,
        "uses",
    )
    assert backend.query("batch", {"batch_id": prefix + "graph"})[0]["op_count"] == 4


def test_a_retried_batch_is_a_duplicate(backend: Store, prefix: str) -> None:
    first = graph(prefix)
    assert backend.apply(first).status == "applied"
    assert backend.apply(first).status == "duplicate"
    assert mine(prefix, [c.id for c in backend.concepts()]) == [prefix + "a", prefix + "b"]


def test_the_same_id_with_other_content_is_a_conflict(backend: Store, prefix: str) -> None:
    backend.apply(graph(prefix))
    result = backend.apply(batch(prefix, "graph", concept(prefix, "other")))
    assert (result.status, result.code) == ("refused", "conflict")
    assert prefix + "other" not in [c.id for c in backend.concepts()]


def test_a_refused_batch_writes_nothing(backend: Store, prefix: str) -> None:
    backend.apply(graph(prefix))
    refused = batch(
        prefix,
        "second",
        concept(prefix, "c"),
        AddAlias(alias=prefix + "see", concept_id=prefix + "c", recorded_at=T),
        decision(prefix, "d2"),
        edge(prefix, "v2", "a", "b", "d2"),
    )
    result = backend.apply(refused)
    assert (result.status, result.code) == ("refused", "constraint")
    assert (
        result.reason == "UNIQUE constraint failed: concept_edges.src, concept_edges.type, concept_edges.dst"
    )
    assert prefix + "c" not in [c.id for c in backend.concepts()]
    assert prefix + "see" not in backend.aliases()
    assert prefix + "d2" not in [d.id for d in backend.decisions()]
    assert backend.query("batch", {"batch_id": prefix + "second"}) == []


@pytest.mark.parametrize(
    ("ops", "reason"),
    [
        (
            lambda p: [decision(p, "d9"), edge(p, "loop", "a", "a", "d9")],
            "CHECK constraint failed: src <> dst",
        ),
        (lambda p: [decision(p, "d9"), edge(p, "fk", "a", "nowhere", "d9")], "FOREIGN KEY constraint failed"),
        (
            lambda p: [closing(p, "nope", "d1", at=T, reason="x")],
            "invalidate_edge: no active edge version with this version_id",
        ),
    ],
    ids=["self-loop", "unknown-concept", "not-active"],
)
def test_constraint_refusals_read_the_same(
    backend: Store, prefix: str, ops: Callable[[str], list[Operation]], reason: str
) -> None:
    backend.apply(graph(prefix))
    result = backend.apply(batch(prefix, "bad", *ops(prefix)))
    assert (result.status, result.code, result.reason) == ("refused", "constraint", reason)


def domain(prefix: str, version: int, at: str = T) -> SetDomain:
    return SetDomain(id=prefix + "dom", version=version, name="d", owner="owner:d", card={}, recorded_at=at)


def ownership(prefix: str, at: str = T) -> AssignDomain:
    return AssignDomain(concept_id=prefix + "a", domain_id=prefix + "dom", recorded_at=at)


def ownership_ends(prefix: str, at: str = LATER) -> UnassignDomain:
    return UnassignDomain(concept_id=prefix + "a", domain_id=prefix + "dom", expired_at=at)


@pytest.mark.parametrize(
    ("ops", "reason"),
    [
        (
            lambda p: [decision(p, "d2", "invalidated"), closing(p, "v1", "d2", at=EARLIER)],
            "time order: an edge version cannot be closed before it was recorded or valid",
        ),
        (
            lambda p: [
                decision(p, "d2", "invalidated"),
                closing(p, "v1", "d2", at=LATER),
                edge(p, "v2", "a", "b", "d2", at=T),
            ],
            "time order: an edge version cannot be recorded before the versions before it",
        ),
        (
            lambda p: [domain(p, 1), domain(p, 3, at=LATER)],
            "time order: a domain version must follow the last one, in number and in time",
        ),
        (
            lambda p: [domain(p, 1), domain(p, 2, at=EARLIER)],
            "time order: a domain version cannot be closed before it was recorded",
        ),
        (
            lambda p: [domain(p, 1), ownership(p), ownership_ends(p, at=EARLIER)],
            "time order: an ownership cannot end before it began",
        ),
        (
            lambda p: [domain(p, 1), ownership(p), ownership_ends(p), ownership(p, at=T)],
            "time order: an ownership cannot begin before the last one of the same pair",
        ),
    ],
    ids=[
        "closed-before-recorded",
        "version-before-the-last-closed",
        "domain-version-skipped",
        "domain-version-back-in-time",
        "ownership-ends-before-it-began",
        "ownership-again-before-it-ended",
    ],
)
def test_writes_that_would_hide_history_are_refused(
    backend: Store, prefix: str, ops: Callable[[str], list[Operation]], reason: str
) -> None:
    backend.apply(graph(prefix))
    result = backend.apply(batch(prefix, "bad", *ops(prefix)))
    assert (result.status, result.code, result.reason) == ("refused", "constraint", reason)
    assert backend.query("batch", {"batch_id": prefix + "bad"}) == []


def test_history_written_in_order_is_accepted(backend: Store, prefix: str) -> None:
    backend.apply(graph(prefix))
    in_order = batch(
        prefix,
        "ordered",
        domain(prefix, 1),
        ownership(prefix),
        ownership_ends(prefix, at=T),  # an ownership may end at the moment it began
        decision(prefix, "d2", "invalidated"),
        closing(prefix, "v1", "d2", at=T),
        edge(prefix, "v2", "a", "b", "d2", at=T),  # the next version, at the same moment
    )
    assert backend.apply(in_order).status == "applied"
    assert backend.apply(
        batch(prefix, "again", domain(prefix, 2, at=LATER), ownership(prefix, at=LATER))
    ).status == ("applied")
    assert [e.version_id for e in backend.edges() if e.version_id.startswith(prefix)] == [prefix + "v2"]


def test_invalidation_closes_a_version_and_as_of_still_sees_it(backend: Store, prefix: str) -> None:
    backend.apply(graph(prefix))
    closed = batch(prefix, "close", decision(prefix, "d2", "invalidated"), closing(prefix, "v1", "d2"))
    assert backend.apply(closed).status == "applied"
    version = backend.edge_version(prefix + "v1")
    assert version is not None
    assert (version.status, version.expired_at, version.invalidated_by) == (
        "invalidated",
        LATER,
        prefix + "d2",
    )
    assert prefix + "v1" not in [e.version_id for e in backend.edges()]
    [then] = [e for e in backend.edges(as_of=T) if e.version_id == prefix + "v1"]
    # As of T the invalidation recorded later was not known yet: every field says so.
    known = (then.status, then.invalid_at, then.expired_at, then.invalidated_by)
    assert known == ("active", None, None, None)


def test_recent_edges_are_the_newest_active_versions_newest_first(backend: Store, prefix: str) -> None:
    # Later than anything else the shared Worker holds, so these are the newest rows there too.
    times = [f"2099-01-01T00:00:0{n}.000000Z" for n in range(4)]
    ops: list[Operation] = [concept(prefix, name) for name in "abcde"] + [decision(prefix, "d1")]
    ops += [edge(prefix, f"r{n}", "abcd"[n], "bcde"[n], "d1", at) for n, at in enumerate(times)]
    assert backend.apply(batch(prefix, "recent", *ops)).status == "applied"
    assert [e.version_id for e in backend.recent_edges(3)] == [prefix + f"r{n}" for n in (3, 2, 1)]


def test_the_graph_reads_by_concept(backend: Store, prefix: str) -> None:
    ops: list[Operation] = [concept(prefix, name) for name in "abc"] + [decision(prefix, "d1")]
    ops += [edge(prefix, "v1", "a", "b", "d1"), edge(prefix, "v2", "b", "c", "d1")]
    ops.append(AddAlias(alias=prefix + "alpha", concept_id=prefix + "a", recorded_at=T))
    assert backend.apply(batch(prefix, "reads", *ops)).status == "applied"
    a, b, c = (prefix + name for name in "abc")
    ab, bc = (a, "prerequisite", b), (b, "prerequisite", c)
    assert [t for t in backend.triples() if t[0].startswith(prefix)] == [ab, bc]
    assert [t for t in backend.triples(as_of=T) if t[0].startswith(prefix)] == [ab, bc]
    assert backend.triples_touching([b]) == [ab, bc] and backend.triples_touching([a]) == [ab]
    assert backend.triples_touching([]) == []
    assert [x.id for x in backend.concepts_by_id([c, a, prefix + "missing"])] == [a, c]
    assert backend.aliases_of([a, b]) == {prefix + "alpha": a}
    found = backend.active_edge(*ab)
    assert found is not None and found.version_id == prefix + "v1"
    assert backend.active_edge(b, "prerequisite", a) is None
    assert backend.lesson_links([a]) == [] and backend.lesson_count() >= 0
    assert Adjacency.of_store(backend).neighbors(b) == {a, c}


def test_sql_text_is_stored_verbatim(backend: Store, prefix: str) -> None:
    name = "x'); DROP TABLE concepts; --"
    backend.apply(batch(prefix, "sql", AddConcept(id=prefix + name, name=name, type="t", recorded_at=T)))
    assert [c.name for c in backend.concepts() if c.id == prefix + name] == [name]


def test_the_audit_chain_grows_and_verifies(backend: Store, prefix: str) -> None:
    def event(n: int) -> AppendAudit:
        return AppendAudit(
            event_id=f"{prefix}e{n}", kind="test", subject=prefix, payload=json.dumps({"n": n}), recorded_at=T
        )

    seq_before, _ = backend.audit_head()
    backend.apply(batch(prefix, "a1", event(1), event(2)))
    backend.apply(batch(prefix, "a2", event(3)))
    events = backend.audit_events()
    assert [e.event_id for e in events if e.subject == prefix] == [f"{prefix}e{n}" for n in (1, 2, 3)]
    assert backend.audit_head()[0] == seq_before + 3
    assert find_break(events) is None


def test_the_latest_recorded_time_is_read_from_the_history(backend: Store, prefix: str) -> None:
    # What a writer's clock observes, so that a clock behind the history still writes after it.
    later = "2999-01-01T00:00:00.000000Z"
    assert (backend.latest_time() or "") < later
    event = AppendAudit(
        event_id=f"{prefix}late", kind="test", subject=prefix, payload="{}", recorded_at=later
    )
    backend.apply(batch(prefix, "late", event))
    assert backend.latest_time() == later


def test_apply_all_applies_in_order_and_a_refusal_stops_no_other(backend: Store, prefix: str) -> None:
    def event(n: int) -> AppendAudit:
        return AppendAudit(event_id=f"{prefix}g{n}", kind="test", subject=prefix, payload="{}", recorded_at=T)

    first = batch(prefix, "g1", concept(prefix, "a"), event(1))
    later = [
        batch(prefix, "g2", concept(prefix, "b"), event(2)),
        batch(prefix, "g3", AddAlias(alias=prefix + "x", concept_id=prefix + "nowhere", recorded_at=T)),
        batch(prefix, "g4", concept(prefix, "c"), decision(prefix, "d"), edge(prefix, "v", "a", "c", "d")),
    ]
    assert backend.apply(first).status == "applied"
    results = backend.apply_all([first, *later])
    assert [(r.batch_id, r.status) for r in results] == [
        (prefix + "g1", "duplicate"),
        (prefix + "g2", "applied"),
        (prefix + "g3", "refused"),
        (prefix + "g4", "applied"),
    ]
    assert "FOREIGN KEY" in results[2].reason
    assert mine(prefix, [c.id for c in backend.concepts()]) == [prefix + n for n in "abc"]
    assert prefix + "x" not in backend.aliases()
    events = backend.audit_events()
    assert [e.event_id for e in events if e.subject == prefix] == [prefix + "g1", prefix + "g2"]
    assert find_break(events) is None
    assert backend.apply_all([]) == []


def test_apply_all_of_new_batches_writes_them_all(backend: Store, prefix: str) -> None:
    def event(n: int) -> AppendAudit:
        return AppendAudit(event_id=f"{prefix}n{n}", kind="test", subject=prefix, payload="{}", recorded_at=T)

    batches = [batch(prefix, f"n{n}", concept(prefix, f"k{n}"), event(n)) for n in range(30)]
    assert {r.status for r in backend.apply_all(batches)} == {"applied"}
    assert len(mine(prefix, [c.id for c in backend.concepts()])) == 30
    events = [e for e in backend.audit_events() if e.subject == prefix]
    assert [e.event_id for e in events] == [f"{prefix}n{n}" for n in range(30)]
    assert find_break(backend.audit_events()) is None
    assert {r.status for r in backend.apply_all(batches)} == {"duplicate"}


def test_reads_page_through_more_than_one_page(backend: Store, prefix: str) -> None:
    aliases = [
        AddAlias(alias=f"{prefix}{n:05d}", concept_id=prefix + "a", recorded_at=T) for n in range(1500)
    ]
    backend.apply(batch(prefix, "many", concept(prefix, "a"), *aliases))
    found = mine(prefix, list(backend.aliases()))
    assert found == sorted(f"{prefix}{n:05d}" for n in range(1500))


# D1Store's HTTP behaviour, with a fake transport or a real but unreachable address.


def fake_store(
    handler: Callable[[httpx.Request], httpx.Response],
    *,
    attempts: int = 4,
    sleeps: list[float] | None = None,
) -> D1Store:
    client = httpx.Client(transport=httpx.MockTransport(handler))
    config = D1Config(url="http://worker.test/", token=SecretStr("secret"), attempts=attempts)
    return D1Store(config, client=client, sleep=(sleeps if sleeps is not None else []).append)


def one_concept(name: str = "b1") -> Batch:
    return Batch.of(name, T, [AddConcept(id="a", name="A", type="t", recorded_at=T)])


def test_a_500_is_retried_and_the_batch_applied_once() -> None:
    seen: list[httpx.Request] = []
    sleeps: list[float] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if len(seen) == 1:
            return httpx.Response(500, json={"status": "error", "code": "internal", "reason": "boom"})
        return httpx.Response(200, json={"status": "applied", "batch_id": "b1"})

    result = fake_store(handler, sleeps=sleeps).apply(one_concept())
    assert result.status == "applied"
    assert len(seen) == 2 and sleeps == [0.25]
    assert seen[0].headers["authorization"] == "Bearer secret"
    assert seen[0].url == "http://worker.test/v1/batches"
    assert json.loads(seen[0].content) == one_concept().model_dump(mode="json")


def test_a_duplicate_after_a_lost_answer_counts_as_applied() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        if len(calls) == 1:
            raise httpx.ReadTimeout("answer lost", request=request)
        return httpx.Response(200, json={"status": "duplicate", "batch_id": "b1"})

    assert fake_store(handler).apply(one_concept()).status == "applied"
    plain = fake_store(lambda request: httpx.Response(200, json={"status": "duplicate"}))
    assert plain.apply(one_concept()).status == "duplicate"


def test_a_refusal_is_a_result_not_an_error() -> None:
    answer = {"status": "refused", "code": "constraint", "reason": "CHECK constraint failed: src <> dst"}
    result = fake_store(lambda request: httpx.Response(409, json=answer)).apply(one_concept())
    assert (result.status, result.code, result.reason) == ("refused", "constraint", answer["reason"])


def test_a_wrong_token_says_so() -> None:
    store = fake_store(
        lambda request: httpx.Response(401, json={"status": "refused", "code": "unauthorized"})
    )
    with pytest.raises(StoreError, match="MAGG_D1_TOKEN"):
        store.apply(one_concept())


def test_an_unreachable_worker_fails_in_bounded_time() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sleeps: list[float] = []
    store = D1Store(
        D1Config(url=f"http://127.0.0.1:{port}", token=SecretStr("t"), timeout_s=2, attempts=3),
        sleep=sleeps.append,
    )
    started = time.monotonic()
    with pytest.raises(BackendUnavailable, match=f"127.0.0.1:{port}.*after 3 attempts.*re-run"):
        store.apply(one_concept())
    assert time.monotonic() - started < 5
    assert sleeps == [0.25, 0.5]


def test_retries_stop_after_the_configured_attempts() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(503, text="overloaded")

    with pytest.raises(BackendUnavailable, match="HTTP 503"):
        fake_store(handler, attempts=4).apply(one_concept())
    assert len(calls) == 4


def test_query_pages_until_next_offset_is_null() -> None:
    asked: list[dict[str, object]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        asked.append(body)
        offset = body["offset"]
        return httpx.Response(200, json={"rows": [row(offset)], "next_offset": None if offset else 1000})

    columns = sorted(query_columns()["concepts"])

    def row(offset: int) -> dict[str, object]:
        return {column: f"c{offset}" if column == "id" else None for column in columns}

    rows = fake_store(handler).query("concepts", {"as_of": None, "ignored": 1})
    assert rows == [row(0), row(1000)]
    assert [(a["name"], a["params"], a["offset"]) for a in asked] == [
        ("concepts", {"as_of": None}, 0),
        ("concepts", {"as_of": None}, 1000),
    ]


def test_open_store_picks_the_backend(worker: RunningWorker) -> None:
    assert isinstance(open_store(Config(db=":memory:")), SQLiteStore)  # type: ignore[arg-type]
    d1 = Config(store="d1", d1=D1Config(url=worker.url, token=SecretStr(worker.token)))
    assert isinstance(open_store(d1), D1Store)  # opening it reads its schema version
    with pytest.raises(ConfigError, match="MAGG_D1_URL"):
        open_store(Config(store="d1", d1=D1Config(url="http://x")))
    # The bearer token crosses the network only over https; plain http is for a Worker on this machine.
    for url in ("http://worker.example.com", "http://192.168.1.5:8787"):
        with pytest.raises(ConfigError, match="plain http to another machine"):
            open_store(Config(store="d1", d1=D1Config(url=url, token=SecretStr("t"))))
    # Allowed, and so tried: nothing answers there.
    for url in ("http://localhost:1", "https://w.example.com"):
        with pytest.raises(BackendUnavailable, match="did not answer"):
            open_store(Config(store="d1", d1=D1Config(url=url, token=SecretStr("t"), attempts=1)))


def test_a_lost_answer_from_the_real_worker_is_retried_harmlessly(worker: RunningWorker, prefix: str) -> None:
    """The first answer is dropped after the Worker applied the batch; the retry sees a duplicate."""

    class LosingTransport(httpx.HTTPTransport):
        lost = 0

        def handle_request(self, request: httpx.Request) -> httpx.Response:
            response = super().handle_request(request)
            if self.lost == 0:
                self.lost += 1
                response.close()
                raise httpx.ReadTimeout("answer lost on the way back", request=request)
            return response

    config = D1Config(url=worker.url, token=SecretStr(worker.token))
    store = D1Store(config, client=httpx.Client(transport=LosingTransport()), sleep=lambda s: None)
    assert store.apply(graph(prefix)).status == "applied"
    assert mine(prefix, [c.id for c in store.concepts()]) == [prefix + "a", prefix + "b"]
    assert store.query("batch", {"batch_id": prefix + "graph"})[0]["op_count"] == 4


def test_the_worker_refuses_what_validation_refuses(worker: RunningWorker, prefix: str) -> None:
    """A batch built without validation (model_construct) is refused by the Worker, naming the field."""
    bad = AddConcept.model_construct(
        id=prefix + "a", name="A", type="t", description="", recorded_at="yesterday"
    )
    sneaky = Batch.model_construct(batch_id=prefix + "bad", sent_at=T, ops=[bad], digest="0" * 64)
    store = D1Store(D1Config(url=worker.url, token=SecretStr(worker.token)))
    result = store.apply(sneaky)
    assert (result.status, result.code) == ("refused", "invalid")
    assert "ops.0.recorded_at" in result.reason
    wrong = D1Store(D1Config(url=worker.url, token=SecretStr("wrong")))
    with pytest.raises(StoreError, match="401"):
        wrong.concepts()


def test_the_worker_refuses_a_line_break_in_an_audit_field(worker: RunningWorker, prefix: str) -> None:
    """The audit hash joins the fields with line breaks; a field that held one is ambiguous."""
    event = AppendAudit.model_construct(
        event_id=prefix + "e", kind="k", subject="x\ny", payload="{}", recorded_at=T
    )
    sneaky = Batch.model_construct(batch_id=prefix + "bad", sent_at=T, ops=[event], digest="0" * 64)
    result = D1Store(D1Config(url=worker.url, token=SecretStr(worker.token))).apply(sneaky)
    assert (result.status, result.code) == ("refused", "invalid")
    assert "ops.0.subject" in result.reason


def test_the_graph_stamp_moves_with_the_graph_and_not_with_usage(backend: Store, prefix: str) -> None:
    def changed(*ops: Operation) -> bool:
        before = backend.graph_stamp()
        assert backend.apply(batch(prefix, uuid.uuid4().hex[:8], *ops)).status == "applied"
        return backend.graph_stamp() != before

    assert changed(concept(prefix, "a"), concept(prefix, "b"))
    assert changed(AddAlias(alias=prefix + "alpha", concept_id=prefix + "a", recorded_at=T))
    assert changed(decision(prefix, "d"), edge(prefix, "v", "a", "b", "d"))
    assert changed(closing(prefix, "v", "d"))
    domain = SetDomain(id=prefix + "dom", version=1, name="d", owner="owner:d", card={}, recorded_at=T)
    assert changed(domain, AssignDomain(concept_id=prefix + "a", domain_id=prefix + "dom", recorded_at=T))
    assert changed(UnassignDomain(concept_id=prefix + "a", domain_id=prefix + "dom", expired_at=LATER))
    usage = RecordUsage(
        id=prefix + "u", stage="qa", agent="expert", model="offline", prompt_tokens=1, completion_tokens=1,
        latency_ms=0.0, attempts=1, outcome="ok", cache_hit=False, recorded_at=LATER,
    )  # fmt: skip
    assert not changed(usage)


def test_usage_by_stage_counts_the_calls_made_apart_from_those_the_spend_cap_refused(
    backend: Store, prefix: str
) -> None:
    # `magg usage` (and the audit report) counted a call the spend cap refused as a call made:
    # 5 calls where 3 were made. Its tokens, attempts and time are the calls made's alone.
    def used(n: int, outcome: str, tokens: int, attempts: int, latency: float) -> RecordUsage:
        return RecordUsage(
            id=f"{prefix}u{n}", stage=prefix + "judge", agent="judge", model="m", prompt_tokens=tokens,
            completion_tokens=tokens // 2, latency_ms=latency, attempts=attempts, outcome=outcome,
            cache_hit=outcome == "cached", recorded_at=T,
        )  # fmt: skip

    calls = [
        used(1, "ok", 10, 1, 100.0),
        used(2, "cached", 10, 0, 0.0),
        used(3, "unavailable", 0, 3, 900.0),
        used(4, "over_budget", 0, 0, 1.5),  # as the spend cap records a call it refused
        used(5, "over_budget", 0, 0, 1.5),
    ]
    assert backend.apply(batch(prefix, "usage", *calls)).status == "applied"
    (row,) = [row for row in backend.usage_by_stage() if row["stage"] == prefix + "judge"]
    assert {key: row[key] for key in row if key != "stage"} == {
        "calls": 3,
        "capped": 2,
        "cache_hits": 1,
        "attempts": 4,
        "prompt_tokens": 20,
        "completion_tokens": 10,
        "latency_ms": 1000.0,
    }


def test_the_current_lessons_leave_out_replaced_versions_and_withdrawn_lessons(
    backend: Store, prefix: str
) -> None:
    def lesson(key: str, text: str, at: str, supersedes: str | None = None) -> AddLesson:
        sha = hashlib.sha256(f"{prefix}{text}".encode()).hexdigest()
        return AddLesson(
            id=f"{prefix}{key}@{sha[:6]}", lesson_key=prefix + key, title=key, sha256=sha,
            source_path=f"{key}.md", text=prefix + text, supersedes=supersedes, ingested_at=at,
        )  # fmt: skip

    first, other = lesson("a", "one", EARLIER), lesson("b", "two", EARLIER)
    second = lesson("a", "three", T, supersedes=first.id)
    assert backend.apply(batch(prefix, "lessons", first, other)).status == "applied"
    assert backend.apply(batch(prefix, "edit", second)).status == "applied"
    withdrawal = decision(prefix, "w", "invalidated").model_copy(
        update={
            "stage": WITHDRAWAL,
            "verdict": "withdraw",
            "detail": {"lesson_id": other.id},
            "decided_at": LATER,
        }
    )
    stamp = backend.graph_stamp()
    assert backend.apply(batch(prefix, "withdraw", withdrawal)).status == "applied"
    assert backend.graph_stamp() != stamp  # a withdrawal that closes no edge still moves it
    assert mine(prefix, [lesson.id for lesson in backend.current_lessons()]) == [second.id]
    assert mine(prefix, sorted(backend.stale_lessons())) == sorted([first.id, other.id])
    assert backend.withdrawals()[other.id].id == withdrawal.id
    # As of a time before the edit and the withdrawal, the course was the first versions.
    assert mine(prefix, [lesson.id for lesson in backend.current_lessons(EARLIER)]) == [first.id, other.id]
    assert other.id not in backend.withdrawals(T)
    # Reinstated, the lesson is current again, and the stamp moves once more.
    again = withdrawal.model_copy(
        update={"id": prefix + "r", "verdict": "reinstate", "decided_at": "2026-02-01T00:00:09.000000Z"}
    )
    stamp = backend.graph_stamp()
    assert backend.apply(batch(prefix, "reinstate", again)).status == "applied"
    assert backend.graph_stamp() != stamp and other.id not in backend.withdrawals()
    assert mine(prefix, [lesson.id for lesson in backend.current_lessons()]) == [other.id, second.id]
