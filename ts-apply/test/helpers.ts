import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sha256Hex } from "../src/canonical";
import worker from "../src/index";

export const TOKEN = "test-token";

// A request as the Worker receives it (with incoming `cf` properties).
const IncomingRequest = Request<unknown, IncomingRequestCfProperties>;

/** An empty, migrated database. */
export async function freshDatabase(): Promise<void> {
  await reset();
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
}

export async function post(path: string, body: unknown, token: string | null = TOKEN): Promise<Response> {
  return call(postRequest(path, body, token));
}

/** The Worker's answer to `request`, in this isolate. */
export async function call(request: Request<unknown, IncomingRequestCfProperties>): Promise<Response> {
  return worker.fetch(request, env);
}

/** Every row of `table` in insertion order. */
export async function tableRows(table: string): Promise<Record<string, unknown>[]> {
  // Table names come from the vectors' fixed list, checked against the schema below.
  if (!/^[a-z_]+$/.test(table)) throw new Error(`bad table name ${table}`);
  const { results } = await env.DB.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
  return results;
}

export const READ_TOKEN = "read-token";

/** The Worker's answer to `request` with some bindings replaced (a fake limiter, a wrapped D1). */
export async function callWith(request: Request<unknown, IncomingRequestCfProperties>, bindings: Partial<Env>): Promise<Response> {
  return worker.fetch(request, { ...env, ...bindings } as Env);
}

/** A POST request as the Worker receives it. */
export function postRequest(path: string, body: unknown, token: string | null = TOKEN): Request<unknown, IncomingRequestCfProperties> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return new IncomingRequest(`http://worker${path}`, { method: "POST", headers, body: text });
}

/** The first problem of the audit chain in D1, or null: positions 1..n, links and hashes. */
export async function chainBreak(): Promise<string | null> {
  const rows = await tableRows("audit_log");
  let prev = "";
  for (const [index, row] of rows.entries()) {
    if (row.seq !== index + 1) return `event ${String(row.event_id)}: seq ${String(row.seq)}, expected ${index + 1}`;
    if (row.prev_hash !== prev) return `event ${String(row.seq)}: prev_hash does not match`;
    const text = [prev, String(row.seq), row.event_id, row.kind, row.subject, row.payload, row.recorded_at];
    if ((await sha256Hex(text.join("\n"))) !== row.hash) return `event ${String(row.seq)}: hash does not match`;
    prev = String(row.hash);
  }
  return null;
}

/** Batch `parallel-<n>`: concept c-<n> and two audit events, which must extend the chain at its end. */
export function auditBatch(n: number): Record<string, unknown> {
  const at = "2026-01-01T00:00:00.000000Z";
  const event = (part: string) => ({
    op: "append_audit", event_id: `ev-${n}-${part}`, kind: "commit", subject: `c-${n}`, payload: "{}", recorded_at: at,
  });
  return {
    batch_id: `parallel-${n}`,
    sent_at: at,
    ops: [{ op: "add_concept", id: `c-${n}`, name: `C ${n}`, type: "math", recorded_at: at }, event("a"), event("b")],
  };
}
