// Batches sent at once: every one is applied, once, and the audit chain stays whole.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { CHAIN_ATTEMPTS } from "../src/apply";
import { sha256Hex } from "../src/canonical";
import { auditBatch, callWith, chainBreak, freshDatabase, post, postRequest, tableRows } from "./helpers";

const T = "2026-01-01T00:00:00.000000Z";

/** Sends `batch` as a client does: again while the answer is `chain_moved`, at most `rounds` times. */
async function send(batch: unknown, rounds: number, moved: number[]): Promise<Record<string, unknown>> {
  for (let round = 1; ; round++) {
    const response = await post("/v1/batches", batch);
    const answer = await response.json<Record<string, unknown>>();
    if (answer.code !== "chain_moved" || round === rounds) return answer;
    expect(response.status).toBe(409);
    moved.push(1);
  }
}

/** Appends one audit event at the chain's end directly, as another Worker instance would. */
async function competitor(n: number): Promise<void> {
  const head = await env.DB.prepare("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").first<{
    seq: number;
    hash: string;
  }>();
  const seq = (head?.seq ?? 0) + 1;
  const prev = head?.hash ?? "";
  const fields = [`other-${n}`, "k", "s", "{}", T];
  const hash = await sha256Hex([prev, String(seq), ...fields].join("\n"));
  await env.DB.prepare(
    "INSERT INTO audit_log (seq, event_id, kind, subject, payload, recorded_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  ).bind(seq, ...fields, prev, hash).run();
}

/** The Worker's D1, where another writer extends the chain just before each of the first `moves` writes. */
function racingDatabase(moves: number): { db: D1Database; moved: () => number } {
  const sqlOf = new WeakMap<object, string>();
  let done = 0;
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          const statement = target.prepare(sql);
          const bind = statement.bind.bind(statement);
          // bind() makes a new statement: remember the SQL of that one.
          statement.bind = (...values: unknown[]) => {
            const bound = bind(...values);
            sqlOf.set(bound, sql);
            return bound;
          };
          return statement;
        };
      }
      if (property === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const writesChain = statements.some((s) => sqlOf.get(s)?.startsWith("INSERT INTO audit_log"));
          if (writesChain && done < moves) await competitor(done++);
          return target.batch(statements);
        };
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db, moved: () => done };
}

beforeEach(freshDatabase);

describe("parallel batches", () => {
  it("applies 60 different batches sent at once, each once, with an intact chain", async () => {
    const moved: number[] = [];
    const answers = await Promise.all(Array.from({ length: 60 }, (_, n) => send(auditBatch(n), 20, moved)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(60).fill("applied"));
    expect(await tableRows("batches")).toHaveLength(60);
    expect(await tableRows("concepts")).toHaveLength(60);
    const chain = await tableRows("audit_log");
    expect(chain).toHaveLength(120);
    expect(await chainBreak()).toBeNull();
    // Each batch's two events are adjacent: a batch is one transaction.
    for (let n = 0; n < 60; n++) {
      const a = chain.findIndex((row) => row.event_id === `ev-${n}-a`);
      expect(chain[a + 1]?.event_id).toBe(`ev-${n}-b`);
    }
    console.log(`60 parallel batches: 60 applied; ${moved.length} chain_moved answers re-sent`);
  });

  it("reads the chain's head again when another writer moved it, and applies the batch", async () => {
    const racing = racingDatabase(3);
    const response = await callWith(postRequest("/v1/batches", auditBatch(1)), { DB: racing.db });
    expect(await response.json()).toMatchObject({ status: "applied" });
    expect(racing.moved()).toBe(3);
    const chain = await tableRows("audit_log");
    expect(chain.map((row) => row.event_id)).toEqual(["other-0", "other-1", "other-2", "ev-1-a", "ev-1-b"]);
    expect(await chainBreak()).toBeNull();
  });

  it("answers chain_moved when the chain keeps moving, writes nothing, and the same batch later applies once", async () => {
    const racing = racingDatabase(Number.POSITIVE_INFINITY);
    const response = await callWith(postRequest("/v1/batches", auditBatch(2)), { DB: racing.db });
    expect(response.status).toBe(409);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ status: "retry", code: "chain_moved", batch_id: "parallel-2" });
    expect(racing.moved()).toBe(CHAIN_ATTEMPTS);
    expect(await tableRows("batches")).toEqual([]);
    expect(await tableRows("concepts")).toEqual([]);
    expect(await tableRows("audit_log")).toHaveLength(CHAIN_ATTEMPTS);
    // The client sends the same batch again; a third sending is a duplicate.
    expect(await (await post("/v1/batches", auditBatch(2))).json()).toMatchObject({ status: "applied" });
    expect(await (await post("/v1/batches", auditBatch(2))).json()).toMatchObject({ status: "duplicate" });
    expect(await tableRows("audit_log")).toHaveLength(CHAIN_ATTEMPTS + 2);
    expect(await chainBreak()).toBeNull();
  });

  it("applies a batch sent twice at once exactly once", async () => {
    const answers = await Promise.all([post("/v1/batches", auditBatch(3)), post("/v1/batches", auditBatch(3))]);
    const statuses = await Promise.all(answers.map(async (r) => (await r.json<Record<string, unknown>>()).status));
    expect(statuses.sort()).toEqual(["applied", "duplicate"]);
    expect(await tableRows("audit_log")).toHaveLength(2);
  });
});
