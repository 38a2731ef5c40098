// The `contradictions` record: the r last check chunks' groups merged in
// requirement order (SPEC §12.5.5).
import { record } from './common.mjs';
import { cmp, dec, sub } from './decimal.mjs';

function merge(chunks) {
  const merged = [];
  for (const chunk of chunks) {
    for (const g of chunk.groups) {
      const m = merged.find((x) => x.kind === g.kind && x.key === g.key);
      if (!m) {
        merged.push(structuredClone(g));
        continue;
      }
      m.claim_count += g.claim_count;
      if (m.kind === 'numeric') {
        if (cmp(dec(g.min.value), dec(m.min.value)) < 0) m.min = g.min;
        if (cmp(dec(g.max.value), dec(m.max.value)) > 0) m.max = g.max;
      } else if (!('other' in m)) {
        const other = [g.first, g.other].find((r) => r && r.value !== m.first.value);
        if (other) m.other = other;
      }
    }
  }
  return merged;
}

export function contradictions(vector, rec) {
  const tolerance = vector.prompt_spec.conflict_policy?.numeric_tolerance ?? '0';
  const chunks = rec.prior_step_ids
    .map((id) => vector.steps.find((s) => s.record.step_id === id).record.output);
  const claimCount = chunks.reduce((a, c) => a + c.claim_count, 0);
  const conflicts = [];
  for (const g of merge(chunks)) {
    let pair;
    if (g.kind === 'numeric') {
      if (cmp(sub(dec(g.max.value), dec(g.min.value)), dec(tolerance)) <= 0) continue;
      pair = [g.min, g.max];
    } else {
      if (!g.other) continue;
      pair = [g.first, g.other];
    }
    conflicts.push({ check_id: `contradiction.${g.kind}`, kind: g.kind, key: g.key,
      claim_ids: pair.map((r) => r.claim_id), evidence_ids: pair.map((r) => r.evidence_id),
      values: pair.map((r) => String(r.value)), claim_count: g.claim_count });
  }
  return record(rec, 'check',
    `contradiction check over ${claimCount} claim(s): ${conflicts.length} conflict(s)`,
    { claim_count: claimCount, numeric_tolerance: tolerance, conflicts });
}
