// por-cbor/1 encoder (SPEC §2) for the JSON data model of the vectors: integers
// (safe JS integers), text, booleans, arrays and maps with text keys. Written from
// SPEC.md alone.

const utf8 = new TextEncoder();

function head(major, n) {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`head argument ${n} out of range`);
  const ib = major << 5;
  if (n < 24) return [ib | n];
  if (n < 0x100) return [ib | 24, n];
  if (n < 0x10000) return [ib | 25, n >> 8, n & 0xff];
  if (n < 0x100000000) return [ib | 26, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const big = BigInt(n);
  const out = [ib | 27];
  for (let shift = 56n; shift >= 0n; shift -= 8n) out.push(Number((big >> shift) & 0xffn));
  return out;
}

function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function parts(value) {
  if (value === true) return [0xf5];
  if (value === false) return [0xf4];
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = utf8.encode(value);
    return [...head(3, bytes.length), ...bytes];
  }
  if (Array.isArray(value)) return [...head(4, value.length), ...value.flatMap(parts)];
  if (value !== null && typeof value === 'object') {
    // Rule 2: keys in the bytewise order of their encodings.
    const entries = Object.keys(value).map((k) => [parts(k), parts(value[k])]);
    entries.sort((x, y) => compareBytes(x[0], y[0]));
    return [...head(5, entries.length), ...entries.flatMap(([k, v]) => [...k, ...v])];
  }
  throw new Error(`no por-cbor/1 form for ${value}`); // null does not exist (rule 3)
}

export function encodeHex(value) {
  return Buffer.from(parts(value)).toString('hex');
}
