// Committed bundles, one container (SPEC §5.3-§5.5, §15.2.5, §16.5): an
// independent implementation written from SPEC.md alone.
//
// check(bytes) opens a PoR, judgement or court bundle: strict decode of the
// bundle and of every record (SPEC §2), recomputation of every commitment and
// of the top root from the record bytes (SPEC §3.6, §5.4), comparison with the
// committed values, and a two-level component proof for every record
// (record -> component root -> top root), each checked as RFC 9162 §2.1.3.2.
import { createHash } from 'node:crypto';
import { decode, CodecError } from './cbor.mjs';

// ---------------------------------------------------------------- hashing
export function H(...parts) {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}
const ZERO = Uint8Array.of(0);
const ONE = Uint8Array.of(1);
export const leafHash = (d) => H(ZERO, d); // LH
export const nodeHash = (l, r) => H(ONE, l, r); // NH
export const hex = (b) => Buffer.from(b).toString('hex');
const equalBytes = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

// Largest power of two strictly smaller than n (n > 1).
function split(n) {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

// A Merkle tree over leaf *data* (SPEC §3.6). Subtree hashes are memoised by
// range, so MTH and every PATH together cost O(n log n).
export class Tree {
  // `hashed`: the leaves are given by their leaf hashes (SPEC §5.3, PoR's `forms`:
  // "MTH over the carried hashes taken as the tree's leaf hashes, no second LH").
  constructor(leaves, { hashed = false } = {}) {
    this.leaves = leaves;
    this.leafHashes = hashed ? leaves : leaves.map(leafHash);
    this.memo = new Map();
  }

  get size() {
    return this.leaves.length;
  }

  // MTH(D[a:b])
  hash(a = 0, b = this.leaves.length) {
    const n = b - a;
    if (n === 0) return H(new Uint8Array(0));
    if (n === 1) return this.leafHashes[a];
    const key = `${a}:${b}`;
    let h = this.memo.get(key);
    if (!h) {
      const k = split(n);
      h = nodeHash(this.hash(a, a + k), this.hash(a + k, b));
      this.memo.set(key, h);
    }
    return h;
  }

  // RFC 9162 §2.1.3.1 PATH(m, D[a:b]), sibling hashes from the leaf upwards.
  path(m, a = 0, b = this.leaves.length) {
    const n = b - a;
    if (n <= 1) return [];
    const k = split(n);
    if (m < k) return [...this.path(m, a, a + k), this.hash(a + k, b)];
    return [...this.path(m - k, a + k, b), this.hash(a, a + k)];
  }
}

export const mth = (leaves) => new Tree(leaves).hash();

// RFC 9162 §2.1.3.2: the root an inclusion proof gives, or null when the
// proof cannot verify (index out of range, wrong length, bad hash length).
export function rootFromPath(index, size, leafH, proof) {
  if (!(size > 0n) || !(index < size)) return null; // merkle.index_range
  if (leafH.length !== 32 || proof.some((p) => p.length !== 32)) return null; // merkle.hash_length
  let fn = BigInt(index);
  let sn = BigInt(size) - 1n;
  let r = leafH;
  for (const p of proof) {
    if (sn === 0n) return null; // merkle.proof_length (too long)
    if ((fn & 1n) === 1n || fn === sn) {
      r = nodeHash(p, r);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  if (sn !== 0n) return null; // merkle.proof_length (too short)
  return r;
}

// ---------------------------------------------------------------- families
// SPEC §5.5's table. `field` is the bundle key; `name` prefixes the commitment
// (`<name>_hash` for one record, `<name>_root`/`<name>_count` for a list).
// `record` is the schema every record of the component must name.
// `hashes`: a list of 32-byte leaf hashes (SPEC §5.5), no records to decode.
// SPEC §5.1: a `por.Bundle/1` is unsupported (`schema.unsupported_bundle`).
export const UNSUPPORTED = { 'por.Bundle/1': 'schema.unsupported_bundle' };
export const FAMILIES = {
  'por.Bundle/2': {
    top: 'por_root',
    failure: (field) => `commit.${field}`,
    extraKeys: ['signatures'],
    // SPEC §18.4: records are validated in this order; steps are decoded only
    // after the commitments (§6.2 step 2 and §17.3: replay compares their bytes).
    openOrder: ['manifest', 'trace_header', 'prompt_spec', 'evidence', 'verdict'],
    deferred: ['reasoning'],
    components: [
      { name: 'manifest', field: 'manifest', list: false, record: 'por.Manifest/1' },
      { name: 'prompt_spec', field: 'prompt_spec', list: false, record: 'por.PromptSpec/1' },
      { name: 'evidence', field: 'evidence', list: true, record: 'por.EvidenceItem/1' },
      { name: 'trace_header', field: 'trace_header', list: false, record: 'por.TraceHeader/1' },
      { name: 'reasoning', field: 'steps', list: true, record: 'por.ReasoningStep/1' },
      { name: 'verdict', field: 'verdict', list: false, record: 'por.DeterministicVerdict/1' },
      { name: 'forms', field: 'forms', list: true, hashes: true },
    ],
    // SPEC §5.1, §6.2 step 2, §18.4: `forms` holds r + s + 2 hashes (r requirements
    // of the PromptSpec, s steps), checked after the records of the first pass.
    countCheck: (value, records) => {
      const r = records.get('prompt_spec')?.get('data_requirements');
      if (!Array.isArray(r)) return null;
      const want = r.length + value.get('steps').length + 2;
      return value.get('forms').length === want ? null : 'schema.forms_count';
    },
  },
  'por.JudgementBundle/1': {
    top: 'judgement_root',
    failure: () => 'judgement.commit_mismatch',
    extraKeys: ['signatures'],
    components: [
      { name: 'manifest', field: 'manifest', list: false, record: 'por.JudgeManifest/1' },
      { name: 'subjects', field: 'subjects', list: true, record: 'por.JudgeSubject/1' },
      { name: 'calls', field: 'calls', list: true, record: 'por.JudgeCall/1' },
      { name: 'votes', field: 'votes', list: true, record: 'por.JudgeVote/1' },
      { name: 'report', field: 'report', list: false, record: 'por.JudgeBatchReport/1' },
    ],
  },
  'por.CourtBundle/1': {
    top: 'court_root',
    failure: () => 'court.commit_mismatch',
    extraKeys: [],
    components: [
      { name: 'case', field: 'case', list: false, record: 'por.DisputeCase/1' },
      { name: 'rule', field: 'rule', list: false, record: 'por.CourtRule/1' },
      { name: 'panel', field: 'panel', list: true, record: 'por.JudgeManifest/1' },
      { name: 'calls', field: 'calls', list: true, record: 'por.JudgeCall/1' },
      { name: 'votes', field: 'votes', list: true, record: 'por.CourtVote/1' },
      { name: 'rulings', field: 'rulings', list: true, record: 'por.CourtRuling/1' },
    ],
  },
};

// The commitment fields of a family, in comparison order: per component,
// hash or (root, count), then the top root.
export function commitmentFields(family) {
  const out = [];
  for (const c of family.components) {
    if (c.list) out.push({ field: `${c.name}_root`, type: 'hash' }, { field: `${c.name}_count`, type: 'count' });
    else out.push({ field: `${c.name}_hash`, type: 'hash' });
  }
  out.push({ field: family.top, type: 'hash' });
  return out;
}

// root (32 bytes) || uint64_be(size)
export function componentLeaf(root, size) {
  const out = new Uint8Array(40);
  out.set(root, 0);
  new DataView(out.buffer).setBigUint64(32, BigInt(size), false);
  return out;
}

class OpenError extends Error {
  constructor(checkId, where, message) {
    super(`${checkId} at ${where}: ${message}`);
    this.checkId = checkId;
    this.where = where;
  }
}

const isBytes = (v) => v instanceof Uint8Array;
const U64_MAX = (1n << 64n) - 1n;

// Step (1) of the opening: the bundle map's shape.
function bundleShape(value) {
  if (!(value instanceof Map)) throw new OpenError('schema.type', 'bundle', 'not a map');
  const schema = value.get('schema');
  if (typeof schema === 'string' && schema in UNSUPPORTED) {
    throw new OpenError(UNSUPPORTED[schema], 'bundle', `schema ${schema} is no longer verified`);
  }
  if (typeof schema !== 'string' || !(schema in FAMILIES)) {
    throw new OpenError('schema.unknown_schema', 'bundle', `schema ${JSON.stringify(schema)}`);
  }
  const family = FAMILIES[schema];
  const keys = ['schema', 'commitments', ...family.extraKeys, ...family.components.map((c) => c.field)];
  for (const k of value.keys()) {
    if (!keys.includes(k)) throw new OpenError('schema.extra_field', k, 'unknown bundle key');
  }
  for (const k of keys) {
    if (!value.has(k)) throw new OpenError('schema.missing_field', k, 'missing bundle key');
  }
  for (const c of family.components) {
    const v = value.get(c.field);
    if (c.list ? !(Array.isArray(v) && v.every(isBytes)) : !isBytes(v)) {
      throw new OpenError('schema.type', c.field, c.list ? 'not a list of byte strings' : 'not a byte string');
    }
    if (c.hashes && !v.every((h) => h.length === 32)) {
      throw new OpenError('schema.value', c.field, 'an item is not a 32-byte hash');
    }
  }
  for (const k of family.extraKeys) {
    const v = value.get(k);
    if (!(Array.isArray(v) && v.every(isBytes))) throw new OpenError('schema.type', k, 'not a list of byte strings');
  }
  const commitments = value.get('commitments');
  if (!(commitments instanceof Map)) throw new OpenError('schema.type', 'commitments', 'not a map');
  const fields = commitmentFields(family);
  for (const k of commitments.keys()) {
    if (!fields.some((f) => f.field === k)) throw new OpenError('schema.extra_field', `commitments.${k}`, 'unknown');
  }
  for (const f of fields) {
    const v = commitments.get(f.field);
    const where = `commitments.${f.field}`;
    if (v === undefined) throw new OpenError('schema.missing_field', where, 'missing');
    if (f.type === 'hash' && !(isBytes(v) && v.length === 32)) {
      throw new OpenError(isBytes(v) ? 'schema.value' : 'schema.type', where, 'not a 32-byte hash');
    }
    if (f.type === 'count' && !(typeof v === 'bigint' && v >= 0n && v <= U64_MAX)) {
      throw new OpenError(typeof v === 'bigint' ? 'schema.value' : 'schema.type', where, 'not a count');
    }
  }
  return { schema, family, commitments };
}

// Step (2): every record decodes strictly and names its schema. (Field-level
// validation of each record type is outside this cross-check.) Components are
// opened in `names` order (default: committed order, a guess: SPEC_GAPS.md).
function openRecords(value, family, names, decoded = new Map()) {
  let records = 0;
  for (const name of names) {
    const c = family.components.find((x) => x.name === name);
    const raw = value.get(c.field);
    const list = c.list ? raw : [raw];
    list.forEach((bytes, i) => {
      const where = c.list ? `${c.field}[${i}]` : c.field;
      let rec;
      try {
        rec = decode(bytes);
      } catch (e) {
        if (e instanceof CodecError) throw new OpenError(e.checkId, where, e.message);
        throw e;
      }
      if (!(rec instanceof Map)) throw new OpenError('schema.type', where, 'record is not a map');
      if (rec.get('schema') !== c.record) {
        throw new OpenError('schema.unknown_schema', where, `expected ${c.record}, got ${rec.get('schema')}`);
      }
      if (!c.list) decoded.set(c.name, rec);
      records += 1;
    });
  }
  return records;
}

function openingOrder(family) {
  const all = family.components.filter((c) => !c.hashes).map((c) => c.name);
  const deferred = family.deferred ?? [];
  const first = family.openOrder ?? all.filter((n) => !deferred.includes(n));
  return { first, deferred };
}

// Step (3): recompute. Returns the component trees and recomputed values.
export function recompute(value, family) {
  const trees = family.components.map((c) => new Tree(c.list ? value.get(c.field) : [value.get(c.field)],
    { hashed: Boolean(c.hashes) }));
  const computed = new Map();
  const leaves = [];
  family.components.forEach((c, i) => {
    const t = trees[i];
    const root = t.hash();
    if (c.list) {
      computed.set(`${c.name}_root`, root);
      computed.set(`${c.name}_count`, BigInt(t.size));
    } else {
      computed.set(`${c.name}_hash`, root);
    }
    leaves.push(componentLeaf(root, t.size));
  });
  const top = new Tree(leaves);
  computed.set(family.top, top.hash());
  return { trees, top, computed };
}

// Two-level component proof of record `index` of component `ci`.
export function componentProof(rec, ci, index) {
  const tree = rec.trees[ci];
  return {
    component: ci,
    index,
    size: tree.size,
    leafHash: tree.leafHashes[index],
    path: tree.path(index),
    componentRoot: tree.hash(),
    componentCount: rec.top.size,
    componentPath: rec.top.path(ci),
  };
}

// Verifies a proof against a top root, using only the proof's own data.
export function verifyComponentProof(proof, topRoot) {
  const root = rootFromPath(BigInt(proof.index), BigInt(proof.size), proof.leafHash, proof.path);
  if (root === null) return false;
  const leaf = leafHash(componentLeaf(root, proof.size));
  const top = rootFromPath(BigInt(proof.component), BigInt(proof.componentCount), leaf, proof.componentPath);
  return top !== null && equalBytes(top, topRoot);
}

// Opens a committed bundle. Never throws for bad input.
export function check(bytes, { maxSize = 256 * 1024 * 1024 } = {}) {
  const out = {
    schema: null,
    ok: false,
    first_mismatch: null,
    check_id: null,
    where: null,
    top_root: null,
    committed_top_root: null,
    records: 0,
    proofs_checked: 0,
  };
  let value;
  try {
    value = decode(bytes, { maxSize });
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    out.check_id = e.checkId;
    out.where = 'bundle';
    return out;
  }
  if (value instanceof Map && typeof value.get('schema') === 'string') out.schema = value.get('schema');
  let opened;
  let order;
  try {
    opened = bundleShape(value);
    order = openingOrder(opened.family);
    const decoded = new Map();
    out.records = openRecords(value, opened.family, order.first, decoded);
    const counted = opened.family.countCheck?.(value, decoded);
    if (counted) throw new OpenError(counted, 'forms', 'wrong number of form hashes');
  } catch (e) {
    if (!(e instanceof OpenError)) throw e;
    out.check_id = e.checkId;
    out.where = e.where;
    return out;
  }
  const { family, commitments } = opened;
  const rec = recompute(value, family);
  out.top_root = hex(rec.computed.get(family.top));
  out.committed_top_root = hex(commitments.get(family.top));
  for (const f of commitmentFields(family)) {
    const want = rec.computed.get(f.field);
    const got = commitments.get(f.field);
    const same = f.type === 'hash' ? equalBytes(want, got) : want === got;
    if (!same) {
      out.first_mismatch = f.field;
      out.check_id = family.failure(f.field);
      out.where = `commitments.${f.field}`;
      return out;
    }
  }
  try {
    out.records += openRecords(value, family, order.deferred);
  } catch (e) {
    if (!(e instanceof OpenError)) throw e;
    out.check_id = e.checkId;
    out.where = e.where;
    return out;
  }
  // Every record proves to the committed top root in two levels.
  const topRoot = commitments.get(family.top);
  for (const [ci] of family.components.entries()) {
    for (let i = 0; i < rec.trees[ci].size; i++) {
      const proof = componentProof(rec, ci, i);
      // The proof verifies, and the same path claimed for a tree one larger
      // does not: the size is bound by the component leaf (SPEC §5.4).
      const resized = { ...proof, size: proof.size + 1 };
      if (!verifyComponentProof(proof, topRoot) || verifyComponentProof(resized, topRoot)) {
        out.check_id = 'proof.root_mismatch';
        out.where = `${family.components[ci].field}[${i}]`;
        return out;
      }
      out.proofs_checked += 1;
    }
  }
  out.ok = true;
  return out;
}
