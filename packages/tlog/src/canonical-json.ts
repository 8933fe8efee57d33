/**
 * Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, numbers and strings as
 * JSON.stringify writes them — the same bytes RFC 8785 (JCS) gives for these values. Hashes and commitments
 * are taken over these bytes, so a record has exactly one encoding.
 *
 * bigint (money in paise) is written as its exact decimal digits, so a record read back with JSON.parse
 * gives the same text while amounts stay below 2^53 paise.
 */

export type JsonValue =
  null | boolean | number | bigint | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Records are shallow; the bound keeps a hostile value from exhausting the stack. */
const MAX_DEPTH = 32;

export function canonicalJson(value: JsonValue): string {
  return write(value, 0);
}

function write(value: JsonValue, depth: number): string {
  if (depth > MAX_DEPTH) throw new RangeError('value nested too deeply for canonical JSON');
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError('canonical JSON has no NaN or Infinity');
      return JSON.stringify(value);
    case 'bigint':
      return value.toString(10);
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        return `[${(value as readonly JsonValue[]).map((item) => write(item, depth + 1)).join(',')}]`;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) {
        throw new TypeError('canonical JSON takes plain objects only (no Date, Map or byte arrays)');
      }
      const record = value as { readonly [key: string]: JsonValue };
      const keys = Object.keys(record).sort();
      return `{${keys
        .map((key) => {
          const item = record[key];
          if (item === undefined) throw new TypeError(`field ${JSON.stringify(key)} is undefined`);
          return `${JSON.stringify(key)}:${write(item, depth + 1)}`;
        })
        .join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON cannot encode a ${typeof value}`);
  }
}
