// Applies one write batch to D1 exactly as magg_kg/sqlite.py applies it to SQLite: the batch
// head first, then every operation's prepared statements in order (protocol/statements.json),
// in ONE `env.DB.batch` call, which D1 runs as a single transaction.
//
// The Worker trusts no client with what it records about a batch: the digest that makes a retry
// a duplicate (and a reused id a conflict) is computed here from the validated content, and the
// audit chain's positions and hashes are computed here from the chain's current head. Batches
// sent at once race for that head; the loser of a race reads it again after a random pause, and
// after CHAIN_ATTEMPTS lost races answers `chain_moved`, which tells the client to send the same
// batch again (nothing of it was written, and its id makes a second application impossible).

import protocol from "../../magg_kg/protocol/statements.json";
import queries from "../../magg_kg/protocol/queries.json";
import { canonicalJson, Floats, sha256Hex } from "./canonical";
import { Invalid } from "./validate";

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
  | { status: "refused"; batch_id: string; code: "conflict" | "constraint"; reason: string }
  | { status: "retry"; batch_id: string; code: "chain_moved"; reason: string };

/** Races for the audit chain's head lost in the Worker before the client is asked to re-send. */
export const CHAIN_ATTEMPTS = 10;

/** The longest pause between two tries, in milliseconds (full jitter below it). */
const MAX_PAUSE_MS = 200;

/** The most characters of canonical JSON in one free-form object (a decision's detail, a card). */
export const MAX_OBJECT_CHARS = 64 * 1024;

const operations = protocol.operations as Record<string, Statement[]>;
const batchHead: Statement = protocol.batch;

// A list or object is stored as its canonical JSON text, the same text Python stores.
function bindable(value: unknown, floats: Floats): string | number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" || typeof value === "number") return value;
  return canonicalJson(value, floats);
}

function prepare(
  db: D1Database,
  spec: Statement,
  fields: Record<string, unknown>,
  floats: Floats = new Floats(),
): D1PreparedStatement {
  const values = spec.params.map((name) => bindable(fields[name], floats));
  return db.prepare(spec.sql).bind(...values);
}

/** The digest of a validated batch, as Python's Batch.of computes it; the client's is ignored. */
export async function digestOf(batch: Batch, floats: Floats): Promise<string> {
  const content = { batch_id: batch.batch_id, sent_at: batch.sent_at, ops: batch.ops };
  // The copy loses the marks of `batch`'s own keys, and none of them is a number.
  return sha256Hex(canonicalJson(content, floats));
}

/** Refuses a free-form object (detail, card) over MAX_OBJECT_CHARS; the depth was bounded on parsing. */
export function checkObjects(batch: Batch, floats: Floats): void {
  batch.ops.forEach((op, index) => {
    for (const field of ["detail", "card"]) {
      const value = op[field];
      if (value === null || typeof value !== "object") continue;
      if (canonicalJson(value, floats).length > MAX_OBJECT_CHARS) {
        throw new Invalid(`ops.${index}.${field}`, `must be at most ${MAX_OBJECT_CHARS} characters of JSON`);
      }
    }
  });
}

interface Head {
  earlier: { digest: string } | null;
  seq: number;
  hash: string;
}

/** What D1 holds now for this batch id, and the audit chain's last event: one read. */
async function readHead(db: D1Database, batch: Batch, chained: boolean): Promise<Head> {
  const reads = [prepare(db, queries.batch, { batch_id: batch.batch_id })];
  if (chained) reads.push(db.prepare(queries.audit_head.sql));
  const [earlier, last] = await db.batch<Record<string, unknown>>(reads);
  const row = (earlier?.results[0] ?? null) as { digest: string } | null;
  const tail = (last?.results[0] ?? null) as { seq: number; hash: string } | null;
  return { earlier: row, seq: tail?.seq ?? 0, hash: tail?.hash ?? "" };
}

function answerTo(batch: Batch, digest: string, earlier: { digest: string }): Outcome {
  if (earlier.digest === digest) return { status: "duplicate", batch_id: batch.batch_id };
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

/** The batch head, then every operation's statements, with the audit chain continued from `head`. */
async function statementsFor(
  db: D1Database,
  batch: Batch,
  digest: string,
  head: Head,
  floats: Floats,
): Promise<D1PreparedStatement[]> {
  let { seq, hash: prevHash } = head;
  const statements = [prepare(db, batchHead, { ...batch, digest, op_count: batch.ops.length })];
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
    for (const spec of specs) statements.push(prepare(db, spec, fields, floats));
  }
  return statements;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies a validated batch whose digest the Worker computed: applied, duplicate (nothing
 * changes), refused (nothing written), or retry (the chain kept moving; nothing written).
 */
export async function applyBatch(db: D1Database, batch: Batch, digest: string, floats: Floats): Promise<Outcome> {
  const chained = batch.ops.some((op) => op.op === "append_audit");
  for (let attempt = 1; ; attempt++) {
    const head = await readHead(db, batch, chained);
    if (head.earlier) return answerTo(batch, digest, head.earlier);
    try {
      await db.batch(await statementsFor(db, batch, digest, head, floats));
      return { status: "applied", batch_id: batch.batch_id };
    } catch (error) {
      const reason = constraintMessage(error);
      if (reason === null) throw error;
      // Two senders racing with the same batch id: the loser sees the winner's head row.
      if (reason.includes("batches.batch_id")) {
        const now = await readHead(db, batch, false);
        return now.earlier ? answerTo(batch, digest, now.earlier) : refused(batch, reason);
      }
      // Another batch extended the audit chain between our read of its head and our write.
      // (SQLite's BEGIN IMMEDIATE rules this out for the embedded backend.)
      if (!chained || !reason.startsWith("audit_log:")) return refused(batch, reason);
      if (attempt >= CHAIN_ATTEMPTS) {
        const why = `the audit chain moved under this batch ${attempt} times; send the same batch again`;
        return { status: "retry", batch_id: batch.batch_id, code: "chain_moved", reason: why };
      }
      await pause(Math.random() * Math.min(MAX_PAUSE_MS, 5 * 2 ** attempt));
    }
  }
}

function refused(batch: Batch, reason: string): Outcome {
  return { status: "refused", batch_id: batch.batch_id, code: "constraint", reason };
}
