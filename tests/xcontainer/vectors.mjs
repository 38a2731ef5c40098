// Runs this decoder over SPEC §2's vectors (fixtures/vectors/encoding.json) and
// SPEC §3.6's RFC 6962 known answers; prints one JSON line with the counts.
// Usage: node tests/xcontainer/vectors.mjs [REPO_ROOT]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode, CodecError } from './cbor.mjs';
import { mth, hex, Tree, rootFromPath } from './container.mjs';

const root = process.argv[2] ?? '.';
const doc = JSON.parse(readFileSync(join(root, 'fixtures/vectors/encoding.json'), 'utf8'));

function typed(v) {
  if (typeof v === 'bigint') return { int: v.toString() };
  if (v instanceof Uint8Array) return { bytes: hex(v) };
  if (typeof v === 'string') return { text: v };
  if (typeof v === 'boolean') return { bool: v };
  if (Array.isArray(v)) return { array: v.map(typed) };
  if (v instanceof Map) return { map: [...v].map(([k, x]) => [k, typed(x)]) };
  throw new Error(`unexpected value ${v}`);
}

const failures = [];
let valid = 0;
let invalid = 0;
for (const vec of doc.valid) {
  try {
    const got = typed(decode(Buffer.from(vec.hex, 'hex')));
    if (JSON.stringify(got) !== JSON.stringify(vec.value)) failures.push({ id: vec.id, got });
    else valid += 1;
  } catch (e) {
    failures.push({ id: vec.id, error: e.checkId ?? String(e) });
  }
}
for (const vec of doc.invalid) {
  const opts = {};
  if (vec.options?.max_size !== undefined) opts.maxSize = vec.options.max_size;
  if (vec.options?.max_depth !== undefined) opts.maxDepth = vec.options.max_depth;
  for (const k of ['max_size', 'max_depth']) {
    if (vec[k] !== undefined) opts[k === 'max_size' ? 'maxSize' : 'maxDepth'] = vec[k];
  }
  try {
    decode(Buffer.from(vec.hex, 'hex'), opts);
    failures.push({ id: vec.id, expected: vec.check_id, got: 'accepted' });
  } catch (e) {
    if (!(e instanceof CodecError)) failures.push({ id: vec.id, expected: vec.check_id, got: String(e) });
    else if (e.checkId !== vec.check_id) failures.push({ id: vec.id, expected: vec.check_id, got: e.checkId });
    else invalid += 1;
  }
}

// RFC 6962 known answers (SPEC §3.6): roots of the first n standard inputs,
// and inclusion paths built by Tree.path and checked by rootFromPath.
const merkle = JSON.parse(readFileSync(join(root, 'fixtures/vectors/merkle-rfc6962.json'), 'utf8'));
const inputs = merkle.tree.leaf_inputs.map((h) => Buffer.from(h, 'hex'));
let roots = 0;
merkle.tree.roots.forEach((r, i) => {
  const want = typeof r === 'string' ? r : r.root;
  const n = typeof r === 'string' ? i + 1 : r.tree_size ?? r.size;
  if (hex(mth(inputs.slice(0, n))) === want) roots += 1;
  else failures.push({ merkle_root: n });
});
let paths = 0;
for (const v of merkle.inclusion) {
  const t = new Tree(inputs.slice(0, v.tree_size));
  const path = t.path(v.leaf_index).map(hex);
  const got = rootFromPath(BigInt(v.leaf_index), BigInt(v.tree_size), Buffer.from(v.leaf_hash, 'hex'),
    v.proof.map((h) => Buffer.from(h, 'hex')));
  if (JSON.stringify(path) === JSON.stringify(v.proof) && got && hex(got) === v.root) paths += 1;
  else failures.push({ inclusion: [v.leaf_index, v.tree_size] });
}
let probes = 0;
for (const v of merkle.probes.inclusion) {
  const got = rootFromPath(BigInt(v.leaf_index), BigInt(v.tree_size), Buffer.from(v.leaf_hash, 'hex'),
    v.proof.map((h) => Buffer.from(h, 'hex')));
  const accepted = got !== null && hex(got) === v.root;
  if (accepted === !v.want_error) probes += 1;
  else failures.push({ probe: v.file });
}

console.log(JSON.stringify({ valid, invalid, merkle_roots: roots, paths, probes, failures: failures.slice(0, 20),
  failure_count: failures.length }));
process.exitCode = failures.length ? 1 : 0;
