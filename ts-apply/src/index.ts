// The magg-kg Worker: applies write batches to D1 and runs the named reads.
//
//   GET  /v1/health   {ok, schema_version}            no token needed
//   POST /v1/batches  one batch -> applied | duplicate | refused (409) | invalid (400)
//   POST /v1/query    {name, params, limit, offset} -> {rows, next_offset}
//
// Every other route needs `Authorization: Bearer <MAGG_D1_TOKEN>`. Every failure is a JSON body
// {status, code, reason[, field]}; nothing escapes as an uncaught exception.

import schema from "../../magg_kg/protocol/batch.schema.json";
import queries from "../../magg_kg/protocol/queries.json";
import { applyBatch, type Batch } from "./apply";
import { parseQuery, runQuery } from "./query";
import { Invalid, validate, type Schema } from "./validate";

/** The largest request body accepted, in bytes. */
export const MAX_BODY = 8 * 1024 * 1024;

type Code =
  | "bad_json" | "invalid" | "unauthorized" | "not_found" | "too_large" | "misconfigured" | "internal";

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

function failure(status: number, code: Code, reason: string, field?: string): Response {
  return json(status, { status: status >= 500 ? "error" : "refused", code, reason, ...(field ? { field } : {}) });
}

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

// Hashing both sides first gives equal lengths, so the comparison time says nothing about the token.
async function authorized(request: Request, token: string): Promise<boolean> {
  const header = request.headers.get("Authorization") ?? "";
  const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
  const [a, b] = await Promise.all([sha256(given), sha256(token)]);
  return crypto.subtle.timingSafeEqual(a, b) && given.length > 0;
}

class TooLarge extends Error {}

/** The body as text, refusing more than MAX_BODY bytes whatever Content-Length claims. */
async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > MAX_BODY) throw new TooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      throw new TooLarge();
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
}

async function readJson(request: Request): Promise<unknown> {
  const text = await readBody(request);
  try {
    return JSON.parse(text);
  } catch {
    throw new SyntaxError("the body is not valid JSON");
  }
}

async function route(request: Request, env: Env): Promise<Response> {
  const { pathname } = new URL(request.url);
  const method = request.method;
  if (pathname === "/v1/health" && method === "GET") {
    const row = await env.DB.prepare(queries.schema_version.sql).first<{ version: number }>();
    return json(200, { ok: true, schema_version: row?.version ?? 0 });
  }
  if (!["/v1/batches", "/v1/query"].includes(pathname) || method !== "POST") {
    return failure(404, "not_found", `no route ${method} ${pathname}`);
  }
  if (!env.MAGG_D1_TOKEN) {
    return failure(500, "misconfigured", "the Worker has no MAGG_D1_TOKEN secret; run `wrangler secret put MAGG_D1_TOKEN`");
  }
  if (!(await authorized(request, env.MAGG_D1_TOKEN))) {
    return failure(401, "unauthorized", "missing or wrong bearer token (MAGG_D1_TOKEN)");
  }
  const body = await readJson(request);
  if (pathname === "/v1/query") return json(200, await runQuery(env.DB, parseQuery(body)));
  const batch = validate(schema as Schema, body) as Batch;
  const outcome = await applyBatch(env.DB, batch);
  return json(outcome.status === "refused" ? 409 : 200, outcome);
}

export default {
  async fetch(request, env): Promise<Response> {
    try {
      return await route(request, env);
    } catch (error) {
      if (error instanceof Invalid) return failure(400, "invalid", error.message, error.field);
      if (error instanceof TooLarge) return failure(413, "too_large", `the body is over ${MAX_BODY} bytes`);
      if (error instanceof SyntaxError || error instanceof TypeError && /decode/i.test(error.message)) {
        return failure(400, "bad_json", "the body is not valid UTF-8 JSON");
      }
      const reason = error instanceof Error ? error.message : String(error);
      console.error("ts-apply: unexpected error", reason);
      return failure(500, "internal", reason);
    }
  },
} satisfies ExportedHandler<Env>;
