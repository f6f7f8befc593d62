// The shared write-protocol vectors (tests/vectors/*.json), applied by the Worker to D1. The
// Python backend runs the same files in tests/test_vectors.py.
import { beforeEach, describe, expect, it } from "vitest";
import { freshDatabase, post, tableRows } from "./helpers";

interface Vector {
  name: string;
  description: string;
  setup: unknown[];
  batch: unknown;
  expect: {
    status: "applied" | "duplicate" | "refused";
    code?: string;
    reason_contains?: string;
    field?: string;
    rows: Record<string, Record<string, unknown>[]>;
  };
}

const files = import.meta.glob<Vector>("../../tests/vectors/*.json", { eager: true, import: "default" });
const vectors = Object.values(files);

/** A row as the vector writes it: JSON-text columns parsed where the vector gives parsed JSON. */
function comparable(want: Record<string, unknown>, got: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(got).map(([key, value]) => {
      const parse = typeof value === "string" && want[key] !== null && typeof want[key] === "object";
      return [key, parse ? JSON.parse(value) : value];
    }),
  );
}

describe("write-protocol vectors", () => {
  beforeEach(freshDatabase);

  it("finds the vectors", () => {
    expect(vectors.length).toBeGreaterThanOrEqual(20);
  });

  it.each(vectors.map((vector) => [vector.name, vector] as const))("%s", async (_name, vector) => {
    for (const body of vector.setup) {
      const response = await post("/v1/batches", body);
      expect(await response.json()).toMatchObject({ status: "applied" });
    }
    const response = await post("/v1/batches", vector.batch);
    const outcome = await response.json<Record<string, unknown>>();
    const want = vector.expect;
    expect(outcome.status).toBe(want.status);
    if (want.code) expect(outcome.code).toBe(want.code);
    if (want.reason_contains) expect(outcome.reason).toContain(want.reason_contains);
    if (want.field) expect(outcome.field).toBe(want.field);
    const httpStatus = { applied: 200, duplicate: 200, refused: want.code === "invalid" ? 400 : 409 };
    expect(response.status).toBe(httpStatus[want.status]);
    for (const [table, rows] of Object.entries(want.rows)) {
      const got = await tableRows(table);
      expect(got.length, table).toBe(rows.length);
      rows.forEach((row, index) => expect(comparable(row, got[index]!), `${table} row ${index}`).toEqual(row));
    }
  });
});
