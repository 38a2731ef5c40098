// The word encodings of the chain forms (docs/spec-forms-draft.md section 1), written
// from the draft's text alone. Values are as tests/xcontainer/cbor.mjs decodes them:
// integers BigInt, texts string, byte strings Uint8Array, arrays Array, maps Map (wire
// order), booleans boolean. Every "no form" throws FormNone (check id `form.none`).
import { createHash } from 'node:crypto';

export class FormNone extends Error {
  constructor(why) {
    super(`form.none: ${why}`);
    this.checkId = 'form.none';
  }
}

export function none(why) {
  throw new FormNone(why);
}

const utf8 = new TextEncoder();
const TWO_64 = 1n << 64n;

export function sha256(...parts) {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

// One 32-byte word holding `n` (0 <= n < 2^256) big-endian.
function word(n) {
  const out = new Uint8Array(32);
  let v = n;
  for (let i = 31; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

// Bytes zero-padded to a whole number of words (no padding word for a multiple of 32).
function padded(bytes) {
  const out = new Uint8Array(Math.ceil(bytes.length / 32) * 32);
  out.set(bytes);
  return out;
}

function isInt(v) {
  return typeof v === 'bigint';
}

// A form under construction: a list of byte chunks, each a whole number of words.
export class Form {
  constructor(tag) {
    this.parts = [];
    this.W(BigInt(tag));
  }

  push(bytes) {
    this.parts.push(bytes);
    return this;
  }

  bytes() {
    return Buffer.concat(this.parts);
  }

  // W(n): 0 <= n < 2^64, a CBOR integer (not a boolean).
  W(n, what = 'integer') {
    if (!isInt(n) || n < 0n || n >= TWO_64) none(`${what} is not an integer in 0..2^64-1`);
    return this.push(word(n));
  }

  // W(n) with a range the record rules fix (section 1's "a valid record").
  Wr(n, lo, hi, what) {
    if (!isInt(n) || n < lo || n > hi) none(`${what} is not an integer in ${lo}..${hi}`);
    return this.push(word(n));
  }

  B(b, what = 'boolean') {
    if (typeof b !== 'boolean') none(`${what} is not a boolean`);
    return this.push(word(b ? 1n : 0n));
  }

  // E(x): `codes` maps each text of the set to its code.
  E(x, codes, what = 'enum') {
    if (typeof x !== 'string' || !codes.has(x)) none(`${what} is not in its set`);
    return this.push(word(BigInt(codes.get(x))));
  }

  H(t, what = 'text') {
    if (typeof t !== 'string') none(`${what} is not a text`);
    return this.push(sha256(utf8.encode(t)));
  }

  T(t, what = 'text') {
    if (typeof t !== 'string') none(`${what} is not a text`);
    const bytes = utf8.encode(t);
    this.push(word(BigInt(bytes.length)));
    return bytes.length ? this.push(padded(bytes)) : this;
  }

  D(d, what = 'decimal') {
    const { sign, scale, digits } = decimalParts(d, what);
    const head = (BigInt(sign) << 255n) | (BigInt(scale) << 232n) | BigInt(digits.length);
    return this.push(word(head)).push(padded(utf8.encode(digits)));
  }

  B32(h, what = 'hash') {
    if (!(h instanceof Uint8Array) || h.length !== 32) none(`${what} is not 32 bytes`);
    return this.push(Uint8Array.from(h));
  }

  // V_k(v) for kind text k.
  V(kind, v, what = 'value') {
    switch (kind) {
      case 'numeric':
        return this.D(v, what);
      case 'boolean':
        return this.B(v, what);
      case 'timestamp':
        return this.W(v, what);
      case 'text':
        return this.H(v, what); // SPEC §5.6.1: a text value is only compared
      default:
        return none(`${what} has no kind`);
    }
  }

  // L[X]: `each(form, element, index)` writes one element.
  L(list, each, what = 'list') {
    if (!Array.isArray(list)) none(`${what} is not an array`);
    this.W(BigInt(list.length));
    list.forEach((x, i) => each(this, x, i));
    return this;
  }

  // P[X]: `value` undefined is absent.
  P(value, each) {
    if (value === undefined) return this.W(0n);
    this.W(1n);
    each(this, value);
    return this;
  }

  // O(n): fixed width; `each` writes the one present word (W or B).
  O(value, each) {
    if (value === undefined) return this.W(0n).W(0n);
    this.W(1n);
    each(this, value);
    return this;
  }

  // Z(n): W(n), or W(0) when absent; a present value outside 1..hi has no form (a
  // present 0: decision 15; above hi: SPEC_GAPS.md, gap 3).
  Z(n, what = 'optional integer', hi = TWO_64 - 1n) {
    if (n === undefined) return this.W(0n);
    return this.Wr(n, 1n, hi, what);
  }

  // R(m, K): the rest word of an open map.
  R(m, named, what = 'map') {
    if (!(m instanceof Map)) none(`${what} is not a map`);
    const rest = new Map([...m].filter(([k]) => !named.includes(k)));
    return this.push(rest.size ? sha256(encode(rest)) : word(0n));
  }
}

// §3.2: -?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?, not -0, at most 64 characters.
const DECIMAL = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]*[1-9]))?$/;

export function decimalParts(d, what = 'decimal') {
  if (typeof d !== 'string') none(`${what} is not a text`);
  const m = DECIMAL.exec(d);
  if (!m || d.length > 64 || d === '-0') none(`${what} is not a canonical decimal`);
  const fraction = m[3] ?? '';
  const digits = (m[2] + fraction).replace(/^0+(?=.)/, '');
  return { sign: m[1] ? 1 : 0, scale: fraction.length, digits };
}

// por-cbor/1 (SPEC §2) of a decoded value; maps keep their (canonical) wire order, and
// a subset of a canonical map is canonical (draft section 1, "Closed and open maps").
function head(major, n) {
  const ib = major << 5;
  if (n < 24n) return [ib | Number(n)];
  const width = n < 0x100n ? 1 : n < 0x10000n ? 2 : n < 0x100000000n ? 4 : 8;
  const out = [ib | (24 + Math.log2(width))];
  for (let i = width - 1; i >= 0; i--) out.push(Number((n >> BigInt(8 * i)) & 0xffn));
  return out;
}

export function encode(v) {
  const out = [];
  const add = (bytes) => {
    for (const byte of bytes) out.push(byte); // no spread: a long text would overflow it
  };
  const walk = (x) => {
    if (x === true || x === false) out.push(x ? 0xf5 : 0xf4);
    else if (isInt(x)) add(x >= 0n ? head(0, x) : head(1, -1n - x));
    else if (typeof x === 'string') {
      const b = utf8.encode(x);
      add(head(3, BigInt(b.length)));
      add(b);
    } else if (x instanceof Uint8Array) {
      add(head(2, BigInt(x.length)));
      add(x);
    } else if (Array.isArray(x)) {
      add(head(4, BigInt(x.length)));
      x.forEach(walk);
    } else if (x instanceof Map) {
      add(head(5, BigInt(x.size)));
      for (const [k, y] of x) {
        walk(k);
        walk(y);
      }
    } else throw new Error(`no por-cbor/1 form for ${x}`);
  };
  walk(v);
  return Uint8Array.from(out);
}

// Reading a record: a map, a key that may be absent, a required key.
export function asMap(v, what) {
  if (!(v instanceof Map)) none(`${what} is not a map`);
  return v;
}

export function opt(m, key, what = key) {
  return asMap(m, what).get(key);
}

export function req(m, key, what = key) {
  const v = opt(m, key, what);
  if (v === undefined) none(`${what} is absent`);
  return v;
}

// A key with a default (draft section 6, decision 13): absent reads as the default.
export function dflt(m, key, value) {
  const v = opt(m, key);
  return v === undefined ? value : v;
}
