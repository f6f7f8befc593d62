// The magg-kg Worker: applies write batches to D1 and runs the named reads.
//
//   GET  /v1/health   {ok, schema_version}                                   no token needed
//   POST /v1/batches  one batch -> applied | duplicate | refused (409) | retry (409, chain_moved)
//                     | invalid (400)                                        the write token
//   POST /v1/groups   [batch, ...] (at most MAX_GROUP batches, MAX_GROUP_OPS operations in all)
//                     -> 200 {results: [one outcome per batch, in order]} | invalid (400)
//   POST /v1/query    {name, params, limit, offset} -> {rows, next_offset}   the read or write token
//
// Tokens are `Authorization: Bearer <MAGG_D1_TOKEN>` (writes and reads) or
// `<MAGG_D1_READ_TOKEN>` (reads only). Every request counts against a per-caller abuse limit
// (WRITE_LIMIT for batches, READ_LIMIT for the rest). Every failure is a JSON body
// {status, code, reason[, field]}; an unexpected error is logged and answered with a generic 500.
//
// A write may carry `Magg-Audit-Head: <seq>:<hash>`, the audit chain's head as the answer to the
// client's previous write gave it (`audit_head`); with it, a write is one D1 round trip. It is a
// hint, checked in the write's own transaction: a stale or forged one costs a read, nothing else.

import schema from "../../magg_kg/protocol/batch.schema.json";
import queries from "../../magg_kg/protocol/queries.json";
import { applyBatches } from "./apply";
import { BadJson, Floats, parseJson } from "./canonical";
import {
  discardBody,
  failure,
  json,
  MAX_BODY,
  readBody,
  roleOf,
  TooLarge,
  withinLimit,
} from "./http";
import { parseQuery, runQuery } from "./query";
import { Invalid } from "./validate";
import { answerBatch, answerGroup, hintOf, itemsOf } from "./writes";

async function route(request: Request, env: Env): Promise<Response> {
  const { pathname } = new URL(request.url);
  const method = request.method;
  const group = pathname === "/v1/groups";
  const writes = pathname === "/v1/batches" || group;
  const caller = request.headers.get("CF-Connecting-IP") ?? "unknown";
  if (!(await withinLimit(writes ? env.WRITE_LIMIT : env.READ_LIMIT, caller))) {
    return failure(429, "rate_limited", "too many requests from this address; wait and try again");
  }
  if (pathname === "/v1/health" && method === "GET") {
    const row = await env.DB.prepare(queries.schema_version.sql).first<{ version: number }>();
    return json(200, { ok: true, schema_version: row?.version ?? 0 });
  }
  if (!["/v1/batches", "/v1/groups", "/v1/query"].includes(pathname) || method !== "POST") {
    return failure(404, "not_found", `no route ${method} ${pathname}`);
  }
  if (!env.MAGG_D1_TOKEN) {
    const hint = "run `wrangler secret put MAGG_D1_TOKEN` (or set it in .dev.vars)";
    return failure(500, "misconfigured", `the Worker has no MAGG_D1_TOKEN secret; ${hint}`);
  }
  const role = await roleOf(request, env.MAGG_D1_TOKEN, env.MAGG_D1_READ_TOKEN);
  if (role === null) {
    const wanted = writes ? "MAGG_D1_TOKEN" : "MAGG_D1_READ_TOKEN or MAGG_D1_TOKEN";
    return failure(401, "unauthorized", `missing or wrong bearer token (${wanted})`);
  }
  if (writes && role !== "write") {
    return failure(403, "forbidden", "this token may only read; writing a batch needs MAGG_D1_TOKEN");
  }
  const floats = new Floats();
  const body = parseJson(await readBody(request), floats);
  if (!writes) {
    floats.refuseUnsafe(); // no number of a query may be an integer past 2^53 - 1
    return json(200, await runQuery(env.DB, parseQuery(body)));
  }
  const hint = hintOf(request);
  const applied = await applyBatches(env.DB, await itemsOf(body, floats, group), floats, hint);
  return group ? answerGroup(applied) : answerBatch(applied);
}

async function answer(request: Request, env: Env): Promise<Response> {
  try {
    return await route(request, env);
  } catch (error) {
    if (error instanceof Invalid) return failure(400, "invalid", error.message, error.field);
    if (error instanceof TooLarge) return failure(413, "too_large", `the body is over ${MAX_BODY} bytes`);
    if (error instanceof BadJson) return failure(400, "bad_json", error.message);
    // The detail (D1's own text, a stack) goes to the log, never to the caller.
    console.error("ts-apply: unexpected error", error instanceof Error ? (error.stack ?? error.message) : error);
    if (error instanceof Error && /\bno such table\b/.test(error.message)) {
      // The likeliest first-deploy mistake: no retry mends it, so it is said, not hidden as internal.
      const hint = "apply the migrations (`wrangler d1 migrations apply DB` in ts-apply)";
      return failure(500, "misconfigured", `the D1 database has no magg schema: ${hint}`);
    }
    return failure(500, "internal", "the Worker failed on this request; its log (wrangler tail) has the detail");
  }
}

export default {
  async fetch(request, env): Promise<Response> {
    const response = await answer(request, env);
    await discardBody(request);
    return response;
  },
} satisfies ExportedHandler<Env>;
