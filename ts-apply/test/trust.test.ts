// A Worker that trusts no client: its own digest, bounded nesting and sizes, generic 500s,
// separate read and write tokens, abuse limits.
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { MAX_OBJECT_CHARS } from "../src/apply";
import { BadJson, canonicalJson, Floats, MAX_DEPTH, nesting, parseJson, plainNumbers, pythonFloat } from "../src/canonical";
import { callWith, freshDatabase, post, postRequest, READ_TOKEN, tableRows, TOKEN } from "./helpers";

const IncomingRequest = Request<unknown, IncomingRequestCfProperties>;
const T = "2026-01-01T00:00:00.000000Z";
const bytes = (text: string) => new TextEncoder().encode(text);

async function body(response: Response): Promise<Record<string, unknown>> {
  return response.json<Record<string, unknown>>();
}

function conceptBatch(id: string, name: string, digest?: string): Record<string, unknown> {
  const batch: Record<string, unknown> = {
    batch_id: "b-reused",
    sent_at: T,
    ops: [{ op: "add_concept", id, name, type: "math", description: "", recorded_at: T }],
  };
  if (digest !== undefined) batch.digest = digest;
  return batch;
}

function decision(detail: unknown): Record<string, unknown> {
  return {
    batch_id: "b-decision",
    sent_at: T,
    ops: [{
      op: "record_decision", id: "dec-f", proposal_id: null, stage: "judge", verdict: "accept",
      state_after: "committed", score: 1.0, rationale: "r", detail, policy_version: "p",
      prompt_version: "p", model: "m", decided_at: T,
    }],
  };
}

beforeEach(freshDatabase);

describe("the digest is the Worker's", () => {
  it("is what Python's Batch.of computes, floats and all, whatever digest the client sends", async () => {
    // magg_kg.operations.Batch.of("b-floats", T, [RecordDecision(..., score=1.0, detail=below)])
    const python = "cc4f1275a3308f155ef08161195a2a1de565f7d394dc9235ad57fcfb4ef6da7d";
    const text = JSON.stringify({ ...decision(null), batch_id: "b-floats", digest: "f".repeat(64) })
      .replace('"score":1', '"score":1.0')
      .replace(
        '"detail":null',
        '"detail":{"votes":[{"weight":1.0,"n":2}],"tiny":1e-07,"big":1e+16,"neg":-0.0,"text":"\\u00fc"}',
      );
    expect((await post("/v1/batches", text)).status).toBe(200);
    const [head] = await tableRows("batches");
    expect(head?.digest).toBe(python);
    // The stored detail is the text Python stores: canonical_json(detail).
    const [row] = await tableRows("decisions");
    expect(row?.detail).toBe('{"big":1e+16,"neg":-0.0,"text":"ü","tiny":1e-07,"votes":[{"n":2,"weight":1.0}]}');
  });

  it("refuses a reused id with other content as a conflict, whatever digest is claimed", async () => {
    const first = conceptBatch("a", "A");
    expect(await body(await post("/v1/batches", first))).toMatchObject({ status: "applied" });
    const [stored] = await tableRows("batches");
    for (const claimed of [undefined, String(stored?.digest), "0".repeat(64)]) {
      const other = await post("/v1/batches", conceptBatch("b", "B", claimed));
      expect(other.status).toBe(409);
      expect(await body(other)).toMatchObject({ status: "refused", code: "conflict" });
    }
    expect((await tableRows("concepts")).map((c) => c.id)).toEqual(["a"]);
  });

  it("answers the same content duplicate, with a forged, omitted or true digest", async () => {
    expect(await body(await post("/v1/batches", conceptBatch("a", "A")))).toMatchObject({ status: "applied" });
    for (const claimed of [undefined, "1".repeat(64)]) {
      const again = await post("/v1/batches", conceptBatch("a", "A", claimed));
      expect(again.status).toBe(200);
      expect(await body(again)).toMatchObject({ status: "duplicate" });
    }
    expect(await tableRows("batches")).toHaveLength(1);
  });
});

describe("bounded nesting and size", () => {
  it("refuses a 200,000-deep detail with 400 before parsing it, and writes nothing", async () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const text = JSON.stringify(decision(null)).replace('"detail":null', `"detail":{"x":${deep}}`);
    const response = await post("/v1/batches", text);
    expect(response.status).toBe(400);
    const answer = await body(response);
    expect(answer).toMatchObject({ status: "refused", code: "bad_json" });
    expect(answer.reason).toContain(`more than ${MAX_DEPTH} deep`);
    expect(await tableRows("batches")).toEqual([]);
  });

  it("counts nesting outside strings only, without recursion", () => {
    expect(nesting(bytes('{"a":[{"b":"[[[{{{"}]}'), 99)).toBe(3);
    expect(nesting(bytes('{"a":"\\"[[["}'), 99)).toBe(1);
    expect(nesting(bytes("[".repeat(1000)), 10)).toBe(11);
  });

  it(`accepts ${MAX_DEPTH} levels and refuses ${MAX_DEPTH + 1}`, () => {
    const nested = (depth: number) => bytes("[".repeat(depth) + "]".repeat(depth));
    expect(parseJson(nested(MAX_DEPTH), new Floats())).toBeInstanceOf(Array);
    expect(() => parseJson(nested(MAX_DEPTH + 1), new Floats())).toThrow(BadJson);
  });

  it("refuses a detail over the size bound, naming the field", async () => {
    const big = { text: "x".repeat(MAX_OBJECT_CHARS) };
    const response = await post("/v1/batches", decision(big));
    expect(response.status).toBe(400);
    expect(await body(response)).toMatchObject({ code: "invalid", field: "ops.0.detail" });
    expect(await tableRows("decisions")).toEqual([]);
    const fits = { text: "x".repeat(MAX_OBJECT_CHARS - 20) };
    expect(await body(await post("/v1/batches", decision(fits)))).toMatchObject({ status: "applied" });
  });

  it("refuses an integer it cannot store exactly", async () => {
    const text = JSON.stringify(decision(null)).replace('"detail":null', '"detail":{"n":12345678901234567890}');
    const response = await post("/v1/batches", text);
    expect(response.status).toBe(400);
    const answer = await body(response);
    expect(answer).toMatchObject({ code: "bad_json" });
    expect(answer.reason).toContain("12345678901234567890 is too large");
  });
});

// A seeded generator of JSON text with numbers of every kind Python writes (and some it does not),
// and strings holding number-like text.
function randomJson(seed: number): string {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!;
  const numbers = [
    "0", "7", "-3", "1.0", "-0.0", "0.5", "0.1", "0.9", "12.25", "100.0", "1e16", "1e+16", "1.5e-05",
    "0.0001", "0.00001", "123456789012345.6", "9007199254740993", "999999999999999", "0.30000000000000004",
    "999999999999999.0000000000001", "2.5E-7", "-12.5", "3.14159", "1e21", "42",
  ];
  const strings = ['"ratio:1.0,"', '"2026-01-01T00:00:00.000000Z"', '"a"', '"[1e5]"', '"x,2.0}"'];
  const value = (depth: number): string => {
    const roll = next();
    if (depth > 3 || roll < 0.45) return pick(numbers);
    if (roll < 0.6) return pick(strings);
    if (roll < 0.8) return `[${Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1)).join(", ")}]`;
    const keys = Array.from({ length: Math.floor(next() * 4) }, (_, i) => `"k${i}" : ${value(depth + 1)}`);
    return `{${keys.join(",")}}`;
  };
  return value(0);
}

describe("the plain parse", () => {
  it("writes back what the parse that notes every float writes", () => {
    // `[text, 1.0]` always takes the noting parse (1.0 is a float JS cannot tell from 1); `text`
    // alone takes the plain one when no number in it is ambiguous. Both must write it alike.
    let plain = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const text = randomJson(seed);
      const written = (body: string, part: (parsed: unknown) => unknown): string => {
        const floats = new Floats();
        try {
          return canonicalJson(part(parseJson(bytes(body), floats)), floats);
        } catch (error) {
          return String(error);
        }
      };
      const expected = written(`[${text}, 1.0]`, (parsed) => (parsed as unknown[])[0]);
      expect(written(text, (parsed) => parsed), text).toBe(expected);
      if (plainNumbers(text) && /[0-9]\.[0-9]/.test(text)) plain++;
    }
    expect(plain).toBeGreaterThan(300); // texts with floats that took the plain parse
  });

  it("refuses what the noting parse refuses, and reads a batch's plain numbers", () => {
    expect(() => parseJson(bytes('{"a": 1,}'), new Floats())).toThrow(BadJson);
    // An integer past 2^53 - 1 is noted on parsing, and refused unless a float field takes it.
    const unsafe = new Floats();
    parseJson(bytes('{"a": 12345678901234567890}'), unsafe);
    expect(() => unsafe.refuseUnsafe()).toThrow("12345678901234567890 is too large");
    const text = '{"score": 0.9, "n": 3, "when": "2026-01-01T00:00:00.000000Z"}';
    expect(plainNumbers(text)).toBe(true);
    expect(plainNumbers('{"score": 1.0}') || plainNumbers("1e5") || plainNumbers("[0.00001]")).toBe(false);
    const floats = new Floats();
    expect(canonicalJson(parseJson(bytes(text), floats), floats)).toBe(
      '{"n":3,"score":0.9,"when":"2026-01-01T00:00:00.000000Z"}',
    );
  });
});

describe("Python's JSON", () => {
  it("writes floats as Python's repr does", () => {
    // Python: canonical_json([1.0, 0.1, 1e16, ...]) for these inputs.
    const given =
      "[1.0,0.1,1e16,1.5e-5,123456789012345.6,1e22,5e-324,1.7976931348623157e308,-0.0,0.0,0.0001,0.00001," +
      "2.5e-7,100.0,1e15,9007199254740993.0,0.30000000000000004,-12.5,1e21,123e-20,7,-3]";
    const python =
      "[1.0,0.1,1e+16,1.5e-05,123456789012345.6,1e+22,5e-324,1.7976931348623157e+308,-0.0,0.0,0.0001,1e-05," +
      "2.5e-07,100.0,1000000000000000.0,9007199254740992.0,0.30000000000000004,-12.5,1e+21,1.23e-18,7,-3]";
    const floats = new Floats();
    expect(canonicalJson(parseJson(bytes(given), floats), floats)).toBe(python);
    expect(pythonFloat(2 ** -1074)).toBe("5e-324");
  });
});

describe("errors and tokens", () => {
  it("answers an unexpected error with a generic 500, on health too, without D1's text", async () => {
    const broken = { prepare: () => { throw new Error("D1_ERROR: disk on fire at /secret/path"); } } as unknown as D1Database;
    for (const request of [
      new IncomingRequest("http://worker/v1/health"),
      postRequest("/v1/query", { name: "concepts" }),
    ]) {
      const failed = await callWith(request, { DB: broken });
      expect(failed.status).toBe(500);
      const answer = await body(failed);
      expect(answer).toMatchObject({ status: "error", code: "internal" });
      expect(JSON.stringify(answer)).not.toContain("disk on fire");
    }
  });

  it("says a database without the schema needs its migrations, on health too", async () => {
    // Forgetting the migrations was a generic 500 that the client retried, then blamed the URL.
    const bare = { prepare: () => { throw new Error("D1_ERROR: no such table: schema_version: SQLITE_ERROR"); } } as unknown as D1Database;
    for (const request of [
      new IncomingRequest("http://worker/v1/health"),
      postRequest("/v1/query", { name: "schema_version" }),
    ]) {
      const failed = await callWith(request, { DB: bare });
      expect(failed.status).toBe(500);
      const answer = await body(failed);
      expect(answer).toMatchObject({ status: "error", code: "misconfigured" });
      expect(String(answer.reason)).toContain("wrangler d1 migrations apply");
    }
  });

  it("lets the read token query but not write, and the write token do both", async () => {
    const batch = conceptBatch("a", "A");
    const refused = await post("/v1/batches", batch, READ_TOKEN);
    expect(refused.status).toBe(403);
    expect(await body(refused)).toMatchObject({ status: "refused", code: "forbidden" });
    expect(await tableRows("batches")).toEqual([]);
    expect((await post("/v1/batches", batch, TOKEN)).status).toBe(200);
    for (const token of [READ_TOKEN, TOKEN]) {
      const rows = await body(await post("/v1/query", { name: "concepts" }, token));
      expect(rows).toMatchObject({ rows: [{ id: "a" }] });
    }
  });

  it("accepts no read token when none is set", async () => {
    const request = postRequest("/v1/query", { name: "concepts" }, "");
    expect((await callWith(request, { MAGG_D1_READ_TOKEN: "" })).status).toBe(401);
    const withRead = postRequest("/v1/query", { name: "concepts" }, READ_TOKEN);
    expect((await callWith(withRead, { MAGG_D1_READ_TOKEN: undefined })).status).toBe(401);
  });
});

describe("abuse limits", () => {
  const refusing = { limit: async () => ({ success: false }) } as RateLimit;

  it("answers 429 with Retry-After when the caller's limit is spent, before reading the body", async () => {
    const keys: string[] = [];
    const counting = { limit: async ({ key }: { key: string }) => (keys.push(key), { success: false }) } as RateLimit;
    const request = postRequest("/v1/batches", conceptBatch("a", "A"));
    request.headers.set("CF-Connecting-IP", "203.0.113.7");
    const response = await callWith(request, { WRITE_LIMIT: counting });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("10");
    expect(await body(response)).toMatchObject({ status: "refused", code: "rate_limited" });
    expect(keys).toEqual(["203.0.113.7"]);
    expect(await tableRows("batches")).toEqual([]);
  });

  it("counts writes and reads apart", async () => {
    const query = await callWith(postRequest("/v1/query", { name: "concepts" }), { WRITE_LIMIT: refusing });
    expect(query.status).toBe(200);
    const write = await callWith(postRequest("/v1/batches", conceptBatch("a", "A")), { READ_LIMIT: refusing });
    expect(write.status).toBe(200);
    const health = await callWith(new IncomingRequest("http://worker/v1/health"), { READ_LIMIT: refusing });
    expect(health.status).toBe(429);
  });

  it("works with no limiter bound, and lets requests through when the limiter fails", async () => {
    const failing = { limit: async () => { throw new Error("limiter down"); } } as unknown as RateLimit;
    const none = { WRITE_LIMIT: undefined, READ_LIMIT: undefined } as unknown as Partial<Env>;
    expect((await callWith(postRequest("/v1/batches", conceptBatch("a", "A")), none)).status).toBe(200);
    expect((await callWith(postRequest("/v1/query", { name: "concepts" }), { READ_LIMIT: failing })).status).toBe(200);
  });

  it("has the limiters wrangler.jsonc declares", () => {
    expect(typeof env.WRITE_LIMIT?.limit).toBe("function");
    expect(typeof env.READ_LIMIT?.limit).toBe("function");
  });
});
