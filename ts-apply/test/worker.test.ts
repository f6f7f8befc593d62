// Routes, auth, size bound, validation, idempotency and rollback of the Worker.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import schema from "../../magg_kg/protocol/batch.schema.json";
import { canonicalJson } from "../src/canonical";
import { MAX_BODY } from "../src/http";
import { KEYWORDS } from "../src/validate";
import commitEdge from "../../tests/vectors/commit_edge.json";
import secondVersion from "../../tests/vectors/second_active_version_refused.json";
import selfLoop from "../../tests/vectors/self_loop_refused.json";
import invalidateAgain from "../../tests/vectors/invalidate_non_active_version.json";
import sqlText from "../../tests/vectors/sql_text_stored_verbatim.json";
import * as entry from "../src/index";
import worker from "../src/index";
import { call, freshDatabase, post, tableRows } from "./helpers";

const IncomingRequest = Request<unknown, IncomingRequestCfProperties>;
const setup = commitEdge.setup[0]!;

async function body(response: Response): Promise<Record<string, unknown>> {
  return response.json<Record<string, unknown>>();
}

beforeEach(freshDatabase);

describe("health and auth", () => {
  it("answers health without a token", async () => {
    const response = await call(new IncomingRequest("http://worker/v1/health"));
    expect(response.status).toBe(200);
    expect(await body(response)).toEqual({ ok: true, schema_version: 4 });
  });

  it.each([
    ["missing", null],
    ["wrong", "not-the-token"],
    ["empty", ""],
    ["a prefix of the right one", "test-tok"],
  ])("refuses a %s token with 401 on every other route", async (_label, token) => {
    for (const path of ["/v1/batches", "/v1/query"]) {
      const response = await post(path, setup, token);
      expect(response.status).toBe(401);
      expect(await body(response)).toMatchObject({ status: "refused", code: "unauthorized" });
    }
    expect(await tableRows("batches")).toEqual([]);
  });

  it("refuses a non-Bearer scheme", async () => {
    const request = new IncomingRequest("http://worker/v1/batches", {
      method: "POST",
      headers: { authorization: "Basic test-token" },
      body: JSON.stringify(setup),
    });
    expect((await call(request)).status).toBe(401);
  });

  it("reads the Bearer scheme in any case, as magg serve does", async () => {
    const asked = (authorization: string) =>
      call(
        new IncomingRequest("http://worker/v1/query", {
          method: "POST",
          headers: { authorization },
          body: JSON.stringify({ name: "concepts" }),
        }),
      );
    for (const header of ["bearer test-token", "BEARER test-token", "  Bearer   test-token "]) {
      expect((await asked(header)).status).toBe(200);
    }
    for (const header of ["bearer test-token extra", "bearertest-token", "Bearer  "]) {
      expect((await asked(header)).status).toBe(401);
    }
  });

  it("answers a Worker without its secret, and any unexpected error, with a JSON 500", async () => {
    const request = () =>
      new IncomingRequest("http://worker/v1/query", {
        method: "POST",
        headers: { authorization: "Bearer " },
        body: JSON.stringify({ name: "concepts" }),
      });
    const unset = await worker.fetch(request(), { ...env, MAGG_D1_TOKEN: "" });
    expect(unset.status).toBe(500);
    expect(await body(unset)).toMatchObject({ status: "error", code: "misconfigured" });
    const broken = { ...env, DB: { prepare: () => { throw new Error("disk on fire"); } } } as unknown as Env;
    const failed = await worker.fetch(new IncomingRequest("http://worker/v1/health"), broken);
    expect(failed.status).toBe(500);
    const answer = await body(failed);
    expect(answer).toMatchObject({ status: "error", code: "internal" });
    expect(answer.reason).not.toContain("disk on fire");
  });

  it("answers unknown routes with a JSON 404", async () => {
    const response = await post("/v1/sql", { sql: "SELECT 1" });
    expect(response.status).toBe(404);
    expect(await body(response)).toMatchObject({ code: "not_found" });
  });
});

describe("bad input", () => {
  it("refuses a 20 MB body with 413 and writes nothing", async () => {
    const big = { ...setup, ops: [{ ...setup.ops[0], text: "x".repeat(20 * 1024 * 1024) }] };
    const response = await post("/v1/batches", big);
    expect(response.status).toBe(413);
    expect(await body(response)).toMatchObject({ code: "too_large" });
    expect(await tableRows("lessons")).toEqual([]);
  });

  it("counts the bytes actually sent, not Content-Length", async () => {
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 9; i++) controller.enqueue(new Uint8Array(1024 * 1024).fill(32));
        controller.close();
      },
    });
    const request = new IncomingRequest("http://worker/v1/batches", {
      method: "POST",
      headers: { authorization: "Bearer test-token" },
      body: stream,
    });
    expect(9 * 1024 * 1024).toBeGreaterThan(MAX_BODY);
    expect((await call(request)).status).toBe(413);
  });

  it.each(["{not json", "", "[1, 2", "\u0000"])("refuses invalid JSON %j with 400", async (text) => {
    const response = await post("/v1/batches", text);
    expect(response.status).toBe(400);
    expect(await body(response)).toMatchObject({ status: "refused", code: "bad_json" });
  });

  it("refuses a body that is not UTF-8 with 400", async () => {
    const request = new IncomingRequest("http://worker/v1/batches", {
      method: "POST",
      headers: { authorization: "Bearer test-token" },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    const response = await call(request);
    expect(response.status).toBe(400);
    expect(await body(response)).toMatchObject({ code: "bad_json" });
  });

  it("refuses a string that escapes a lone surrogate: it is no text, and would break the audit hash", async () => {
    const text = JSON.stringify({ ...setup, batch_id: "lone" });
    const lone = await post("/v1/batches", text.replace('"lone"', '"lone\\ud800"'));
    expect(lone.status).toBe(400);
    expect(await body(lone)).toMatchObject({ status: "refused", code: "bad_json" });
    expect(await tableRows("batches")).toEqual([]);
    const paired = await post("/v1/batches", text.replace('"lone"', '"pair\\ud83d\\ude00"'));
    expect(paired.status).toBe(200);
  });

  it("names the field of an unknown operation type", async () => {
    const bad = { ...setup, ops: [{ op: "drop_table", table: "concepts" }] };
    const response = await post("/v1/batches", bad);
    expect(response.status).toBe(400);
    const answer = await body(response);
    expect(answer).toMatchObject({ status: "refused", code: "invalid", field: "ops.0.op" });
    expect(answer.reason).toContain("drop_table");
  });

  it("names an unknown field and a non-object body", async () => {
    const extra = { ...setup, ops: [{ ...setup.ops[2], sql: "DROP TABLE concepts" }] };
    expect(await body(await post("/v1/batches", extra))).toMatchObject({ code: "invalid", field: "ops.0.sql" });
    expect(await body(await post("/v1/batches", [setup]))).toMatchObject({ code: "invalid", field: "batch" });
    const noOps = { ...setup, ops: [] };
    expect(await body(await post("/v1/batches", noOps))).toMatchObject({ code: "invalid", field: "ops" });
  });

  it("stores SQL text in a string field verbatim", async () => {
    expect((await post("/v1/batches", sqlText.batch)).status).toBe(200);
    const [row] = await tableRows("concepts");
    expect(row).toMatchObject({ id: "x'); DROP TABLE concepts; --", description: "\"; SELECT 1; --" });
    expect(await tableRows("audit_log")).toEqual([]);
  });
});

describe("idempotency and atomicity", () => {
  it("answers a replayed batch with duplicate and changes nothing", async () => {
    expect(await body(await post("/v1/batches", setup))).toMatchObject({ status: "applied" });
    const before = await tableRows("concepts");
    const again = await post("/v1/batches", setup);
    expect(again.status).toBe(200);
    expect(await body(again)).toEqual({ status: "duplicate", batch_id: "setup-graph" });
    expect(await tableRows("concepts")).toEqual(before);
    expect(await tableRows("batches")).toHaveLength(1);
  });

  it("rolls back every statement of a failing batch", async () => {
    for (const earlier of secondVersion.setup) await post("/v1/batches", earlier);
    const tables = ["batches", "concepts", "concept_aliases", "decisions", "concept_edges", "audit_log"];
    const before = await Promise.all(tables.map(tableRows));
    const response = await post("/v1/batches", secondVersion.batch);
    expect(response.status).toBe(409);
    expect(await Promise.all(tables.map(tableRows))).toEqual(before);
    // The same operations without the failing one apply: the refusal was the edge, nothing else.
    const fixed = { ...secondVersion.batch, batch_id: "b-fixed", ops: secondVersion.batch.ops.slice(0, -1) };
    expect(await body(await post("/v1/batches", fixed))).toMatchObject({ status: "applied" });
    expect(await tableRows("audit_log")).toHaveLength(1);
  });

  it("keeps the audit chain whole when batches arrive together", async () => {
    const event = (n: number) => ({
      op: "append_audit", event_id: `ev-${n}`, kind: "k", subject: "s", payload: "{}",
      recorded_at: "2026-01-01T00:00:00.000000Z",
    });
    const batches = [0, 1, 2, 3].map((n) => ({
      batch_id: `together-${n}`, sent_at: "2026-01-01T00:00:00.000000Z", digest: "0".repeat(64),
      ops: [event(2 * n), event(2 * n + 1)],
    }));
    const answers = await Promise.all(batches.map((b) => post("/v1/batches", b).then(body)));
    expect(answers.map((a) => a.status)).toEqual(["applied", "applied", "applied", "applied"]);
    const chain = await tableRows("audit_log");
    expect(chain.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    chain.slice(1).forEach((row, i) => expect(row.prev_hash).toBe(chain[i]!.hash));
  });

  it("gives the SQLite message without D1's decorations", async () => {
    for (const earlier of selfLoop.setup) await post("/v1/batches", earlier);
    expect(await body(await post("/v1/batches", selfLoop.batch))).toMatchObject({
      code: "constraint",
      reason: "CHECK constraint failed: src <> dst",
    });
    for (const earlier of invalidateAgain.setup.slice(1)) await post("/v1/batches", earlier);
    expect(await body(await post("/v1/batches", invalidateAgain.batch))).toMatchObject({
      code: "constraint",
      reason: "invalidate_edge: no active edge version with this version_id",
    });
  });
});

describe("named queries", () => {
  beforeEach(async () => {
    await post("/v1/batches", setup);
  });

  it("counts the calls made by stage apart from those the spend cap refused", async () => {
    // usage_by_stage counted a call the spend cap refused (outcome over_budget, no request) as a
    // call made: `magg usage` over D1 said 5 calls where 3 were made.
    const at = "2026-01-01T00:00:00.000000Z";
    const used = (n: number, outcome: string, tokens: number, attempts: number, latency: number) => ({
      op: "record_usage", id: `u${n}`, stage: "judge", agent: "judge", domain: "", model: "m",
      prompt_tokens: tokens, completion_tokens: tokens / 2, latency_ms: latency, attempts, outcome,
      cache_hit: outcome === "cached", recorded_at: at,
    });
    const ops = [
      used(1, "ok", 10, 1, 100), used(2, "cached", 10, 0, 0), used(3, "unavailable", 0, 3, 900),
      used(4, "over_budget", 0, 0, 1.5), used(5, "over_budget", 0, 0, 1.5),
    ];
    expect(await body(await post("/v1/batches", { batch_id: "usage", sent_at: at, ops }))).toMatchObject({
      status: "applied",
    });
    const answer = await body(await post("/v1/query", { name: "usage_by_stage" }));
    expect(answer).toEqual({
      rows: [{
        stage: "judge", calls: 3, capped: 2, cache_hits: 1, attempts: 4, prompt_tokens: 20,
        completion_tokens: 10, latency_ms: 1000,
      }],
      next_offset: null,
    });
  });

  it("pages through a query", async () => {
    const first = await body(await post("/v1/query", { name: "concepts", params: { as_of: null }, limit: 1 }));
    expect(first).toMatchObject({ rows: [{ id: "derivative" }], next_offset: 1 });
    const second = await body(await post("/v1/query", { name: "concepts", limit: 1, offset: 1 }));
    expect(second).toMatchObject({ rows: [{ id: "gradient-descent" }], next_offset: null });
  });

  it.each([
    [{ name: "recent_active_edges", params: { limit: 1.5 } }],
    [{ name: "recent_active_edges", params: { limit: "abc" } }],
    [{ name: "concepts_by_id", params: { ids: "not json" } }],
  ])("answers parameters SQLite cannot use with 400, not a 500 a client retries: %j", async (request) => {
    const response = await post("/v1/query", request);
    expect(response.status).toBe(400);
    expect(await body(response)).toMatchObject({ status: "refused", code: "invalid", field: "params" });
  });

  it("refuses a value larger than D1 holds as a refusal, not a 500 a client retries", async () => {
    const big = {
      batch_id: "too-big",
      sent_at: "2026-01-01T00:00:00.000000Z",
      ops: [
        {
          op: "put_cache",
          key: "k-big",
          model: "m",
          response: "a".repeat(3_000_000),
          prompt_tokens: 1,
          completion_tokens: 1,
          recorded_at: "2026-01-01T00:00:00.000000Z",
        },
      ],
    };
    const response = await post("/v1/batches", big);
    expect(response.status).toBe(409);
    const answer = await body(response);
    expect(answer).toMatchObject({ status: "refused", code: "constraint" });
    expect(String(answer.reason)).toContain("larger than D1");
  });

  it("pages a query that has its own LIMIT", async () => {
    const head = await body(await post("/v1/query", { name: "audit_head" }));
    expect(head).toEqual({ rows: [], next_offset: null });
  });

  it.each([
    [{ name: "SELECT * FROM concepts" }, "name"],
    [{ name: "concepts", params: { as_of: null, sql: "1" } }, "params.sql"],
    [{ name: "concepts", params: { as_of: [1] } }, "params.as_of"],
    [{ name: "concepts", limit: 1001 }, "limit"],
    [{ name: "concepts", offset: -1 }, "offset"],
    [{ name: "concepts", sql: "SELECT 1" }, "sql"],
  ])("refuses %j naming %s", async (request, field) => {
    const response = await post("/v1/query", request);
    expect(response.status).toBe(400);
    expect(await body(response)).toMatchObject({ code: "invalid", field });
  });
});

describe("protocol", () => {
  it("understands every keyword of the batch schema", () => {
    const used = new Set<string>();
    const walk = (node: unknown, namesAreKeys: boolean): void => {
      if (Array.isArray(node)) return node.forEach((item) => walk(item, false));
      if (node === null || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        if (!namesAreKeys) used.add(key);
        const named = !namesAreKeys && ["properties", "$defs", "mapping"].includes(key);
        if (!["default", "const", "enum", "discriminator"].includes(key)) walk(value, named);
      }
    };
    walk(schema, false);
    expect([...used].filter((key) => !KEYWORDS.includes(key))).toEqual([]);
  });

  it("exports only the handler from the entry module (workerd refuses anything else)", () => {
    expect(Object.keys(entry)).toEqual(["default"]);
  });

  it("writes canonical JSON as Python does", () => {
    expect(canonicalJson({ b: 1, a: [true, null, "ü"], "\u{1F600}": 0, "\uFFFF": 1 })).toBe(
      '{"a":[true,null,"ü"],"b":1,"\uFFFF":1,"\u{1F600}":0}',
    );
  });

  it("keeps the database D1 would have: foreign keys on", async () => {
    const row = await env.DB.prepare("PRAGMA foreign_keys").first<{ foreign_keys: number }>();
    expect(row?.foreign_keys).toBe(1);
  });
});
