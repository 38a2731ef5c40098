// Strict por-cbor/1 decoder (SPEC §2), written from SPEC.md alone.
//
// Values: integers are BigInt, byte strings Uint8Array, text strings string,
// arrays Array, maps Map (insertion order = wire order), true/false boolean.
// Every rejection throws CodecError whose .checkId is one of SPEC §2's ids.

export const MAX_SIZE = 64 * 1024 * 1024; // the record cap (SPEC §2)
export const MAX_DEPTH = 32; // SPEC §2
export const MAX_CONTAINERS = 1_000_000; // arrays and maps per input (SPEC §5.1, §18.5)

export class CodecError extends Error {
  constructor(checkId, message, offset) {
    super(`${checkId}: ${message} (offset ${offset})`);
    this.checkId = checkId;
    this.offset = offset;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

class Parser {
  constructor(buf, maxDepth) {
    this.buf = buf;
    this.pos = 0;
    this.maxDepth = maxDepth;
    this.containers = 0;
  }

  fail(checkId, message, offset = this.pos) {
    throw new CodecError(checkId, message, offset);
  }

  // Reads one head. Returns {major, ai, arg (BigInt), start}. `keyPosition`
  // applies the map-key rule (a key that is not a text string).
  head(keyPosition) {
    const start = this.pos;
    if (this.pos >= this.buf.length) this.fail('codec.truncated', 'input ends before an item');
    const ib = this.buf[this.pos];
    const major = ib >> 5;
    const ai = ib & 0x1f;
    if (ai >= 28 && ai <= 30) this.fail('codec.reserved', `reserved additional information ${ai}`);
    if (ai === 31) {
      if (major >= 2 && major <= 5) this.fail('codec.indefinite', 'indefinite length');
      this.fail('codec.reserved', 'break byte or ai 31');
    }
    if (keyPosition && major !== 3) this.fail('codec.key_type', 'map key is not a text string');
    if (major === 6) this.fail('codec.tag', 'tags are not allowed');
    if (major === 7) {
      if (ai === 20 || ai === 21) {
        this.pos += 1;
        return { major, ai, arg: BigInt(ai), start };
      }
      if (ai >= 25 && ai <= 27) this.fail('codec.float', 'floats are not allowed');
      this.fail('codec.simple', 'simple values other than true/false are not allowed');
    }
    this.pos += 1;
    if (ai < 24) return { major, ai, arg: BigInt(ai), start };
    const len = 1 << (ai - 24); // 1, 2, 4, 8
    if (this.pos + len > this.buf.length) this.fail('codec.truncated', 'head argument cut', start);
    let arg = 0n;
    for (let i = 0; i < len; i++) arg = (arg << 8n) | BigInt(this.buf[this.pos + i]);
    this.pos += len;
    const minimum = [24n, 256n, 65536n, 4294967296n][ai - 24];
    if (arg < minimum) this.fail('codec.non_canonical', 'head not in shortest form', start);
    return { major, ai, arg, start };
  }

  bytesLeft() {
    return this.buf.length - this.pos;
  }

  take(length, start) {
    if (length > BigInt(this.bytesLeft())) this.fail('codec.truncated', 'length beyond the input', start);
    const n = Number(length);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  text(bytes, start) {
    try {
      return utf8.decode(bytes);
    } catch {
      return this.fail('codec.invalid_utf8', 'text is not valid UTF-8', start);
    }
  }

  // Iterative would be needed for 10^6-deep input; depth is capped at 32, so
  // recursion is bounded.
  item(depth) {
    const h = this.head(false);
    return this.body(h, depth);
  }

  body(h, depth) {
    switch (h.major) {
      case 0:
        return h.arg;
      case 1:
        return -1n - h.arg;
      case 2:
        return Uint8Array.from(this.take(h.arg, h.start));
      case 3:
        return this.text(this.take(h.arg, h.start), h.start);
      case 4:
      case 5: {
        const d = depth + 1;
        if (d > this.maxDepth) this.fail('codec.depth', `nesting deeper than ${this.maxDepth}`, h.start);
        const perItem = h.major === 4 ? 1n : 2n;
        if (h.arg * perItem > BigInt(this.bytesLeft())) {
          this.fail('codec.truncated', 'count beyond the input', h.start);
        }
        this.containers += 1;
        if (this.containers > MAX_CONTAINERS) this.fail('codec.too_large', 'too many arrays and maps', h.start);
        const n = Number(h.arg);
        if (h.major === 4) {
          const out = [];
          for (let i = 0; i < n; i++) out.push(this.item(d));
          return out;
        }
        const out = new Map();
        let previous = null;
        for (let i = 0; i < n; i++) {
          const kh = this.head(true);
          const raw = this.take(kh.arg, kh.start);
          const encoded = this.buf.subarray(kh.start, this.pos);
          if (previous !== null) {
            const c = compareBytes(previous, encoded);
            if (c === 0) this.fail('codec.duplicate_key', 'the same key twice', kh.start);
            if (c > 0) this.fail('codec.key_order', 'keys not in canonical order', kh.start);
          }
          previous = encoded;
          const key = this.text(raw, kh.start);
          out.set(key, this.item(d));
        }
        return out;
      }
      case 7:
        return h.ai === 21; // head() admits only f4 (false) and f5 (true)
      default:
        return this.fail('codec.tag', 'unexpected major type', h.start);
    }
  }
}

// Decodes exactly one por-cbor/1 item filling `buf`.
export function decode(buf, { maxSize = MAX_SIZE, maxDepth = MAX_DEPTH } = {}) {
  const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
  if (bytes.length === 0) throw new CodecError('codec.empty', 'no bytes', 0);
  if (bytes.length > maxSize) throw new CodecError('codec.too_large', `more than ${maxSize} bytes`, 0);
  const p = new Parser(bytes, maxDepth);
  const value = p.item(0);
  if (p.pos !== bytes.length) p.fail('codec.trailing_bytes', 'bytes after the top-level item');
  return value;
}

export { compareBytes };
