// The write requests: one batch (POST /v1/batches) or a group of batches (POST /v1/groups),
// validated, with the digests the Worker computes, the client's hint of the audit chain's head,
// and the answers.

import schema from "../../magg_kg/protocol/batch.schema.json";
import { checkObjects, digestOf, type Applied, type Batch, type ChainHead, type Item } from "./apply";
import type { Floats } from "./canonical";
import { json } from "./http";
import { Invalid, validate, type Schema } from "./validate";

/** Most batches in one request to /v1/groups. */
export const MAX_GROUP = 1000;

/** Most operations in one request to /v1/groups, in all: what one batch may carry. */
export const MAX_GROUP_OPS = (schema as Schema).properties!.ops!.maxItems!;

const HEAD_HINT = /^(0:|[1-9][0-9]{0,15}:[0-9a-f]{64})$/;

export function hintOf(request: Request): ChainHead | null {
  const value = request.headers.get("Magg-Audit-Head");
  if (value === null) return null;
  if (!HEAD_HINT.test(value)) throw new Invalid("Magg-Audit-Head", "must be <seq>:<sha256 hex>, or 0: for an empty chain");
  const [seq = "0", hash = ""] = value.split(":");
  return { seq: Number(seq), hash };
}

/** The batches of a request, validated, with the digests the Worker computes. */
export async function itemsOf(body: unknown, floats: Floats, group: boolean): Promise<Item[]> {
  const items = group ? await groupOf(body, floats) : [await item(body, floats, "")];
  floats.refuseUnsafe(); // an integer past 2^53 - 1 that no float field took
  return items;
}

async function groupOf(body: unknown, floats: Floats): Promise<Item[]> {
  if (!Array.isArray(body) || body.length === 0 || body.length > MAX_GROUP) {
    throw new Invalid("batches", `expected an array of 1 to ${MAX_GROUP} batches`);
  }
  const batches: unknown[] = body;
  const ops = batches.reduce<number>((sum, batch) => sum + (opsOf(batch)?.length ?? 0), 0);
  if (ops > MAX_GROUP_OPS) throw new Invalid("batches", `must carry at most ${MAX_GROUP_OPS} operations in all`);
  const items: Item[] = [];
  for (const [index, batch] of batches.entries()) items.push(await item(batch, floats, `${index}.`));
  return items;
}

function opsOf(batch: unknown): unknown[] | null {
  const ops = batch !== null && typeof batch === "object" ? (batch as { ops?: unknown }).ops : null;
  return Array.isArray(ops) ? ops : null;
}

async function item(body: unknown, floats: Floats, prefix: string): Promise<Item> {
  try {
    const batch = validate(schema as Schema, body, floats) as Batch;
    checkObjects(batch, floats);
    return { batch, digest: await digestOf(batch, floats) };
  } catch (error) {
    if (error instanceof Invalid && prefix) throw new Invalid(prefix + error.field, error.detail);
    throw error;
  }
}

export function answerGroup(applied: Applied): Response {
  const head = applied.head ? { audit_head: applied.head } : {};
  return json(200, { results: applied.outcomes, ...head });
}

export function answerBatch(applied: Applied): Response {
  const outcome = { ...applied.outcomes[0]!, ...(applied.head ? { audit_head: applied.head } : {}) };
  if (outcome.status === "retry") return json(409, outcome, { "retry-after": "1" });
  return json(outcome.status === "refused" ? 409 : 200, outcome);
}
