// HTTP plumbing of the Worker: JSON answers, the bearer-token check and the bounded body.

/** The largest request body accepted, in bytes. */
export const MAX_BODY = 8 * 1024 * 1024;

export type Code =
  | "bad_json" | "invalid" | "unauthorized" | "not_found" | "too_large" | "misconfigured" | "internal";

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

export function failure(status: number, code: Code, reason: string, field?: string): Response {
  return json(status, { status: status >= 500 ? "error" : "refused", code, reason, ...(field ? { field } : {}) });
}

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

// Hashing both sides first gives equal lengths, so the comparison time says nothing about the token.
export async function authorized(request: Request, token: string): Promise<boolean> {
  const header = request.headers.get("Authorization") ?? "";
  const given = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
  const [a, b] = await Promise.all([sha256(given), sha256(token)]);
  return crypto.subtle.timingSafeEqual(a, b) && given.length > 0;
}

export class TooLarge extends Error {}

export class BadJson extends Error {}

/** The body's bytes, refusing more than MAX_BODY whatever Content-Length claims. */
async function readBody(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > MAX_BODY) throw new TooLarge();
  if (!request.body) return new Uint8Array();
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
  return bytes;
}

/** The body as JSON; throws TooLarge or BadJson (not UTF-8, or not JSON). */
export async function readJson(request: Request): Promise<unknown> {
  const bytes = await readBody(request);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw new BadJson("the body is not valid UTF-8 JSON");
  }
}

