import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
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
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return call(new IncomingRequest(`http://worker${path}`, { method: "POST", headers, body: text }));
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
