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
import { authorized, BadJson, failure, json, MAX_BODY, readJson, TooLarge } from "./http";
import { parseQuery, runQuery } from "./query";
import { Invalid, validate, type Schema } from "./validate";

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
    const hint = "run `wrangler secret put MAGG_D1_TOKEN` (or set it in .dev.vars)";
    return failure(500, "misconfigured", `the Worker has no MAGG_D1_TOKEN secret; ${hint}`);
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
      if (error instanceof BadJson) return failure(400, "bad_json", error.message);
      const reason = error instanceof Error ? error.message : String(error);
      console.error("ts-apply: unexpected error", reason);
      return failure(500, "internal", reason);
    }
  },
} satisfies ExportedHandler<Env>;
