"""Writes the shared write-protocol test vectors (``tests/vectors/*.json``).

Each vector is a batch in and the rows out: ``setup`` batches are applied first, then ``batch``,
and ``expect`` gives the outcome (status, code, a piece of the reason or the bad field) and the
COMPLETE contents of every table afterwards, in insertion order. JSON-text columns (evidence,
card, detail) are written as parsed JSON. Both appliers run every vector: ``tests/test_vectors.py``
(Python, SQLite) and ``ts-apply/test/vectors.test.ts`` (the Worker, D1).

The expected rows come from applying the vector with :class:`SQLiteStore`; the generator first
checks what each vector is about (statuses, reasons, closed versions, audit hashes) on its own, so
a change of behaviour fails here instead of being written into the vectors. Regenerate with::

    .venv/bin/python tests/vectors/make_vectors.py
"""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

from magg_kg.audit import chain_hash
from magg_kg.operations import (
    AddAlias,
    AddChunk,
    AddConcept,
    AddLesson,
    AddProposal,
    AppendAudit,
    AssignDomain,
    Batch,
    CommitEdge,
    EnqueueReview,
    ExpectActive,
    ExpectState,
    ExpectUnclaimed,
    InvalidateEdge,
    LinkLessonConcept,
    Operation,
    PutCache,
    RecordDecision,
    RecordUsage,
    SetDomain,
    SpanData,
    UnassignDomain,
)
from magg_kg.records import edge_id
from magg_kg.sqlite import SQLiteStore

HERE = Path(__file__).parent

TABLES = (
    "batches",
    "lessons",
    "chunks",
    "concepts",
    "concept_aliases",
    "lesson_concepts",
    "domains",
    "concept_domains",
    "proposals",
    "decisions",
    "concept_edges",
    "edge_invalidations",
    "review_queue",
    "audit_log",
    "llm_usage",
    "llm_cache",
)
JSON_COLUMNS = {
    "lesson_concepts": ("evidence",),
    "domains": ("card",),
    "proposals": ("evidence",),
    "decisions": ("detail",),
    "concept_edges": ("evidence",),
}

TEXT = "A derivative measures change. Gradient descent uses the derivative to step downhill."
LESSON_SHA = "5" * 64


def t(second: int) -> str:
    return f"2026-01-01T00:{second // 60:02d}:{second % 60:02d}.000000Z"


def span(quote: str, kind: str = "explicit") -> SpanData:
    start = TEXT.index(quote)
    return SpanData(
        lesson_id="lesson-1",
        chunk_id="lesson-1#0",
        start=start,
        end=start + len(quote),
        quote=quote,
        kind=kind,
    )  # type: ignore[arg-type]


def batch(batch_id: str, second: int, *ops: Operation) -> Batch:
    return Batch.of(batch_id, t(second), list(ops))


def lesson() -> list[Operation]:
    return [
        AddLesson(
            id="lesson-1",
            lesson_key="calculus",
            title="Derivatives",
            sha256=LESSON_SHA,
            source_path="curriculum/02.md",
            text=TEXT,
            ingested_at=t(1),
        ),
        AddChunk(id="lesson-1#0", lesson_id="lesson-1", ordinal=0, start=0, end=len(TEXT), heading="Intro"),
    ]


def concepts(second: int = 2) -> list[Operation]:
    return [
        AddConcept(id="derivative", name="Derivative", type="math", recorded_at=t(second)),
        AddConcept(
            id="gradient-descent",
            name="Gradient descent",
            type="optimization",
            description="Step against the gradient.",
            recorded_at=t(second),
        ),
    ]


def decision(
    decision_id: str, second: int, state: str = "committed", proposal_id: str | None = "prop-1"
) -> RecordDecision:
    return RecordDecision(
        id=decision_id,
        proposal_id=proposal_id,
        stage="judge",
        verdict="accept",
        state_after=state,  # type: ignore[arg-type]
        score=0.9,
        rationale="The lesson states it.",
        detail={"votes": [{"agent": "a", "score": 0.9}]},
        policy_version="policy-1",
        prompt_version="judge-1",
        model="offline",
        decided_at=t(second),
    )


def proposal(second: int = 3) -> AddProposal:
    return AddProposal(
        id="prop-1",
        src="derivative",
        type="prerequisite",
        dst="gradient-descent",
        confidence=0.85,
        evidence=[span("Gradient descent uses the derivative")],
        origin="ingest",
        lesson_id="lesson-1",
        rationale="uses",
        created_at=t(second),
    )


def commit(
    version_id: str,
    second: int,
    decision_id: str = "dec-1",
    src: str = "derivative",
    dst: str = "gradient-descent",
    type_: str = "prerequisite",
) -> CommitEdge:
    return CommitEdge(
        version_id=version_id,
        edge_id=edge_id(src, type_, dst),
        src=src,
        type=type_,
        dst=dst,
        confidence=0.9,
        reason="Gradient descent uses the derivative.",
        source="lesson-1",
        evidence=[span("Gradient descent uses the derivative")],
        valid_at=t(second),
        recorded_at=t(second),
        decision_id=decision_id,
        policy_version="policy-1",
        prompt_version="judge-1",
        model="offline",
    )


def graph_setup() -> list[Batch]:
    """A lesson, two concepts, a proposal and its committing decision."""
    return [batch("setup-graph", 4, *lesson(), *concepts(), proposal(), decision("dec-1", 4))]


def rows(store: SQLiteStore) -> dict[str, list[dict[str, Any]]]:
    db: sqlite3.Connection = store._db
    out: dict[str, list[dict[str, Any]]] = {}
    for table in TABLES:
        found = [dict(row) for row in db.execute(f"SELECT * FROM {table} ORDER BY rowid")]
        for row in found:
            for column in JSON_COLUMNS.get(table, ()):
                row[column] = json.loads(row[column])
        out[table] = found
    return out


def vector(
    name: str, description: str, setup: list[Batch], last: Batch | dict[str, Any], **expect: Any
) -> dict[str, Any]:
    store = SQLiteStore.open(":memory:")
    for earlier in setup:
        assert store.apply(earlier).status == "applied", (name, earlier.batch_id)
    if isinstance(last, Batch):
        result = store.apply(last)
        assert result.status == expect["status"], (name, result)
        assert result.code == expect.get("code", ""), (name, result)
        assert expect.get("reason_contains", "") in result.reason, (name, result)
        body = last.model_dump(mode="json")
    else:
        body = last
    expect["rows"] = rows(store)
    store.close()
    return {
        "name": name,
        "description": description,
        "setup": [earlier.model_dump(mode="json") for earlier in setup],
        "batch": body,
        "expect": expect,
    }


def broken(valid: Batch, change: dict[str, Any], drop: str | None = None) -> dict[str, Any]:
    """The JSON of ``valid`` with its first operation changed (for validation vectors)."""
    body = copy.deepcopy(valid.model_dump(mode="json"))
    body["ops"][0].update(change)
    if drop:
        del body["ops"][0][drop]
    return body


def vectors() -> list[dict[str, Any]]:
    audit = [
        AppendAudit(
            event_id=f"ev-{i}",
            kind="batch",
            subject=f"s{i}",
            payload=json.dumps({"i": i}),
            recorded_at=t(10 + i),
        )
        for i in range(4)
    ]
    usage = RecordUsage(
        id="use-1",
        stage="judge",
        agent="judge",
        domain="math",
        model="deepseek-chat",
        prompt_tokens=120,
        completion_tokens=30,
        latency_ms=812.5,
        attempts=1,
        outcome="ok",
        cache_hit=True,
        recorded_at=t(20),
    )
    cache = PutCache(
        key="k" * 64,
        model="deepseek-chat",
        response='{"verdict":"accept"}',
        prompt_tokens=120,
        completion_tokens=30,
        recorded_at=t(20),
    )
    edge_batch = batch("b-commit", 5, commit("ver-1", 5))
    invalidated = batch(
        "b-invalidate",
        6,
        decision("dec-2", 6, "invalidated"),
        InvalidateEdge(
            version_id="ver-1", decision_id="dec-2", invalid_at=t(6), expired_at=t(6), reason="superseded"
        ),
    )
    concept_batch = batch(
        "b-concepts",
        2,
        *concepts(),
        AddConcept(id="derivative", name="Ignored", type="math", recorded_at=t(3)),
        AddAlias(alias="derivatives", concept_id="derivative", recorded_at=t(2)),
        AddAlias(alias="derivatives", concept_id="gradient-descent", recorded_at=t(3)),
    )
    return [
        vector(
            "add_lesson_and_chunk",
            "A lesson version and its chunk.",
            [],
            batch("b-lesson", 1, *lesson()),
            status="applied",
        ),
        vector(
            "add_concept_and_alias",
            "Concepts and aliases; re-adding an existing id or alias changes nothing (first wins).",
            [],
            concept_batch,
            status="applied",
        ),
        vector(
            "link_lesson_concept",
            "A lesson teaches a concept, with evidence (stored as canonical JSON).",
            [batch("setup", 2, *lesson(), *concepts())],
            batch(
                "b-link",
                3,
                LinkLessonConcept(
                    lesson_id="lesson-1",
                    concept_id="derivative",
                    role="teaches",
                    evidence=[span("A derivative")],
                    recorded_at=t(3),
                ),
            ),
            status="applied",
        ),
        vector(
            "set_domain_twice",
            "A second version of a domain closes the first (expired_at).",
            [
                batch(
                    "setup",
                    2,
                    SetDomain(
                        id="math",
                        version=1,
                        name="Math",
                        owner="agent-math",
                        card={"scope": "calculus"},
                        recorded_at=t(2),
                    ),
                )
            ],
            batch(
                "b-domain",
                3,
                SetDomain(
                    id="math",
                    version=2,
                    name="Mathematics",
                    owner="agent-math",
                    card={"scope": "calculus and algebra", "ü": [1, 2.5]},
                    recorded_at=t(3),
                ),
            ),
            status="applied",
        ),
        vector(
            "assign_and_unassign_domain",
            "Ownership is closed, never deleted; a new row reassigns it.",
            [
                batch(
                    "setup",
                    2,
                    *concepts(),
                    AssignDomain(concept_id="derivative", domain_id="math", recorded_at=t(2)),
                )
            ],
            batch(
                "b-assign",
                3,
                UnassignDomain(concept_id="derivative", domain_id="math", expired_at=t(3)),
                AssignDomain(concept_id="derivative", domain_id="calculus", recorded_at=t(3)),
            ),
            status="applied",
        ),
        vector(
            "proposal_decision_review",
            "A proposal, a quarantining decision and its review item.",
            [batch("setup", 2, *lesson(), *concepts())],
            batch(
                "b-proposal",
                3,
                proposal(),
                decision("dec-q", 3, "quarantined"),
                EnqueueReview(id="rev-1", proposal_id="prop-1", reason="judges split", enqueued_at=t(3)),
            ),
            status="applied",
        ),
        vector(
            "commit_edge",
            "An active edge version with its full grounding record.",
            graph_setup(),
            edge_batch,
            status="applied",
        ),
        vector(
            "invalidate_edge",
            "Invalidation closes the version (status, invalid_at, expired_at, "
            "invalidated_by) and records the closing.",
            [*graph_setup(), edge_batch],
            invalidated,
            status="applied",
        ),
        vector(
            "audit_append_three",
            "Three events extend a chain of one; the applier computes seq, prev_hash and hash.",
            [batch("setup", 10, audit[0])],
            batch("b-audit", 13, *audit[1:]),
            status="applied",
        ),
        vector(
            "usage_and_cache",
            "LLM usage (a boolean stored as 0/1) and a cache entry written twice (first wins).",
            [],
            batch("b-usage", 20, usage, cache, cache.model_copy(update={"response": "other"})),
            status="applied",
        ),
        vector(
            "sql_text_stored_verbatim",
            "SQL in a string field is data: stored as given.",
            [],
            batch(
                "b-sql",
                2,
                AddConcept(
                    id="x'); DROP TABLE concepts; --",
                    name="Robert'); DELETE FROM audit_log; --",
                    type="math",
                    description='"; SELECT 1; --',
                    recorded_at=t(2),
                ),
            ),
            status="applied",
        ),
        vector(
            "retried_batch_is_duplicate",
            "The same batch again (same id, same digest) changes nothing.",
            [concept_batch],
            concept_batch,
            status="duplicate",
        ),
        vector(
            "same_id_other_digest_conflict",
            "The same batch id with other content is refused.",
            [concept_batch],
            batch("b-concepts", 2, AddConcept(id="other", name="Other", type="math", recorded_at=t(2))),
            status="refused",
            code="conflict",
            reason_contains="different content",
        ),
        vector(
            "expected_state_holds",
            "Preconditions that hold (the proposal is quarantined, as read; two, so that D1 checks "
            "them in one INSERT of several rows) write no row of their own; the decision is written.",
            [
                batch("setup", 2, *lesson(), *concepts()),
                batch("b-q", 3, proposal(), decision("dec-q", 3, "quarantined")),
            ],
            batch(
                "b-decide",
                4,
                ExpectState(proposal_id="prop-1", state="quarantined"),
                ExpectState(proposal_id="prop-1", state="quarantined"),
                decision("dec-c", 4, "committed"),
            ),
            status="applied",
        ),
        vector(
            "settled_since_read_refused",
            "A precondition that no longer holds (the proposal was read quarantined, another writer "
            "rejected it since), after one that holds, refuses the batch as settled; nothing of it "
            "is written.",
            [
                batch("setup", 2, *lesson(), *concepts()),
                batch("b-q", 3, proposal(), decision("dec-q", 3, "quarantined")),
                batch("b-other", 4, decision("dec-r", 4, "rejected")),
            ],
            batch(
                "b-late",
                5,
                ExpectState(proposal_id="prop-1", state="rejected"),
                ExpectState(proposal_id="prop-1", state="quarantined"),
                decision("dec-c", 5, "committed"),
            ),
            status="refused",
            code="constraint",
            reason_contains="settled:",
        ),
        vector(
            "claimed_pair_refused",
            "A new proposal whose pair another writer proposed since it was read (the other way "
            "round, of another type) is refused as settled; nothing of its batch is written.",
            [batch("setup", 2, *lesson(), *concepts()), batch("b-first", 3, proposal())],
            batch(
                "b-late",
                4,
                ExpectUnclaimed(src="gradient-descent", dst="derivative"),
                proposal(4).model_copy(update={"id": "prop-2", "type": "related"}),
            ),
            status="refused",
            code="constraint",
            reason_contains="settled:",
        ),
        vector(
            "active_version_holds",
            "A re-check's batch that expects the edge version still active (twice, so that D1 checks "
            "both in one INSERT of several rows) closes it: the precondition writes no row.",
            [*graph_setup(), edge_batch],
            batch("b-recheck", 6, *[ExpectActive(version_id="ver-1")] * 2, *invalidated.ops),
            status="applied",
        ),
        vector(
            "closed_version_refused",
            "A re-check's keep judged while the edge version was active, sent after another writer "
            "closed it, is refused as settled; nothing of its batch is written.",
            [*graph_setup(), edge_batch, invalidated],
            batch(
                "b-late",
                7,
                ExpectActive(version_id="ver-1"),
                decision("dec-3", 7, "committed", proposal_id=None),
            ),
            status="refused",
            code="constraint",
            reason_contains="settled:",
        ),
        vector(
            "second_active_version_refused",
            "A second active version of (src, type, dst) is refused, and nothing of its batch is "
            "written: not the concept, alias, audit event or decision before the failing operation.",
            [*graph_setup(), edge_batch],
            batch(
                "b-second",
                7,
                AddConcept(id="chain-rule", name="Chain rule", type="math", recorded_at=t(7)),
                AddAlias(alias="chain rule", concept_id="chain-rule", recorded_at=t(7)),
                audit[0],
                decision("dec-3", 7),
                commit("ver-2", 7, "dec-3"),
            ),
            status="refused",
            code="constraint",
            reason_contains=(
                "UNIQUE constraint failed: concept_edges.src, concept_edges.type, concept_edges.dst"
            ),
        ),
        vector(
            "invalidate_non_active_version",
            "An invalidated version cannot be invalidated again.",
            [*graph_setup(), edge_batch, invalidated],
            batch(
                "b-again",
                8,
                decision("dec-4", 8, "invalidated"),
                InvalidateEdge(
                    version_id="ver-1", decision_id="dec-4", invalid_at=t(8), expired_at=t(8), reason="again"
                ),
            ),
            status="refused",
            code="constraint",
            reason_contains="invalidate_edge: no active edge version with this version_id",
        ),
        vector(
            "closed_before_recorded_refused",
            "An edge version cannot be closed before it was recorded (schema 2): it would show as of "
            "no time at all.",
            [*graph_setup(), edge_batch],
            batch(
                "b-early",
                8,
                decision("dec-4", 8, "invalidated"),
                InvalidateEdge(
                    version_id="ver-1", decision_id="dec-4", invalid_at=t(4), expired_at=t(4), reason="early"
                ),
            ),
            status="refused",
            code="constraint",
            reason_contains="time order: an edge version cannot be closed before it was recorded",
        ),
        vector(
            "self_loop_refused",
            "An edge from a concept to itself fails the CHECK.",
            graph_setup(),
            batch("b-loop", 5, commit("ver-loop", 5, dst="derivative")),
            status="refused",
            code="constraint",
            reason_contains="CHECK constraint failed: src <> dst",
        ),
        vector(
            "unknown_edge_type_refused",
            "An edge type outside the closed vocabulary fails the CHECK.",
            graph_setup(),
            batch("b-type", 5, commit("ver-type", 5, type_="causes")),
            status="refused",
            code="constraint",
            reason_contains="CHECK constraint failed: type IN",
        ),
        vector(
            "unknown_concept_refused",
            "An edge to a concept that does not exist fails the FOREIGN KEY.",
            graph_setup(),
            batch("b-fk", 5, commit("ver-fk", 5, dst="no-such-concept")),
            status="refused",
            code="constraint",
            reason_contains="FOREIGN KEY constraint failed",
        ),
        vector(
            "invalid_missing_grounding_field",
            "A commit_edge without its grounding reason.",
            graph_setup(),
            broken(edge_batch, {}, drop="reason"),
            status="refused",
            code="invalid",
            field="ops.0.reason",
        ),
        vector(
            "invalid_empty_evidence",
            "A commit_edge whose evidence list is empty.",
            graph_setup(),
            broken(edge_batch, {"evidence": []}),
            status="refused",
            code="invalid",
            field="ops.0.evidence",
        ),
        vector(
            "invalid_unknown_op",
            "An operation type the protocol does not have.",
            [],
            broken(concept_batch, {"op": "drop_table"}),
            status="refused",
            code="invalid",
            field="ops.0.op",
        ),
        vector(
            "invalid_string_for_a_number",
            'A number sent as text ("0.9") is refused, not read as a number: both appliers validate '
            "the same types.",
            graph_setup(),
            broken(edge_batch, {"confidence": "0.9"}),
            status="refused",
            code="invalid",
            field="ops.0.confidence",
        ),
        vector(
            "invalid_bad_timestamp",
            "A time stamp that is not UTC with microseconds.",
            [],
            broken(concept_batch, {"recorded_at": "2026-01-01 00:00:00"}),
            status="refused",
            code="invalid",
            field="ops.0.recorded_at",
        ),
    ]


def check(found: list[dict[str, Any]]) -> None:
    """What each vector is about, checked independently of the rows the store produced."""
    by_name = {item["name"]: item for item in found}
    domains = by_name["set_domain_twice"]["expect"]["rows"]["domains"]
    assert [(row["version"], row["expired_at"]) for row in domains] == [(1, t(3)), (2, None)]
    edges = by_name["invalidate_edge"]["expect"]["rows"]["concept_edges"]
    assert [(row["status"], row["expired_at"], row["invalidated_by"]) for row in edges] == [
        ("invalidated", t(6), "dec-2")
    ]
    events = by_name["audit_append_three"]["expect"]["rows"]["audit_log"]
    prev = ""
    for seq, event in enumerate(events, start=1):
        expected = chain_hash(
            prev,
            seq,
            event["event_id"],
            event["kind"],
            event["subject"],
            event["payload"],
            event["recorded_at"],
        )
        assert (event["seq"], event["prev_hash"], event["hash"]) == (seq, prev, expected)
        prev = expected
    assert len(events) == 4
    holds = by_name["active_version_holds"]["expect"]["rows"]
    assert [row["status"] for row in holds["concept_edges"]] == ["invalidated"]
    late = by_name["closed_version_refused"]["expect"]["rows"]
    assert [row["id"] for row in late["decisions"]] == ["dec-1", "dec-2"]
    assert [row["batch_id"] for row in late["batches"]] == ["setup-graph", "b-commit", "b-invalidate"]
    refused = by_name["second_active_version_refused"]["expect"]["rows"]
    assert [row["id"] for row in refused["concepts"]] == ["derivative", "gradient-descent"]
    assert refused["audit_log"] == [] and len(refused["concept_edges"]) == 1
    assert [row["batch_id"] for row in refused["batches"]] == ["setup-graph", "b-commit"]


def main() -> None:
    found = vectors()
    check(found)
    for old in HERE.glob("*.json"):
        old.unlink()
    for item in found:
        text = json.dumps(item, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
        (HERE / f"{item['name']}.json").write_text(text, encoding="utf-8")
    print(f"wrote {len(found)} vectors to {HERE}")


if __name__ == "__main__":
    main()
