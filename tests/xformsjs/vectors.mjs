// Recomputes every form, leaf hash and root of fixtures/vectors/forms.json from the
// records' por-cbor/1 bytes, every `no_form` record and every edit; prints one JSON
// line (counts agreed / disagreed, the first disagreement in full). Exit 0 iff none
// disagrees. It also recomputes the draft's own examples (examples.mjs).
// Usage: node tests/xformsjs/vectors.mjs [FORMS_JSON]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode } from '../xcontainer/cbor.mjs';
import { FormNone, formOf, formSlots, formsRoot, leafHash } from './forms.mjs';
import { checkExamples } from './examples.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ?? join(here, '..', '..', 'fixtures', 'vectors', 'forms.json');
const doc = JSON.parse(readFileSync(file, 'utf8'));

const hex = (b) => Buffer.from(b).toString('hex');
const record = (h) => decode(Buffer.from(h, 'hex'));
const KINDS = ['forms', 'leaf_hashes', 'roots', 'shapes', 'no_form', 'edits', 'draft_examples'];
const agreed = Object.fromEntries(KINDS.map((k) => [k, 0]));
const disagreed = Object.fromEntries(KINDS.map((k) => [k, 0]));
const disagreements = [];

function tally(kind, ok, detail) {
  if (ok) agreed[kind] += 1;
  else {
    disagreed[kind] += 1;
    disagreements.push({ kind, ...detail });
  }
}

// F of a record, or {none: why} for FormNone; any other exception is an error of
// this implementation and is reported as such.
function tryForm(rec, requirement) {
  try {
    return { form: formOf(rec, requirement) };
  } catch (e) {
    if (e instanceof FormNone) return { none: e.message };
    return { error: `${e.name}: ${e.message}` };
  }
}

// The record a vector names (`prompt_spec`, `steps[i]`, `verdict`).
function named(name, spec, steps, verdict) {
  if (name === 'prompt_spec') return spec;
  if (name === 'verdict') return verdict;
  const m = /^steps\[(\d+)\]$/.exec(name);
  return m ? steps[Number(m[1])] : undefined;
}

// The fixture markets, then (forms4, s39) the synthesized markets, in one format.
const markets = [...doc.vectors, ...(doc.synthesized ?? [])];
for (const v of markets) {
  const spec = record(v.prompt_spec_cbor_hex);
  const steps = v.steps_cbor_hex.map(record);
  const verdict = record(v.verdict_cbor_hex);
  // Section 3's order, from the records alone; each slot is compared with the
  // vector's form at that index (and the record the vector names must be the slot's).
  const slots = formSlots(spec, steps, verdict);
  const forms = slots.map((slot, j) => {
    const want = v.forms[j] ?? {};
    const got = tryForm(slot.record, slot.requirement);
    const where = { market: v.market, index: j, name: want.name };
    const formHex = got.form ? hex(got.form) : null;
    const same = slot.record === named(want.record, spec, steps, verdict);
    tally('forms', same && formHex === want.form_hex && got.form[31] === want.tag,
      { ...where, want, got: got.form ? formHex : got });
    const lh = got.form ? hex(leafHash(got.form)) : null;
    tally('leaf_hashes', lh === want.leaf_hash_hex, { ...where, want: want.leaf_hash_hex, got: lh });
    return got.form ?? new Uint8Array(0);
  });
  const root = hex(formsRoot(forms));
  tally('roots', forms.length === v.forms_size && v.forms.length === forms.length
    && root === v.forms_root_hex,
  { market: v.market, want: [v.forms_size, v.forms_root_hex], got: [forms.length, root] });
}

// Shapes (s39): one record with its form and leaf hash.
for (const [i, sh] of (doc.shapes ?? []).entries()) {
  const got = tryForm(record(sh.record_cbor_hex));
  const formHex = got.form ? hex(got.form) : null;
  const lh = got.form ? hex(leafHash(got.form)) : null;
  tally('shapes', formHex === sh.form_hex && lh === sh.leaf_hash_hex,
    { index: i, why: sh.why, want: [sh.form_hex, sh.leaf_hash_hex], got: got.form ? [formHex, lh] : got });
}

for (const [i, n] of doc.no_form.entries()) {
  const got = tryForm(record(n.record_cbor_hex), n.requirement ?? undefined);
  tally('no_form', got.none !== undefined, { index: i, why: n.why, got: got.form ? hex(got.form) : got });
}

for (const [i, e] of doc.edits.entries()) {
  const got = tryForm(record(e.record_cbor_hex));
  const lh = got.form ? hex(leafHash(got.form)) : null;
  tally('edits', lh === e.leaf_hash_hex && got.error === undefined,
    { index: i, edit: e.edit, step_id: e.step_id, want: e.leaf_hash_hex, got: lh ?? got });
}

// The draft's own examples; the worked one reads market 01's PromptSpec.
const v01 = doc.vectors.find((v) => v.market === '01-boolean-observed');
for (const ex of checkExamples(v01 && record(v01.prompt_spec_cbor_hex))) {
  tally('draft_examples', ex.ok, ex);
}

const total = Object.values(disagreed).reduce((a, b) => a + b, 0);
console.log(JSON.stringify({
  file, markets: { fixture: doc.vectors.length, synthesized: doc.synthesized?.length ?? 0 },
  agreed, disagreed, disagreements: total, first_disagreement: disagreements[0] ?? null,
}));
process.exitCode = total === 0 ? 0 : 1;
