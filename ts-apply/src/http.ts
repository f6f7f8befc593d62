// HTTP plumbing of the Worker: JSON answers, the bearer tokens, the abuse limits and the bounded body.

/** The largest request body accepted, in bytes. */
export const MAX_BODY = 8 * 1024 * 1024;

/**
 * The most bytes of a refused body read and dropped before answering. Answering while the sender
 * is still sending breaks the connection under it: the sender sees a reset instead of the answer,
 * and under `wrangler dev` later requests on that connection fail. Past this, the rest is cancelled.
 */
export const MAX_DRAIN = 128 * 1024 * 1024;

export type Code =
  | "bad_json"
  | "invalid"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "too_large"
  | "rate_limited"
  | "misconfigured"
  | "internal";

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function failure(status: number, code: Code, reason: string, field?: string): Response {
  const body = { status: status >= 500 ? "error" : "refused", code, reason, ...(field ? { field } : {}) };
  return json(status, body, status === 429 ? { "retry-after": String(LIMIT_PERIOD_S) } : {});
}

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
}

/** Hashing both sides first gives equal lengths, so the comparison time says nothing about a token. */
async function same(given: string, token: string | undefined): Promise<boolean> {
  const [a, b] = await Promise.all([sha256(given), sha256(token ?? "")]);
  return crypto.subtle.timingSafeEqual(a, b) && given.length > 0 && Boolean(token);
}

/** What the bearer token lets the caller do: the write token also reads; null for no or a wrong token. */
export type Role = "read" | "write";

export async function roleOf(request: Request, writeToken: string, readToken: string | undefined): Promise<Role | null> {
  const words = (request.headers.get("Authorization") ?? "").trim().split(/\s+/);
  // The scheme's case is free (RFC 9110 11.1), as `magg serve` reads it; the token is one word.
  const given = words.length === 2 && words[0]?.toLowerCase() === "bearer" ? (words[1] ?? "") : "";
  // Both comparisons always run, so the time taken does not say which token was close.
  const [writes, reads] = await Promise.all([same(given, writeToken), same(given, readToken)]);
  return writes ? "write" : reads ? "read" : null;
}

/** The period of the abuse limits in wrangler.jsonc, in seconds (the answer's Retry-After). */
export const LIMIT_PERIOD_S = 10;

/**
 * Whether `limiter` (a Workers rate-limiting binding) lets `key` through. No binding means no limit
 * (a test, or a deployment that left it out); a binding that fails lets the request through and
 * says so in the log, since refusing every request would be worse than counting none.
 */
export async function withinLimit(limiter: RateLimit | undefined, key: string): Promise<boolean> {
  if (!limiter) return true;
  try {
    return (await limiter.limit({ key })).success;
  } catch (error) {
    console.error("ts-apply: the rate limiter failed; letting the request through", error);
    return true;
  }
}

export class TooLarge extends Error {}

/** Reads what is left of a body and drops it, up to MAX_DRAIN bytes in all; then cancels. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, seen: number): Promise<void> {
  try {
    while (seen <= MAX_DRAIN) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The sender went away: nothing is left to protect.
  }
}

/** Drops a body nobody read (a refusal before reading it), so the connection stays usable. */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body || request.bodyUsed || request.body.locked) return;
  await drain(request.body.getReader(), 0);
}

/** The body's bytes, refusing more than MAX_BODY whether or not a Content-Length is sent. */
export async function readBody(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (declared > MAX_BODY) {
    if (declared <= MAX_DRAIN) await drain(reader, 0);
    else await reader.cancel().catch(() => undefined);
    throw new TooLarge();
  }
  // One buffer, sized by Content-Length when there is one, doubled when a chunked body outgrows it.
  let buffer = new Uint8Array(Number.isInteger(declared) && declared > 0 ? declared : 64 * 1024);
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > MAX_BODY) {
      await drain(reader, size + value.byteLength);
      throw new TooLarge();
    }
    if (size + value.byteLength > buffer.byteLength) {
      const grown = new Uint8Array(Math.min(MAX_BODY, Math.max(2 * buffer.byteLength, size + value.byteLength)));
      grown.set(buffer.subarray(0, size));
      buffer = grown;
    }
    buffer.set(value, size);
    size += value.byteLength;
  }
  return buffer.subarray(0, size);
}
