// Applies write batches to D1 with the effect magg_kg/sqlite.py has on SQLite: each batch's head
// row, then every operation's prepared statements in the protocol's write order
// (protocol/statements.json), which has the effect of the batch's order. The batches of one
// request go in ONE `env.DB.batch` call, which D1 runs as a single transaction: their head rows
// first (nothing refers to them), then their operations, consecutive rows of one statement in one
// INSERT that reads them from one bound JSON array (`json_each`), in order.
//
// The Worker trusts no client with what it records about a batch: the digest that makes a retry
// a duplicate (and a reused id a conflict) is computed here from the validated content, and the
// audit chain's positions and hashes are computed here from the chain's head, checked by the
// audit_log trigger in the same transaction. Batches sent at once race for that head; the loser
// of a race reads it again after a random pause, and after CHAIN_ATTEMPTS lost races answers
// `chain_moved`, which tells the client to send the same batch again (nothing of it was written,
// and its id makes a second application impossible).

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

/** Each operation type's group in the protocol's `write_order`. */
const GROUP: ReadonlyMap<string, number> = new Map(
  (protocol.write_order as string[][]).flatMap((kinds, at) => kinds.map((kind) => [kind, at] as const)),
);

/**
 * A batch's operations in the protocol's write order, as magg_kg/sqlite.py writes them: group by
 * group, in the batch's order within a group. No row refers to a row of a later group and the
 * operations whose order matters to each other share a group, so the effect is the batch's order,
 * with the operations of one type together (fewer statements).
 */
export function inWriteOrder(ops: Operation[]): Operation[] {
  const group = (op: Operation): number => {
    const at = GROUP.get(op.op);
    if (at === undefined) throw new Error(`statements.json has no write-order group for ${op.op}`);
    return at;
  };
  return ops
    .map((op, at) => ({ op, at, group: group(op) }))
    .sort((a, b) => a.group - b.group || a.at - b.at)
    .map(({ op }) => op);
}

// A list or object is stored as its canonical JSON text, the same text Python stores.
function bindable(value: unknown, floats: Floats): string | number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" || typeof value === "number") return value;
  return canonicalJson(value, floats);
}

function valuesOf(spec: Statement, fields: Record<string, unknown>, floats: Floats): (string | number | null)[] {
  return spec.params.map((name) => bindable(fields[name], floats));
}

function prepare(
  db: D1Database,
  spec: Statement,
  fields: Record<string, unknown>,
  floats: Floats = new Floats(),
): D1PreparedStatement {
  return db.prepare(spec.sql).bind(...valuesOf(spec, fields, floats));
}

/** The most characters of JSON one INSERT of several rows reads from its one bound value (D1 binds
 * a value of up to 2,000,000 bytes; a character is at most 3 bytes in UTF-8). */
export const MAX_RUN_CHARS = 600_000;

/** Tables whose rows may refer to rows of the same table: an INSERT of several rows would check
 * those references once, after its last row, where one INSERT per row checks each after its own row. */
export const SELF_REFERENCING = new Set(["lessons"]);

const ONE_ROW = /^INSERT INTO (\w+) \(([^)]*)\) VALUES \(([^)]*)\)(.*)$/s;

/**
 * The SQL of `spec` for many rows in one INSERT (D1 charges per statement, not per row): the rows
 * are one bound JSON array of rows, read by `json_each` in order, each value where the one-row
 * statement binds it; or null when the statement cannot take several rows with the same effect
 * as one INSERT per row. Rows are inserted in order, each with its own constraints and triggers,
 * as one by one. (`WHERE true` keeps SQLite from reading an `ON CONFLICT` as a join's `ON`.)
 */
function rowsSql(spec: Statement): string | null {
  const match = ONE_ROW.exec(spec.sql);
  if (!match || SELF_REFERENCING.has(match[1]!)) return null;
  const [, table, columns, tuple, rest] = match;
  const values = tuple!.replace(/\?(\d+)/g, (_, n: string) => `json_extract(value, '$[${Number(n) - 1}]')`);
  return `INSERT INTO ${table} (${columns}) SELECT ${values} FROM json_each(?1) WHERE true ORDER BY key${rest}`;
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

/** The audit chain's last event: its position and hash (0 and "" for an empty chain). */
export interface ChainHead {
  seq: number;
  hash: string;
}

/** A validated batch and the digest the Worker computed for it. */
export interface Item {
  batch: Batch;
  digest: string;
}

/** What became of each batch of a request, and the chain's head after it when the Worker knows it. */
export interface Applied {
  outcomes: Outcome[];
  head: ChainHead | null;
}

const EMPTY_CHAIN: ChainHead = { seq: 0, hash: "" };

/** What D1 holds now for this batch id, and (if `chained`) the audit chain's last event: one read. */
async function readHead(db: D1Database, batch: Batch, chained: boolean): Promise<{ earlier: { digest: string } | null; head: ChainHead }> {
  const reads = [prepare(db, queries.batch, { batch_id: batch.batch_id })];
  if (chained) reads.push(db.prepare(queries.audit_head.sql));
  const [earlier, last] = await db.batch<Record<string, unknown>>(reads);
  const row = (earlier?.results[0] ?? null) as { digest: string } | null;
  const tail = (last?.results[0] ?? null) as ChainHead | null;
  return { earlier: row, head: tail ?? EMPTY_CHAIN };
}

async function readChainHead(db: D1Database): Promise<ChainHead> {
  return (await db.prepare(queries.audit_head.sql).first<ChainHead>()) ?? EMPTY_CHAIN;
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

/** The SQLite message of a failed statement, without D1's decorations; null if not a refusal (a constraint, or a value too big for D1). */
export function constraintMessage(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  if (/SQLITE_TOOBIG|string or blob too big/.test(message)) {
    // Sending it again cannot help: a refusal (409), not a 500 that clients retry.
    return "a value is larger than D1 holds (string or blob too big: at most 2,000,000 bytes a string or a row)";
  }
  if (!/SQLITE_CONSTRAINT|constraint failed/.test(message)) return null;
  // "D1_ERROR: CHECK constraint failed: src <> dst: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_CHECK)"
  return message
    .replace(/^D1_(EXEC_)?ERROR:\s*/, "")
    .replace(/:\s*SQLITE_CONSTRAINT\w*(\s*\(extended: \w+\))?$/, "");
}

const chains = (batch: Batch): boolean => batch.ops.some((op) => op.op === "append_audit");

type Row = (string | number | null)[];

/** The operations' statements that may take several rows at once, with their SQL for many rows. */
const MANY: ReadonlyMap<Statement, string> = new Map(
  [batchHead, ...Object.values(operations).flat()].flatMap((spec) => {
    const sql = rowsSql(spec);
    return sql === null ? [] : [[spec, sql] as const];
  }),
);

/**
 * The JSON text of `row` for a many-row INSERT, or null when it must be bound value by value.
 *
 * `json_extract` reads a number of that text with SQLite's own reader (sqlite3AtoF), which does
 * not round every text to the nearest double: SQLite 3.47 (workerd's) reads the shortest text of
 * 1e-300 as 9.999999999999999e-301 and of 1.5e300 as 1.4999999999999998e300. It scales the
 * digits by powers of ten in double-double arithmetic; a step by 10, 1e10, 0.1 or 1e-10 errs by
 * about 2^-78 at most, a step by 1e100 or 1e-100 (a decimal exponent of 100 or more either way)
 * by up to 2^-54. So a float that is not a safe integer is written with 17 significant digits,
 * correctly rounded: that text lies within 5e-17 (relative) of the double, so at least 2^-57 from
 * the midpoints where rounding turns, which the under 2^-72 of at most 18 small steps cannot
 * cross; any correctly rounding reader gives the double back too. A double whose 17 digits
 * need a decimal exponent of 100 or more (below about 1e-83 or from 1e116 up) is no JSON text:
 * its row is bound value by value, which D1 stores exactly. Safe integers and text go as they are.
 */
export function rowJson(row: Row): string | null {
  if (row.every((value) => typeof value !== "number" || Number.isSafeInteger(value))) return JSON.stringify(row);
  let text = "[";
  for (const [at, value] of row.entries()) {
    if (at > 0) text += ",";
    if (typeof value !== "number" || Number.isSafeInteger(value)) {
      text += JSON.stringify(value);
      continue;
    }
    const digits = value.toExponential(16);
    const exponent = Number(digits.slice(digits.indexOf("e") + 1));
    if (!(exponent >= EXACT_EXPONENTS[0] && exponent <= EXACT_EXPONENTS[1])) return null;
    text += digits;
  }
  return text + "]";
}

/** The decimal exponents (of the first of 17 digits) whose reading by SQLite takes no 1e±100 step. */
const EXACT_EXPONENTS = [-83, 115] as const;

/** Prepared statements in order; consecutive rows of one mergeable statement share one INSERT. */
class Statements {
  readonly list: D1PreparedStatement[] = [];
  private run: { spec: Statement; rows: Row[]; texts: string[]; chars: number } | null = null;

  constructor(private readonly db: D1Database) {}

  add(spec: Statement, row: Row): void {
    const text = MANY.has(spec) ? rowJson(row) : null;
    if (text === null) {
      this.flush();
      this.list.push(this.db.prepare(spec.sql).bind(...row));
      return;
    }
    if (this.run?.spec !== spec || this.run.chars + text.length + 1 > MAX_RUN_CHARS) this.flush();
    if (this.run) {
      this.run.rows.push(row);
      this.run.texts.push(text);
      this.run.chars += text.length + 1;
    } else this.run = { spec, rows: [row], texts: [text], chars: text.length + 2 };
  }

  flush(): void {
    if (!this.run) return;
    const { spec, rows, texts } = this.run;
    this.run = null;
    if (rows.length === 1) this.list.push(this.db.prepare(spec.sql).bind(...rows[0]!));
    else this.list.push(this.db.prepare(MANY.get(spec)!).bind(`[${texts.join(",")}]`));
  }
}

/**
 * The head rows of the batches (in order; nothing refers to them), then each batch's operations'
 * statements in write order, the audit chain continued from `head`.
 */
async function statementsFor(
  db: D1Database,
  items: Item[],
  head: ChainHead,
  floats: Floats,
): Promise<{ statements: D1PreparedStatement[]; head: ChainHead }> {
  let { seq, hash: prevHash } = head;
  const statements = new Statements(db);
  for (const { batch, digest } of items) {
    statements.add(batchHead, valuesOf(batchHead, { ...batch, digest, op_count: batch.ops.length }, floats));
  }
  statements.flush();
  for (const { batch } of items) {
    for (const op of inWriteOrder(batch.ops)) {
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
      // An operation of several statements (set_domain) keeps them apart: their order is the point.
      if (specs.length > 1) statements.flush();
      for (const spec of specs) statements.add(spec, valuesOf(spec, fields, floats));
      if (specs.length > 1) statements.flush();
    }
  }
  statements.flush();
  return { statements: statements.list, head: { seq, hash: prevHash } };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies validated batches, in order, with digests the Worker computed: in ONE `env.DB.batch`
 * (one D1 transaction, and one round trip when the chain's head is known or not needed), so that
 * all are applied; or, when one of several is refused or a duplicate, each on its own.
 *
 * `hint` is the chain's head as the client last heard it. It is never trusted: the audit_log
 * trigger refuses an event that does not extend the chain at its end, and the head is then read.
 * A batch without audit events needs no read: a reused id fails on the batches table, and only
 * then is the earlier digest read. Outcomes: applied, duplicate (nothing changes), refused
 * (nothing of it written), or retry (the chain kept moving; nothing of it written).
 */
export async function applyBatches(db: D1Database, items: Item[], floats: Floats, hint: ChainHead | null): Promise<Applied> {
  const chained = items.some(({ batch }) => chains(batch));
  let head = hint;
  for (let attempt = 1; ; attempt++) {
    if (chained && head === null) {
      if (items.length > 1) head = await readChainHead(db);
      else {
        const read = await readHead(db, items[0]!.batch, true);
        if (read.earlier) return { outcomes: [answerTo(items[0]!.batch, items[0]!.digest, read.earlier)], head: read.head };
        head = read.head;
      }
    }
    const built = await statementsFor(db, items, head ?? EMPTY_CHAIN, floats);
    try {
      await db.batch(built.statements);
      const outcomes = items.map(({ batch }): Outcome => ({ status: "applied", batch_id: batch.batch_id }));
      return { outcomes, head: chained ? built.head : null };
    } catch (error) {
      const reason = constraintMessage(error);
      if (reason === null) throw error;
      // Another batch extended the audit chain between our read of its head and our write, or the
      // client's hint was stale. (SQLite's BEGIN IMMEDIATE rules this out for the embedded backend.)
      if (chained && reason.startsWith("audit_log:")) {
        if (attempt >= CHAIN_ATTEMPTS) {
          const why = `the audit chain moved under this batch ${attempt} times; send the same batch again`;
          const outcomes = items.map(({ batch }): Outcome => ({ status: "retry", batch_id: batch.batch_id, code: "chain_moved", reason: why }));
          return { outcomes, head: null };
        }
        // A wrong hint costs one write; a lost race is tried again after a random pause.
        if (head !== hint || hint === null) await pause(Math.random() * Math.min(MAX_PAUSE_MS, 5 * 2 ** attempt));
        head = null;
        continue;
      }
      if (items.length > 1) return oneByOne(db, items, floats);
      return { outcomes: [await refusal(db, items[0]!, reason)], head: null };
    }
  }
}

/** Several batches that could not be applied together: each in its own transaction, in order. */
async function oneByOne(db: D1Database, items: Item[], floats: Floats): Promise<Applied> {
  const outcomes: Outcome[] = [];
  let head: ChainHead | null = null;
  for (const [index, item] of items.entries()) {
    const applied = await applyBatches(db, [item], floats, null);
    const outcome = applied.outcomes[0]!;
    head = applied.head ?? head;
    outcomes.push(outcome);
    if (outcome.status === "retry") {
      // Order matters: the batches after it wait until it is sent again (nothing of them written).
      const reason = `not applied: batch ${item.batch.batch_id} before it must be sent again first`;
      for (const later of items.slice(index + 1)) {
        outcomes.push({ status: "retry", batch_id: later.batch.batch_id, code: "chain_moved", reason });
      }
      break;
    }
  }
  return { outcomes, head };
}

/** Why one batch was refused: its id already applied (a duplicate or a conflict), or a constraint. */
async function refusal(db: D1Database, { batch, digest }: Item, reason: string): Promise<Outcome> {
  // Two senders racing with the same batch id: the loser sees the winner's head row.
  if (reason.includes("batches.batch_id")) {
    const now = await readHead(db, batch, false);
    if (now.earlier) return answerTo(batch, digest, now.earlier);
  }
  return { status: "refused", batch_id: batch.batch_id, code: "constraint", reason };
}
