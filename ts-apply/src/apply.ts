// Applies one write batch to D1 exactly as magg_kg/sqlite.py applies it to SQLite: the batch
// head first, then every operation's prepared statements in order (protocol/statements.json),
// in ONE `env.DB.batch` call, which D1 runs as a single transaction.

import protocol from "../../magg_kg/protocol/statements.json";
import queries from "../../magg_kg/protocol/queries.json";

interface Statement {
  sql: string;
  params: string[];
  computed?: string[];
}

export type Operation = { op: string } & Record<string, unknown>;

export interface Batch {
  batch_id: string;
  sent_at: string;
  digest: string;
  ops: Operation[];
}

export type Outcome =
  | { status: "applied" | "duplicate"; batch_id: string }
  | { status: "refused"; batch_id: string; code: "conflict" | "constraint"; reason: string };

/** Tries to append to the audit chain when other batches keep extending it first. */
const AUDIT_ATTEMPTS = 8;

const operations = protocol.operations as Record<string, Statement[]>;
const head: Statement = protocol.batch;

/** JSON text with sorted keys and no spaces, byte for byte what Python's canonical_json writes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    // Python sorts by code point; JS's default sort compares UTF-16 units.
    const keys = Object.keys(value).sort((a, b) => {
      const [x, y] = [[...a], [...b]];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const diff = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
        if (diff !== 0) return diff;
      }
      return x.length - y.length;
    });
    const record = value as Record<string, unknown>;
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function bindable(value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" || typeof value === "number") return value;
  return canonicalJson(value);
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function prepare(db: D1Database, spec: Statement, fields: Record<string, unknown>): D1PreparedStatement {
  return db.prepare(spec.sql).bind(...spec.params.map((name) => bindable(fields[name])));
}

async function known(db: D1Database, batch: Batch): Promise<Outcome | null> {
  const row = await prepare(db, queries.batch, { batch_id: batch.batch_id }).first<{ digest: string }>();
  if (row === null) return null;
  if (row.digest === batch.digest) return { status: "duplicate", batch_id: batch.batch_id };
  return {
    status: "refused",
    batch_id: batch.batch_id,
    code: "conflict",
    reason: "this batch id was already applied with different content",
  };
}

/** The SQLite message of a failed statement, without D1's decorations; null if not a refusal. */
export function constraintMessage(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  if (!/SQLITE_CONSTRAINT|constraint failed/.test(message)) return null;
  // "D1_ERROR: CHECK constraint failed: src <> dst: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_CHECK)"
  return message
    .replace(/^D1_(EXEC_)?ERROR:\s*/, "")
    .replace(/:\s*SQLITE_CONSTRAINT\w*(\s*\(extended: \w+\))?$/, "");
}

/** The batch head, then every operation's statements, with the audit chain continued from its head. */
async function statementsFor(db: D1Database, batch: Batch): Promise<D1PreparedStatement[]> {
  const last = await db.prepare(queries.audit_head.sql).first<{ seq: number; hash: string }>();
  let seq = last?.seq ?? 0;
  let prevHash = last?.hash ?? "";
  const statements = [prepare(db, head, { ...batch, op_count: batch.ops.length })];
  for (const op of batch.ops) {
    const specs = operations[op.op];
    if (!specs) throw new Error(`statements.json has no statements for ${op.op}`);
    let fields: Record<string, unknown> = op;
    if (op.op === "append_audit") {
      seq += 1;
      const text = [prevHash, String(seq), op.event_id, op.kind, op.subject, op.payload, op.recorded_at];
      const hash = await sha256Hex(text.join("\n"));
      fields = { ...op, seq, prev_hash: prevHash, hash };
      prevHash = hash;
    }
    for (const spec of specs) statements.push(prepare(db, spec, fields));
  }
  return statements;
}

/** Applies a validated batch: applied, duplicate (nothing changes), or refused (nothing written). */
export async function applyBatch(db: D1Database, batch: Batch): Promise<Outcome> {
  for (let attempt = 1; ; attempt++) {
    const earlier = await known(db, batch);
    if (earlier) return earlier;
    try {
      await db.batch(await statementsFor(db, batch));
      return { status: "applied", batch_id: batch.batch_id };
    } catch (error) {
      const reason = constraintMessage(error);
      if (reason === null) throw error;
      // Another batch extended the audit chain between reading its head and writing: read again.
      // (SQLite's BEGIN IMMEDIATE rules this out for the embedded backend.)
      if (reason.startsWith("audit_log:") && attempt < AUDIT_ATTEMPTS) continue;
      // Two senders racing with the same batch id: the loser sees the winner's head row.
      if (reason.includes("batches.batch_id")) return (await known(db, batch)) ?? refused(batch, reason);
      return refused(batch, reason);
    }
  }
}

function refused(batch: Batch, reason: string): Outcome {
  return { status: "refused", batch_id: batch.batch_id, code: "constraint", reason };
}
