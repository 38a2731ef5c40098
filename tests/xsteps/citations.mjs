// The steps a vector must hold, in order, and each one's `step_id`, `inputs`,
// `evidence_ids` and `prior_step_ids` (SPEC §12.5, §12.5.1, stage 3), derived from the
// PromptSpec, the items and the outputs of the earlier steps; so a record whose
// citations or inputs are not the ones SPEC fixes fails even when its output is right.
import { encodeHex } from './cbor.mjs';

const stepId = (k) => `step_${String(k).padStart(4, '0')}`;

// Returns a list of failure texts (empty when every step is where SPEC puts it).
export function checkCitations(vector) {
  const items = vector.items;
  const n = items.length;
  const failures = [];
  const extract = new Map(); // evidence id -> its extract step id
  items.forEach((item, j) => {
    const id = stepId(j + 1);
    extract.set(item.evidence_id, id);
    if (vector.extract_outputs[id]?.evidence_id !== item.evidence_id) {
      failures.push(`${id}: not the extract step of ${item.evidence_id}`);
    }
  });
  if (Object.keys(vector.extract_outputs).length !== n) failures.push('extract steps: count');
  const committed = vector.steps.map((s) => s.record);
  const expected = [];
  let next = n + 1;
  const add = (inputs, evidenceIds, priorIds) => {
    const id = stepId(next++);
    expected.push({ step_id: id, inputs, evidence_ids: evidenceIds, prior_step_ids: priorIds });
    return committed.find((r) => r.step_id === id);
  };
  const lastChunks = [];
  const aggregates = [];
  for (const req of vector.prompt_spec.data_requirements) {
    // §12.5: R's items in bundle order, 10 per chunk, max(1, ceil(m / 10)) chunks.
    const rid = req.requirement_id;
    const mine = items.filter((i) => i.requirement_id === rid).map((i) => i.evidence_id);
    let chunk = null;
    for (let c = 0; c === 0 || 10 * c < mine.length; c++) {
      const cited = mine.slice(10 * c, 10 * c + 10);
      chunk = add({ kind: 'check_requirement', requirement_id: rid }, cited,
        [...cited.map((e) => extract.get(e)), ...(c > 0 ? [stepId(next - 1)] : [])]);
    }
    lastChunks.push(stepId(next - 1));
    const sources = (chunk?.output.sources ?? []).map((s) => s.evidence_id);
    add({ kind: 'aggregate', requirement_id: rid }, sources,
      [...sources.map((e) => extract.get(e)), stepId(next - 1)]);
    aggregates.push(stepId(next - 1));
  }
  add({ kind: 'contradictions' }, [], lastChunks);
  const deduce = add({ kind: 'deduce' }, null, [...aggregates, stepId(next - 1)]);
  const summary = deduce?.output.source_summary ?? [];
  expected.at(-1).evidence_ids = summary;
  add({ kind: 'map' }, summary, [stepId(next - 1)]);
  if (committed.length !== expected.length) {
    failures.push(`steps: ${committed.length} committed, ${expected.length} by SPEC`);
  }
  expected.forEach((want, k) => {
    const got = committed[k];
    if (!got) return;
    for (const key of Object.keys(want)) {
      if (encodeHex(got[key] ?? false) !== encodeHex(want[key])) {
        failures.push(`${want.step_id}: ${key}`);
      }
    }
  });
  return failures;
}
