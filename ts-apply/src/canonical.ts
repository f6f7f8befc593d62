// JSON in and out of the Worker, byte for byte as the Python side reads and writes it.
//
// The batch digest is the SHA-256 of the canonical JSON of {batch_id, sent_at, ops}, which Python
// writes with `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)` from the
// validated operations. Python keeps 1.0 and 1 apart (a float and an int); JSON.parse does not.
// Which one Python holds depends on where the number stands:
//
// - in a field the schema types `number` (confidence, score, latency_ms), a float, however the
//   client spelled it: `1` is read as the float 1.0 (and `-0` as 0.0, while `-0.0` stays -0.0);
// - in a field typed `integer`, an int: a number spelled as a float (`2.0`, `1e0`) is refused;
// - in free-form JSON (a decision's `detail`, a domain's `card`), what `json.loads` reads: an int
//   if spelled as one, a float if spelled with a point or an exponent.
//
// So the parser notes, from each number's source text, which values were spelled as floats, and
// the validator (validate.ts) marks each value of a `number` field as a float in the validated copy
// and keeps the spelling only where the schema gives no type. The writer prints marked values as
// Python's repr does. The nesting of the raw text is bounded before JSON.parse, so no recursion
// (here, in the validator or in the writer) ever meets a deeper value than MAX_DEPTH.

/** The deepest nesting of arrays and objects accepted in a request body. */
export const MAX_DEPTH = 32;

/**
 * Which keys of which objects and arrays hold a float: in a parsed body, the numbers spelled as
 * floats; in a validated batch, the values the writer prints as Python floats. Also notes the
 * integers past 2^53 - 1 of a parsed body, which JavaScript cannot hold exactly: one is refused
 * unless a `number` field takes it (Python reads it as an int and makes it the nearest float,
 * the double JSON.parse gave).
 */
export class Floats {
  private readonly marks = new WeakMap<object, Set<string>>();
  /** Integers past 2^53 - 1 no float field took yet: holder -> key -> source text, in parse order. */
  private readonly unsafe = new Map<object, Map<string, string>>();

  mark(holder: object, key: string | number): void {
    let keys = this.marks.get(holder);
    if (!keys) this.marks.set(holder, (keys = new Set()));
    keys.add(String(key));
  }

  has(holder: object, key: string | number): boolean {
    return this.marks.get(holder)?.has(String(key)) ?? false;
  }

  /** The keys of `holder` that hold a float, if any. */
  keysOf(holder: object): ReadonlySet<string> | undefined {
    return this.marks.get(holder);
  }

  /** Notes that `holder[key]` is an integer past 2^53 - 1, written `source`. */
  markUnsafe(holder: object, key: string | number, source: string): void {
    let keys = this.unsafe.get(holder);
    if (!keys) this.unsafe.set(holder, (keys = new Map()));
    keys.set(String(key), source);
  }

  /** `holder[key]` is a float field's: an integer past 2^53 - 1 there is read as the nearest float. */
  take(holder: object, key: string | number): void {
    if (this.unsafe.size === 0) return;
    const keys = this.unsafe.get(holder);
    if (keys?.delete(String(key)) && keys.size === 0) this.unsafe.delete(holder);
  }

  /** Refuses the body if an integer past 2^53 - 1 is anywhere but in a `number` field. */
  refuseUnsafe(): void {
    for (const keys of this.unsafe.values()) {
      for (const source of keys.values()) {
        throw new BadJson(`the integer ${source.slice(0, 40)} is too large to store exactly (limit 2^53 - 1)`);
      }
    }
  }
}

/** Text that is not JSON, nests too deep, or holds a number the Worker cannot keep exactly. */
export class BadJson extends Error {}

/** The deepest nesting of `bytes` (UTF-8 JSON), scanning without recursion; stops past `limit`. */
export function nesting(bytes: Uint8Array, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === 0x5c) i++; // a backslash escapes the next byte; no escape continues past it
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x7b || byte === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (byte === 0x7d || byte === 0x5d) {
      depth--;
    }
  }
  return deepest;
}

interface SourceContext {
  source?: string;
}

/** A number as JSON writes one, where a value may stand (after `:`, `,` or `[`, before `,`, `}` or `]`). */
const NUMBER_TOKEN = /(?:^|[:,[])\s*(-?[0-9][0-9.eE+-]*)\s*(?=[,}\]]|$)/g;

/**
 * Number text that JSON.parse alone cannot write back as Python does: an exponent, a float with an
 * integral value (1.0), a float Python writes with an exponent (0.00001), or more digits than a
 * double keeps exactly (an integer past 2^53, a long fraction). Any other number is an integer,
 * or a float whose shortest digits JS and Python print alike.
 */
const AMBIGUOUS = /[eE]|\.0*$|\.0000|[0-9.]{16,}/;

/**
 * Whether the text can be parsed without noting floats: no number in it is ambiguous. The test
 * reads number-like text inside strings too ("ratio:1.0,"), which only sends a body to the slower
 * parse; it never lets an ambiguous number through. JSON.parse with a reviver that reads each
 * value's source costs workerd about a fifth of a 300-operation request.
 */
export function plainNumbers(text: string): boolean {
  for (const match of text.matchAll(NUMBER_TOKEN)) if (AMBIGUOUS.test(match[1]!)) return false;
  return true;
}

/**
 * Parses UTF-8 JSON bytes, refusing more than MAX_DEPTH levels; notes the numbers spelled as
 * floats, and the integers past 2^53 - 1 (`floats.refuseUnsafe()` refuses those no float field took).
 */
export function parseJson(bytes: Uint8Array, floats: Floats): unknown {
  if (nesting(bytes, MAX_DEPTH) > MAX_DEPTH) {
    throw new BadJson(`the body nests arrays and objects more than ${MAX_DEPTH} deep`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new BadJson("the body is not valid UTF-8 JSON");
  }
  const escaped = ESCAPED_SURROGATE.test(text); // raw bytes of one were refused by the decoder
  if (plainNumbers(text)) {
    let plain: unknown;
    try {
      plain = JSON.parse(text);
    } catch {
      throw new BadJson("the body is not valid UTF-8 JSON");
    }
    return escaped ? wellFormed(plain) : plain;
  }
  // The reviver's third argument gives each primitive's source text (workerd's V8 has it).
  function note(this: object, key: string, value: unknown, context?: SourceContext): unknown {
    if (typeof value === "number" && context?.source !== undefined) {
      if (/[.eE]/.test(context.source)) floats.mark(this, key);
      else if (!Number.isSafeInteger(value)) floats.markUnsafe(this, key, context.source);
    }
    return value;
  }
  let value: unknown;
  try {
    value = JSON.parse(text, note as (key: string, value: unknown) => unknown);
  } catch {
    throw new BadJson("the body is not valid UTF-8 JSON");
  }
  return escaped ? wellFormed(value) : value;
}

/** A `\uD800`-`\uDFFF` escape: half of a pair, or a lone surrogate, which JSON.parse accepts. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
/** A code point in the surrogate range: in `u` mode, a pair is one code point above it. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * `value`, unless one of its strings (or keys) holds a lone surrogate: that is no text. D1 would
 * store it as invalid UTF-8 while the audit hash reads it as U+FFFD, so the chain would break
 * for good. Python's JSON reader refuses such a string too.
 */
function wellFormed(value: unknown): unknown {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (LONE_SURROGATE.test(item)) throw new BadJson("a string holds a lone surrogate (\\uD800-\\uDFFF without its pair): it is not text");
    } else if (Array.isArray(item)) {
      pending.push(...item);
    } else if (item !== null && typeof item === "object") {
      for (const [key, inner] of Object.entries(item)) pending.push(key, inner);
    }
  }
  return value;
}

/** A float as Python's repr writes it: shortest round-trip digits, always a point or exponent. */
export function pythonFloat(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  // JS and Python agree on the shortest digits; they differ only in where they put them.
  const [coefficient = "", exponent = "0"] = Math.abs(x).toString().split("e");
  const [whole = "", fraction = ""] = coefficient.split(".");
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  const leading = digits.length - digits.replace(/^0+/, "").length;
  digits = digits.slice(leading).replace(/0+$/, "");
  point -= leading;
  const power = point - 1; // x = d.ddd * 10^power
  if (power >= -4 && power < 16) {
    if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
    const integral = digits.slice(0, point).padEnd(point, "0");
    return `${sign}${integral}.${digits.slice(point) || "0"}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const magnitude = String(Math.abs(power)).padStart(2, "0");
  return `${sign}${mantissa}e${power < 0 ? "-" : "+"}${magnitude}`;
}

// A key holding a surrogate (a character past U+FFFF) is where UTF-16 order and code point order part.
const SURROGATE = /[\uD800-\uDFFF]/;

function sortedKeys(keys: string[]): string[] {
  // Python sorts by code point; JS's default sort compares UTF-16 units, which is the same order
  // as long as no key holds a surrogate.
  if (!keys.some((key) => SURROGATE.test(key))) return keys.sort();
  return keys.sort((a, b) => {
    const [x, y] = [[...a], [...b]];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const diff = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
      if (diff !== 0) return diff;
    }
    return x.length - y.length;
  });
}

/** An object's keys in canonical order, each with its JSON text. */
interface Layout {
  keys: string[];
  sorted: string[];
  quoted: string[];
}

/**
 * JSON text with sorted keys and no spaces, byte for byte what Python's canonical_json writes for
 * the same parsed value. Numbers marked in `floats` are written as Python floats. `value` must
 * come from parseJson (or be as shallow): the depth was bounded there.
 */
export function canonicalJson(value: unknown, floats?: Floats): string {
  // The operations of a batch share a few shapes: each shape's key order is worked out once per call.
  const layouts = new Map<string, Layout>();
  const layoutOf = (record: object): Layout => {
    const keys = Object.keys(record);
    const shape = keys.join(",");
    const known = layouts.get(shape);
    if (known && known.keys.length === keys.length && known.keys.every((key, i) => key === keys[i])) return known;
    const sorted = sortedKeys([...keys]);
    const layout = { keys, sorted, quoted: sorted.map((key) => JSON.stringify(key)) };
    layouts.set(shape, layout);
    return layout;
  };
  const write = (item: unknown, float: boolean): string => {
    if (typeof item === "number" && float) return pythonFloat(item);
    if (Array.isArray(item)) {
      const marks = floats?.keysOf(item);
      let out = "[";
      for (let i = 0; i < item.length; i++) {
        if (i > 0) out += ",";
        out += write(item[i], marks?.has(String(i)) ?? false);
      }
      return out + "]";
    }
    if (item !== null && typeof item === "object") {
      const record = item as Record<string, unknown>;
      const marks = floats?.keysOf(record);
      const { sorted, quoted } = layoutOf(record);
      let out = "{";
      for (let i = 0; i < sorted.length; i++) {
        const key = sorted[i]!;
        if (i > 0) out += ",";
        out += quoted[i] + ":" + write(record[key], marks?.has(key) ?? false);
      }
      return out + "}";
    }
    return JSON.stringify(item) ?? "null";
  };
  return write(value, false);
}

/** The SHA-256 of `text` (UTF-8), in lower-case hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
