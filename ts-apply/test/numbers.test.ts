// Numbers as Python reads and stores them: a field the schema types `number` holds a float however
// the client spelled it (1, 1.0, 1e0), an `integer` field refuses a float (2.0), free-form JSON
// (a decision's detail, a domain's card) keeps the spelling, and a float stored by a many-row
// INSERT (one bound JSON array read by json_each) is the very double that was sent.
//
// The digests below are fixed vectors made by Python's store from the same JSON text:
//   batch = magg_kg.operations.Batch.model_validate_json(text); batch.content_digest()
// (`content_digest` is what `Batch.of` stores as `digest`; the SQLite store compares it on a retry.)
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { rowJson } from "../src/apply";
import { freshDatabase, post, tableRows } from "./helpers";

const T = "2026-01-01T00:00:00.000000Z";

async function body(response: Response): Promise<Record<string, unknown>> {
  return response.json<Record<string, unknown>>();
}

/** A batch of one record_usage whose latency_ms (a `number` field) is spelled `latency`. */
function usage(batchId: string, latency: string): string {
  return (
    `{"batch_id":"${batchId}","sent_at":"${T}","ops":[{"op":"record_usage","id":"u1","stage":"judge","agent":"a",` +
    `"model":"m","prompt_tokens":3,"completion_tokens":4,"latency_ms":${latency},"attempts":1,"outcome":"ok",` +
    `"cache_hit":false,"recorded_at":"${T}"}]}`
  );
}

/** A proposal (confidence: number) and its decision (score: number or null, detail: free-form). */
function proposal(batchId: string, confidence: string, score: string, detail: string): string {
  return (
    `{"batch_id":"${batchId}","sent_at":"${T}","ops":[` +
    `{"op":"add_proposal","id":"p1","src":"a","type":"related","dst":"b","confidence":${confidence},"evidence":[],` +
    `"origin":"manual","created_at":"${T}"},` +
    `{"op":"record_decision","id":"d1","proposal_id":"p1","stage":"judge","verdict":"accept",` +
    `"state_after":"proposed","score":${score},"rationale":"r","detail":${detail},"policy_version":"p",` +
    `"prompt_version":"p","model":"m","decided_at":"${T}"}]}`
  );
}

async function storedDigest(batchId: string): Promise<unknown> {
  const row = await env.DB.prepare("SELECT digest FROM batches WHERE batch_id = ?1").bind(batchId).first<{ digest: string }>();
  return row?.digest;
}

beforeEach(freshDatabase);

describe("a number field holds a float, however it was spelled", () => {
  // Python: Batch.model_validate_json(usage("b-usage", s)).content_digest(), the same for each s.
  const PYTHON_USAGE_1 = "a388abfd83f35714647044b59c32578ca7dfcb4275171e903cf6306128f9d3f0";
  const PYTHON_USAGE_250 = "221687437b21c9e41734df3daa5739857b6f8ebae2db1d00f7fb0ee4f88db197";

  it.each([
    ["1", "1.0"],
    ["1.0", "1"],
    ["1", "1e0"],
    ["10e-1", "1"],
  ])("stores Python's digest for latency_ms %s, and answers %s a duplicate", async (first, again) => {
    // `1` alone is a plain body (no number in it needs noting); `10e-1` takes the noting parse.
    expect(await body(await post("/v1/batches", usage("b-usage", first)))).toMatchObject({ status: "applied" });
    expect(await storedDigest("b-usage")).toBe(PYTHON_USAGE_1);
    const second = await post("/v1/batches", usage("b-usage", again));
    expect(second.status).toBe(200);
    expect(await body(second)).toEqual({ status: "duplicate", batch_id: "b-usage" });
    expect(await tableRows("llm_usage")).toHaveLength(1);
  });

  it("gives 250, 250.0 and 2.5e2 one digest, Python's", async () => {
    expect(await body(await post("/v1/batches", usage("b-usage-250", "250")))).toMatchObject({ status: "applied" });
    expect(await storedDigest("b-usage-250")).toBe(PYTHON_USAGE_250);
    for (const spelled of ["250.0", "2.5e2"]) {
      expect(await body(await post("/v1/batches", usage("b-usage-250", spelled)))).toMatchObject({ status: "duplicate" });
    }
  });

  it("reads -0 as Python does: the integer 0 made a float (0.0), where -0.0 is a float of its own", async () => {
    // Python: -0, 0 and 0.0 give one digest (latency_ms 0.0); -0.0 another (latency_ms -0.0).
    const zero = "c1f8170d2840f8357a4b309d9c2c29df1ef7cb9494f9e82be6a27d4e4b1e723d";
    const negativeZero = "a593bc554dab9fc30e36071bfe12fb6e618abd3c93f68c43725d5d2a8ba2391b";
    expect(await body(await post("/v1/batches", usage("b-usage-zero", "-0")))).toMatchObject({ status: "applied" });
    expect(await storedDigest("b-usage-zero")).toBe(zero);
    for (const spelled of ["0", "0.0"]) {
      expect(await body(await post("/v1/batches", usage("b-usage-zero", spelled)))).toMatchObject({ status: "duplicate" });
    }
    expect(await body(await post("/v1/batches", usage("b-usage-zero", "-0.0")))).toMatchObject({ code: "conflict" });
    await freshDatabase();
    expect(await body(await post("/v1/batches", usage("b-usage-zero", "-0.0")))).toMatchObject({ status: "applied" });
    expect(await storedDigest("b-usage-zero")).toBe(negativeZero);
  });

  it("reads an integer past 2^53 - 1 in a float field as the nearest float, as Python does", async () => {
    // Python: 10000000000000000 and 1e16 give one digest; 12345678901234567890 and
    // 1.2345678901234567e19 another (float(int) rounds to the double JSON.parse gives).
    const cases = [
      ["10000000000000000", "1e16", "0da87917e766100003c5d8e95191d321214549d95a9cefef378ba47ecc6ef516"],
      ["12345678901234567890", "1.2345678901234567e19", "4b5209c151039514ec600b66fc0ac3a2af2a6eed519f6257e881f2fab99575f0"],
    ] as const;
    for (const [integer, float, python] of cases) {
      await freshDatabase();
      expect(await body(await post("/v1/batches", usage("b-usage-big", integer)))).toMatchObject({ status: "applied" });
      expect(await storedDigest("b-usage-big")).toBe(python);
      expect(await body(await post("/v1/batches", usage("b-usage-big", float)))).toMatchObject({ status: "duplicate" });
    }
    // Past the largest double it is no finite number, for Python too ("Input should be a finite number").
    const huge = await post("/v1/batches", usage("b-usage-big", "1" + "0".repeat(400)));
    expect(await body(huge)).toMatchObject({ code: "invalid", field: "ops.0.latency_ms" });
    // Anywhere else (an integer field, free-form JSON, a query) it is still refused.
    const inDetail = await post("/v1/batches", proposal("b-big", "1", "0", '{"n":12345678901234567890}'));
    expect(inDetail.status).toBe(400);
    expect(await body(inDetail)).toMatchObject({ code: "bad_json" });
    const asTokens = await post("/v1/batches", usage("b-big", "1").replace('"prompt_tokens":3', '"prompt_tokens":12345678901234567890'));
    expect(asTokens.status).toBe(400);
    const query = await post("/v1/query", { name: "recent_active_edges", params: { limit: 12345678901234567890 } });
    expect(query.status).toBe(400);
    expect(await body(query)).toMatchObject({ code: "bad_json" });
    expect(await tableRows("batches")).toHaveLength(1);
  });

  it("types confidence and score (number or null) by the schema, and keeps the spelling inside detail", async () => {
    // Python, for proposal("b-proposal", confidence, score, detail):
    const integral = "d3c934135f051b2a8bfd9aa14cbcf2fedc1acbe0ed11dcaeecfb6f2fe9026f98"; // 1, 0, {"n":1}
    const floatInDetail = "df6fe792f6aa725025a9604219aa72534fe39bc805453d2b6fe30d3bd2d1aee6"; // 1, 0, {"n":1.0}
    const noScore = "57536ae41c56d75eb07371c4b5d7d4ec54cd33fcffcdbaf129c6a764214244c4"; // 1, null, {"n":1}
    expect(await body(await post("/v1/batches", proposal("b-proposal", "1", "0", '{"n":1}')))).toMatchObject({ status: "applied" });
    expect(await storedDigest("b-proposal")).toBe(integral);
    for (const [confidence, score] of [["1.0", "0.0"], ["1E+0", "0e5"]]) {
      const again = await post("/v1/batches", proposal("b-proposal", confidence!, score!, '{"n":1}'));
      expect(await body(again)).toMatchObject({ status: "duplicate" });
    }
    // In free-form JSON, Python's json.loads keeps 1 an int and 1.0 a float: another content.
    const other = await post("/v1/batches", proposal("b-proposal", "1", "0", '{"n":1.0}'));
    expect(await body(other)).toMatchObject({ status: "refused", code: "conflict" });
    const [decision] = await tableRows("decisions");
    expect(decision?.detail).toBe('{"n":1}');
    await freshDatabase();
    expect(await body(await post("/v1/batches", proposal("b-proposal", "1.0", "0", '{"n":1.0}')))).toMatchObject({ status: "applied" });
    expect(await storedDigest("b-proposal")).toBe(floatInDetail);
    expect((await tableRows("decisions"))[0]?.detail).toBe('{"n":1.0}');
    await freshDatabase();
    expect(await body(await post("/v1/batches", proposal("b-proposal", "1", "null", '{"n":1}')))).toMatchObject({ status: "applied" });
    expect(await storedDigest("b-proposal")).toBe(noScore);
  });
});

describe("an integer field refuses a float, as Python's strict models do", () => {
  const domain = (version: string) =>
    `{"batch_id":"b-domain","sent_at":"${T}","ops":[{"op":"set_domain","id":"calc","version":${version},` +
    `"name":"Calculus","owner":"o","card":{"n":1},"recorded_at":"${T}"}]}`;
  const chunk = (ordinal: string) =>
    `{"batch_id":"b-chunk","sent_at":"${T}","ops":[{"op":"add_chunk","id":"c","lesson_id":"l","ordinal":${ordinal},` +
    `"start":0,"end":1}]}`;
  const withEvidence = (start: string) =>
    `{"batch_id":"b-evidence","sent_at":"${T}","ops":[{"op":"add_proposal","id":"p1","src":"a","type":"related",` +
    `"dst":"b","confidence":0.5,"evidence":[{"lesson_id":"l","start":${start},"end":4,"quote":"uses",` +
    `"kind":"explicit"}],"origin":"manual","created_at":"${T}"}]}`;

  it.each([
    [domain("2.0"), "ops.0.version"],
    [domain("1e0"), "ops.0.version"],
    [domain("1.000"), "ops.0.version"],
    [chunk("0.0"), "ops.0.ordinal"],
    [chunk("3E2"), "ops.0.ordinal"],
    [withEvidence("0.0"), "ops.0.evidence.0.start"],
  ])("refuses %s with 400 naming %s, and writes nothing", async (text, field) => {
    // Python: Batch.model_validate_json(text) raises "Input should be a valid integer" for the field.
    const response = await post("/v1/batches", text);
    expect(response.status).toBe(400);
    const answer = await body(response);
    expect(answer).toMatchObject({ status: "refused", code: "invalid", field });
    expect(answer.reason).toContain("expected integer");
    expect(await tableRows("batches")).toEqual([]);
  });

  it("takes the same fields spelled as integers", async () => {
    expect(await body(await post("/v1/batches", domain("2")))).toMatchObject({ status: "refused", code: "constraint" });
    expect(await body(await post("/v1/batches", domain("1")))).toMatchObject({ status: "applied" });
    expect((await tableRows("domains"))[0]).toMatchObject({ version: 1, card: '{"n":1}' });
    expect(await body(await post("/v1/batches", withEvidence("0")))).toMatchObject({ status: "applied" });
  });
});

describe("floats in a many-row INSERT", () => {
  // Values SQLite 3.47's text-to-float reader (sqlite3AtoF, which json_extract uses) gets 1 ulp
  // wrong from their shortest text (1e-300 -> 9.999999999999999e-301, 1.5e300 ->
  // 1.4999999999999998e300), and ones it reads right.
  const LATENCIES = [
    1e-300, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, 123456789.12345678, 1.5e300, 2.2250738585072014e-308,
    7.634105724253513e-267, 4.5815174650905494e306, 1e-7, 1e16, 0.5, 1e23, 1e21, 6.02214076e23, 1e-83,
    9.999999999999999e115, 1e116, 3, 0,
  ];
  const CONFIDENCES = [1e-300, 5e-324, 0.1 + 0.2, 2.2250738585072014e-308, 7.634105724253513e-267, 1e-7, 0.1, 1, 0.8723456789012345, 1e-84, 0];

  function extremes(): Record<string, unknown> {
    const ops: Record<string, unknown>[] = [];
    LATENCIES.forEach((latency, i) => ops.push({
      op: "record_usage", id: `u${i}`, stage: "judge", agent: "a", model: "m", prompt_tokens: i,
      completion_tokens: 2 * i, latency_ms: latency, attempts: 1, outcome: "ok", cache_hit: i % 2 === 1, recorded_at: T,
    }));
    CONFIDENCES.forEach((confidence, i) => ops.push({
      op: "add_proposal", id: `p${i}`, src: "a", type: "related", dst: "b", confidence, evidence: [],
      origin: "manual", created_at: T,
    }));
    CONFIDENCES.forEach((score, i) => ops.push({
      op: "record_decision", id: `d${i}`, proposal_id: `p${i}`, stage: "judge", verdict: "accept",
      state_after: "proposed", score, rationale: "r", detail: {}, policy_version: "p", prompt_version: "p",
      model: "m", decided_at: T,
    }));
    return { batch_id: "b-extremes", sent_at: T, ops };
  }

  it("stores each double exactly, with Python's digest", async () => {
    // Python: the same operations written in Python (LATENCIES and CONFIDENCES as Python floats,
    // 3, 0, 1 and 0 as ints, so JSON.stringify and json.dumps spell each number alike), then
    // Batch.model_validate_json(json.dumps({"batch_id": "b-extremes", "sent_at": T, "ops": ops}))
    // .content_digest(); the models make the ints floats (3.0, 0.0, 1.0).
    const python = "a3335c329695cb6aab3ca1be55e26b05597992b3e4a8c140dd3164e19944d45b";
    const answer = await body(await post("/v1/batches", extremes()));
    expect(answer).toMatchObject({ status: "applied" });
    expect(await storedDigest("b-extremes")).toBe(python);
    const usage = await tableRows("llm_usage");
    expect(usage.map((row) => row.latency_ms)).toEqual(LATENCIES);
    usage.forEach((row, i) => expect(Object.is(row.latency_ms, LATENCIES[i]), `latency ${LATENCIES[i]}`).toBe(true));
    const proposals = await tableRows("proposals");
    const decisions = await tableRows("decisions");
    CONFIDENCES.forEach((value, i) => {
      expect(Object.is(proposals[i]?.confidence, value), `confidence ${value}`).toBe(true);
      expect(Object.is(decisions[i]?.score, value), `score ${value}`).toBe(true);
    });
  });

  it("writes a row's JSON so that json_each gives back every double, or binds the row alone", async () => {
    // Random doubles of every magnitude, and of the magnitudes confidences and latencies have.
    const view = new DataView(new ArrayBuffer(8));
    let state = 12345;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      view.setUint32(0, Math.floor(next() * 2 ** 32));
      view.setUint32(4, Math.floor(next() * 2 ** 32));
      const anyDouble = view.getFloat64(0);
      if (Number.isFinite(anyDouble)) values.push(anyDouble);
      values.push(next(), next() * 10 ** Math.floor(next() * 40 - 20));
    }
    const rows: string[] = [];
    const sent: number[] = [];
    const alone: number[] = [];
    for (const value of values) {
      const text = rowJson(["id", value, null, 7]);
      if (text === null) alone.push(value);
      else {
        rows.push(text);
        sent.push(value);
      }
    }
    // Only doubles of extreme magnitude are bound alone.
    expect(alone.filter((value) => Math.abs(value) >= 1e-83 && Math.abs(value) < 9.9e115)).toEqual([]);
    expect(alone.length).toBeLessThan(values.length / 4);
    const wrong: string[] = [];
    for (let at = 0; at < rows.length; at += 10_000) {
      const chunk = rows.slice(at, at + 10_000);
      const { results } = await env.DB.prepare(
        "SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS x, json_extract(value, '$[3]') AS n " +
          "FROM json_each(?1) ORDER BY key",
      ).bind(`[${chunk.join(",")}]`).all<{ id: string; x: number; n: number }>();
      expect(results).toHaveLength(chunk.length);
      results.forEach((row, i) => {
        const value = sent[at + i]!;
        const same = Object.is(row.x, value) || (value === 0 && row.x === 0);
        if (!same || row.id !== "id" || row.n !== 7) wrong.push(`${value} read back as ${row.x}`);
      });
    }
    expect(wrong).toEqual([]);
  });
});
