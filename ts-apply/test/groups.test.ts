// Fewer round trips: several batches per request (POST /v1/groups) in one env.DB.batch, and the
// client's hint of the audit chain's head, which the Worker never trusts.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { inWriteOrder, MAX_RUN_CHARS, type Operation, SELF_REFERENCING } from "../src/apply";
import { MAX_GROUP, MAX_GROUP_OPS } from "../src/writes";
import { auditBatch, callWith, chainBreak, freshDatabase, post, postRequest, tableRows } from "./helpers";

const T = "2026-01-01T00:00:00.000000Z";

/** The Worker's D1, counting the round trips it is asked for (env.DB.batch, first, all, run) and
 * the statements of each env.DB.batch. */
function countingDatabase(): { db: D1Database; trips: () => number; statements: number[] } {
  let trips = 0;
  const statements: number[] = [];
  const real = new WeakMap<object, D1PreparedStatement>();
  const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...values: unknown[]) => counted(target.bind(...values));
        if (property === "first" || property === "all" || property === "run") trips++;
        const value: unknown = Reflect.get(target, property);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    real.set(proxy, statement);
    return proxy;
  };
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => counted(target.prepare(sql));
      if (property === "batch") {
        return async (sent: D1PreparedStatement[]) => {
          trips++;
          statements.push(sent.length);
          return target.batch(sent.map((statement) => real.get(statement) ?? statement));
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db, trips: () => trips, statements };
}

function withHint(path: string, body: unknown, hint: string): Request<unknown, IncomingRequestCfProperties> {
  const request = postRequest(path, body);
  request.headers.set("Magg-Audit-Head", hint);
  return request;
}

async function headHint(): Promise<string> {
  const answer = await (await post("/v1/batches", auditBatch(0))).json<{ audit_head: { seq: number; hash: string } }>();
  expect(answer.audit_head.seq).toBe(2);
  return `${answer.audit_head.seq}:${answer.audit_head.hash}`;
}

beforeEach(freshDatabase);

describe("groups of batches", () => {
  it("applies a group in one round trip when the client knows the chain's head", async () => {
    const hint = await headHint();
    const counting = countingDatabase();
    const group = [1, 2, 3, 4, 5].map((n) => auditBatch(n));
    const response = await callWith(withHint("/v1/groups", group, hint), { DB: counting.db });
    const answer = await response.json<{ results: { status: string; batch_id: string }[]; audit_head: { seq: number } }>();
    expect(response.status).toBe(200);
    expect(answer.results.map((r) => [r.batch_id, r.status])).toEqual(group.map((b) => [b.batch_id, "applied"]));
    expect(answer.audit_head.seq).toBe(12);
    expect(counting.trips()).toBe(1);
    expect(await tableRows("batches")).toHaveLength(6);
    expect(await chainBreak()).toBeNull();
  });

  it("writes a batch without audit events in one round trip, and no hint is needed", async () => {
    const counting = countingDatabase();
    const batch = { batch_id: "plain", sent_at: T, ops: [{ op: "add_concept", id: "p", name: "P", type: "t", recorded_at: T }] };
    const response = await callWith(postRequest("/v1/batches", batch), { DB: counting.db });
    expect(await response.json()).toEqual({ status: "applied", batch_id: "plain" });
    expect(counting.trips()).toBe(1);
  });

  it("costs a read for a stale or forged hint, and the chain stays whole", async () => {
    await headHint();
    for (const [n, hint] of [[1, `1:${"a".repeat(64)}`], [2, `2:${"b".repeat(64)}`], [3, "0:"]] as const) {
      const counting = countingDatabase();
      const response = await callWith(withHint("/v1/batches", auditBatch(n), hint), { DB: counting.db });
      expect(await response.json()).toMatchObject({ status: "applied", audit_head: { seq: 2 + 2 * n } });
      expect(counting.trips()).toBe(3); // the refused write, the read, the write
    }
    expect(await tableRows("audit_log")).toHaveLength(8);
    expect(await chainBreak()).toBeNull();
  });

  it("answers each batch of a group on its own when one is a duplicate or refused, in order", async () => {
    await post("/v1/batches", auditBatch(1));
    const bad = { batch_id: "bad", sent_at: T, ops: [{ op: "add_alias", alias: "x", concept_id: "nowhere", recorded_at: T }] };
    const response = await post("/v1/groups", [auditBatch(1), auditBatch(2), bad, auditBatch(3)]);
    const answer = await response.json<{ results: Record<string, unknown>[] }>();
    expect(response.status).toBe(200);
    expect(answer.results.map((r) => r.status)).toEqual(["duplicate", "applied", "refused", "applied"]);
    expect(answer.results[2]).toMatchObject({ code: "constraint", batch_id: "bad" });
    expect(String(answer.results[2]!.reason)).toContain("FOREIGN KEY");
    expect((await tableRows("batches")).map((row) => row.batch_id)).toEqual(["parallel-1", "parallel-2", "parallel-3"]);
    expect(await tableRows("concept_aliases")).toEqual([]);
    expect(await chainBreak()).toBeNull();
  });

  it("refuses a malformed hint, an empty or oversized group, and names the bad batch's field", async () => {
    const hinted = await callWith(withHint("/v1/batches", auditBatch(1), "12:abc"), {});
    expect(hinted.status).toBe(400);
    expect(await hinted.json()).toMatchObject({ code: "invalid", field: "Magg-Audit-Head" });
    for (const body of [[], Array(MAX_GROUP + 1).fill(auditBatch(1)), auditBatch(1)]) {
      const response = await post("/v1/groups", body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: "invalid", field: "batches" });
    }
    const ops = Array.from({ length: MAX_GROUP_OPS / 2 + 1 }, (_, i) => ({ op: "add_concept", id: `k${i}`, name: "K", type: "t", recorded_at: T }));
    const tooMany = await post("/v1/groups", [{ batch_id: "x", sent_at: T, ops }, { batch_id: "y", sent_at: T, ops }]);
    expect(await tooMany.json()).toMatchObject({ code: "invalid", field: "batches" });
    const broken = await post("/v1/groups", [auditBatch(1), { ...auditBatch(2), sent_at: "yesterday" }]);
    expect(await broken.json()).toMatchObject({ code: "invalid", field: "1.sent_at" });
    expect(await tableRows("batches")).toEqual([]);
  });
});

describe("consecutive operations of one type", () => {
  const concept = (id: string, name = id) => ({ op: "add_concept", id, name, type: "t", recorded_at: T });

  it("share one INSERT that reads them from one JSON array, with the effect of one INSERT each", async () => {
    const counting = countingDatabase();
    const ops = [...Array.from({ length: 44 }, (_, i) => concept(`k${String(i).padStart(2, "0")}`)), concept("k00", "again")];
    const response = await callWith(postRequest("/v1/batches", { batch_id: "run", sent_at: T, ops }), { DB: counting.db });
    expect(await response.json()).toMatchObject({ status: "applied" });
    expect(counting.statements).toEqual([2]); // the batch's head row, then the 45 concepts
    const rows = await tableRows("concepts");
    expect(rows.map((row) => row.id)).toEqual(ops.slice(0, 44).map((op) => op.id));
    expect(rows[0]).toMatchObject({ id: "k00", name: "k00" }); // the first wins, as one by one
  });

  it("keep each INSERT's JSON within MAX_RUN_CHARS, and every value as one row binds it", async () => {
    const counting = countingDatabase();
    const long = "é\"\n".repeat(Math.floor(MAX_RUN_CHARS / 15)); // a third of the bound as JSON (5 characters each)
    const decision = (id: string, score: number | null, rationale: string) => ({
      op: "record_decision", id, proposal_id: null, stage: "s", verdict: "v", state_after: "proposed", score,
      rationale, detail: { nested: [1, "two"] }, policy_version: "p", prompt_version: "q", model: "m", decided_at: T,
    });
    const ops = [decision("d1", 0.1, long), decision("d2", 1, long), decision("d3", null, long), decision("d4", 0.25, "x")];
    const response = await callWith(postRequest("/v1/batches", { batch_id: "long", sent_at: T, ops }), { DB: counting.db });
    expect(await response.json()).toMatchObject({ status: "applied" });
    expect(counting.statements).toEqual([3]); // the head row, d1 and d2, then d3 and d4
    const rows = await tableRows("decisions");
    expect(rows.map((row) => [row.id, row.score, row.rationale === long, row.detail])).toEqual([
      ["d1", 0.1, true, '{"nested":[1,"two"]}'],
      ["d2", 1, true, '{"nested":[1,"two"]}'],
      ["d3", null, true, '{"nested":[1,"two"]}'],
      ["d4", 0.25, false, '{"nested":[1,"two"]}'],
    ]);
  });

  it("come together in the protocol's write order, with the effect of the batch's order", async () => {
    // As ingestion writes them: a concept and its alias, a decision and its audit event, by turns.
    const counting = countingDatabase();
    const event = (id: string) => ({ op: "append_audit", event_id: id, kind: "k", subject: id, payload: "{}", recorded_at: T });
    const decision = (id: string) => ({
      op: "record_decision", id, proposal_id: null, stage: "s", verdict: "v", state_after: "proposed", score: 0.5,
      rationale: "r", detail: {}, policy_version: "p", prompt_version: "q", model: "m", decided_at: T,
    });
    const ops = ["a", "b", "c"].flatMap((id) => [
      concept(id), { op: "add_alias", alias: `${id}-alias`, concept_id: id, recorded_at: T }, decision(`d-${id}`), event(`e-${id}`),
    ]);
    const response = await callWith(postRequest("/v1/batches", { batch_id: "turns", sent_at: T, ops }), { DB: counting.db });
    expect(await response.json()).toMatchObject({ status: "applied" });
    // The read of the batch id and of the chain's head; then the head row, concepts, aliases, decisions, events.
    expect(counting.statements).toEqual([2, 5]);
    expect((await tableRows("concept_aliases")).map((row) => [row.alias, row.concept_id])).toEqual([
      ["a-alias", "a"], ["b-alias", "b"], ["c-alias", "c"],
    ]);
    expect((await tableRows("decisions")).map((row) => [row.seq, row.id])).toEqual([[1, "d-a"], [2, "d-b"], [3, "d-c"]]);
    expect((await tableRows("audit_log")).map((row) => row.event_id)).toEqual(["e-a", "e-b", "e-c"]);
    expect(await chainBreak()).toBeNull();
    expect(inWriteOrder(ops as Operation[]).map((op) => op.op)).toEqual([
      ...Array(3).fill("add_concept"), ...Array(3).fill("add_alias"), ...Array(3).fill("record_decision"), ...Array(3).fill("append_audit"),
    ]);
  });

  it("refuse the batch for one bad row, and write nothing", async () => {
    const aliases = ["a", "b", "c", "d"].map((alias) => ({ op: "add_alias", alias, concept_id: alias === "c" ? "nowhere" : "k", recorded_at: T }));
    const response = await post("/v1/batches", { batch_id: "bad-run", sent_at: T, ops: [concept("k"), ...aliases] });
    expect(await response.json()).toMatchObject({ status: "refused", code: "constraint", reason: "FOREIGN KEY constraint failed" });
    expect(await tableRows("concepts")).toEqual([]);
    expect(await tableRows("concept_aliases")).toEqual([]);
  });

  it("stay one INSERT each in a table whose rows refer to its own rows, as the migrations say", async () => {
    const tables = env.TEST_MIGRATIONS.flatMap((migration) => migration.queries).flatMap((query) => {
      const table = /CREATE TABLE (\w+) \(/.exec(query)?.[1];
      return table ? [[table, query] as const] : [];
    });
    expect(tables.length).toBeGreaterThan(10);
    const selfReferencing = tables.filter(([table, query]) => query.includes(`REFERENCES ${table}(`)).map(([table]) => table);
    expect(new Set(selfReferencing)).toEqual(SELF_REFERENCING);
    const lesson = (id: string, supersedes: string | null) => ({
      op: "add_lesson", id, lesson_key: "k", title: "T", sha256: id.repeat(64).slice(0, 64), source_path: "p",
      text: "x", supersedes, ingested_at: T,
    });
    // The first refers to the second, written after it: refused, as SQLite refuses it one by one.
    const response = await post("/v1/batches", { batch_id: "lessons", sent_at: T, ops: [lesson("a", "b"), lesson("b", null)] });
    expect(await response.json()).toMatchObject({ status: "refused", reason: "FOREIGN KEY constraint failed" });
  });
});
