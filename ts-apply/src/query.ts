// Runs one named read query from protocol/queries.json, a page at a time. The request names the
// query; its SQL text never comes from the request.

import queries from "../../magg_kg/protocol/queries.json";
import { Invalid } from "./validate";

export const MAX_PAGE = 1000;

type Param = string | number | null;

interface Query {
  sql: string;
  params: string[];
}

const named = new Map<string, Query>(
  Object.entries(queries).flatMap(([name, spec]) =>
    name.startsWith("_") || typeof spec === "string" ? [] : [[name, spec as Query]],
  ),
);

export interface QueryRequest {
  name: string;
  values: Param[];
  limit: number;
  offset: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function count(value: unknown, field: string, fallback: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max) {
    throw new Invalid(field, `must be a whole number from 0 to ${max}`);
  }
  return value;
}

/** Reads `{name, params, limit, offset}`; throws Invalid naming the bad field. */
export function parseQuery(body: unknown): QueryRequest {
  if (!isObject(body)) throw new Invalid("body", "expected an object {name, params, limit, offset}");
  for (const key of Object.keys(body)) {
    if (!["name", "params", "limit", "offset"].includes(key)) throw new Invalid(key, "unknown field");
  }
  const name = body.name;
  const query = typeof name === "string" ? named.get(name) : undefined;
  if (typeof name !== "string" || !query) throw new Invalid("name", `unknown query ${JSON.stringify(name)}`);
  const params = body.params ?? {};
  if (!isObject(params)) throw new Invalid("params", "expected an object");
  for (const [key, value] of Object.entries(params)) {
    if (!query.params.includes(key)) throw new Invalid(`params.${key}`, `query ${name} takes no such parameter`);
    if (value !== null && typeof value !== "string" && !(typeof value === "number" && Number.isFinite(value))) {
      throw new Invalid(`params.${key}`, "expected a string, a number or null");
    }
  }
  return {
    name,
    values: query.params.map((key) => (params[key] ?? null) as Param),
    limit: count(body.limit, "limit", MAX_PAGE, MAX_PAGE) || MAX_PAGE,
    offset: count(body.offset, "offset", 0, Number.MAX_SAFE_INTEGER),
  };
}

/** One page of rows; `next_offset` is null on the last page. */
export async function runQuery(
  db: D1Database,
  request: QueryRequest,
): Promise<{ rows: Record<string, unknown>[]; next_offset: number | null }> {
  const query = named.get(request.name)!;
  const n = query.params.length;
  // One row past the page tells whether another page follows. A query that has its own LIMIT
  // is paged from the outside.
  const paged = /\bLIMIT\b/i.test(query.sql)
    ? `SELECT * FROM (${query.sql}) LIMIT ?${n + 1} OFFSET ?${n + 2}`
    : `${query.sql} LIMIT ?${n + 1} OFFSET ?${n + 2}`;
  let results: Record<string, unknown>[];
  try {
    ({ results } = await db
      .prepare(paged)
      .bind(...request.values, request.limit + 1, request.offset)
      .all<Record<string, unknown>>());
  } catch (error) {
    // A parameter of the right JSON type that SQLite cannot use (a limit of 1.5, ids that are no
    // JSON array): the request is at fault, and sending it again cannot help.
    const message = error instanceof Error ? error.message : String(error);
    if (!/SQLITE_MISMATCH|malformed JSON|SQLITE_TOOBIG|too big/.test(message)) throw error;
    const said = message.replace(/^D1_(EXEC_)?ERROR:\s*/, "").replace(/:\s*SQLITE_\w+$/, "");
    throw new Invalid("params", `SQLite cannot use these parameters: ${said}`);
  }
  const more = results.length > request.limit;
  return {
    rows: more ? results.slice(0, request.limit) : results,
    next_offset: more ? request.offset + request.limit : null,
  };
}
