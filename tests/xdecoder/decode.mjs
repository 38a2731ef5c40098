// Independent strict decoder for the por-cbor/1 cross-implementation check
// (BAD_INPUTS.md group 24).
//
// Reads one hex string per line on stdin; prints one line per input line:
// "accept" or "reject <reason>".  An empty line is the empty input.
//
// Uses the npm package cbor2 (hildjj/cbor2) with its CDE decode options
// (draft-ietf-cbor-cde: rejectStreaming, requirePreferred, keys in
// core-deterministic order) plus rejectDuplicateKeys, rejectFloats,
// rejectSimple, rejectUndefined and rejectBigInts; every tag stays an
// uninterpreted Tag (ignoreGlobalTags), and the decoded value is walked for
// the por-cbor/1 data model: integers in [-2^64, 2^64-1], byte strings,
// strings, arrays, maps with string keys, true/false, depth <= 32.
import { createInterface } from 'node:readline';
import { decode } from 'cbor2';

const MAX_DEPTH = 32; // por.encoding.DEFAULT_MAX_DEPTH
const INT_MIN = -(2n ** 64n);
const INT_MAX = 2n ** 64n - 1n;

const OPTIONS = {
  cde: true,
  rejectStreaming: true,
  requirePreferred: true,
  rejectDuplicateKeys: true,
  rejectFloats: true,
  rejectLongFloats: true,
  rejectSimple: true,
  rejectUndefined: true,
  rejectBigInts: true,
  ignoreGlobalTags: true,
  preferMap: true,
  boxed: false,
  // cbor2 2.3.0 counts two levels per nested array and one per map (found
  // by probing), so 2 * MAX_DEPTH + slack lets the walk below judge depth
  // while keeping the decoder's own recursion bounded.
  maxDepth: 2 * MAX_DEPTH + 8,
};

// Return null if the value is in the data model, else a reason.
function walk(value, depth) {
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return null;
    case 'number':
      return Number.isSafeInteger(value) ? null : `non-integer number ${value}`;
    case 'bigint':
      return value >= INT_MIN && value <= INT_MAX ? null : 'integer out of range';
    case 'object':
      break;
    default:
      return `type ${typeof value}`;
  }
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return null;
  const isArray = Array.isArray(value);
  if (!isArray && !(value instanceof Map)) {
    return `object ${value.constructor?.name ?? 'unknown'}`;
  }
  if (depth + 1 > MAX_DEPTH) return 'depth';
  if (isArray) {
    for (const item of value) {
      const why = walk(item, depth + 1);
      if (why) return why;
    }
    return null;
  }
  for (const [key, item] of value) {
    if (typeof key !== 'string') return 'non-text key';
    const why = walk(item, depth + 1);
    if (why) return why;
  }
  return null;
}

function judge(hex) {
  if (hex.length === 0) return 'reject empty';
  let value;
  try {
    value = decode(Buffer.from(hex, 'hex'), OPTIONS);
  } catch (err) {
    // Messages may quote decoded text: keep the line printable ASCII.
    return `reject ${String(err && err.message).replace(/[^\x20-\x7e]/g, '?')}`;
  }
  const why = walk(value, 0);
  return why ? `reject ${why}` : 'accept';
}

const out = [];
const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  out.push(judge(line.trim()));
}
process.stdout.write(out.length ? `${out.join('\n')}\n` : '');
