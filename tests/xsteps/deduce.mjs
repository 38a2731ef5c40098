// The `deduce` record (SPEC §12.4.1 rules 1-5, §12.5.6).
import { record } from './common.mjs';
import { add, cmp, dec, sub, text } from './decimal.mjs';

const KIND = { event_observed: 'boolean', text_equals: 'text', timestamp_threshold: 'timestamp' };

function holds(s, value) {
  if (s.predicate === 'event_observed') return value === true;
  if (s.predicate === 'text_equals') return value === s.expected_text;
  const v = typeof value === 'number' ? dec(String(value)) : typeof value === 'string' ? dec(value) : value;
  if (s.predicate === 'numeric_range') {
    const lo = cmp(v, dec(s.lower));
    const hi = cmp(v, dec(s.upper));
    return (s.lower_inclusive === false ? lo > 0 : lo >= 0)
      && (s.upper_inclusive === true ? hi <= 0 : hi < 0);
  }
  const c = cmp(v, dec(s.predicate === 'field_comparison' ? '0' : s.threshold));
  return { '>': c > 0, '>=': c >= 0, '<': c < 0, '<=': c <= 0, '==': c === 0 }[s.comparison];
}

function find(aggs, key, kind) {
  for (let n = 0; n < aggs.length; n++) {
    const raw = aggs[n].fields.find((f) => f.key === key);
    if (raw) return raw.kind === kind ? [raw.status, n, raw] : ['wrong_kind', n, null];
  }
  return ['absent', null, null];
}

function decide(c, st) {
  const { s, needed, found, aggs, cited, reqs, uncovered, chain, conflicts } = c;
  const read = (n, raw, kind, votes = false) => {
    const ids = votes ? raw.votes.map((v) => v.evidence_id) : raw.evidence_ids;
    if (!st.read.has(n)) st.read.set(n, new Set());
    for (const id of ids) st.read.get(n).add(id);
    st.fallback ||= raw.fallback_used;
    st.conflict ||= !votes && !chain[n] && conflicts.has(`${kind}\u0000${raw.key}`);
  };
  for (let i = 0; i < needed.length; i++) { // rule 2
    const [key, , role] = needed[i];
    const [status, n, raw] = found[i];
    if (role !== 'precondition') continue;
    if (status !== 'selected') { st.insufficient = true; return; }
    read(n, raw, 'text');
    const rule = s.preconditions.find((p) => p.key === key);
    if (raw.value !== rule.equals) {
      st.status = 'precondition_unmet';
      if (rule.otherwise === 'NO' && uncovered.length === 0) st.event = false;
      else st.insufficient = true;
      return;
    }
  }
  const [status, owner, raw] = found[0];
  const kind = needed[0][1];
  const k = s.sources_required;
  if (owner !== null && k == null) {
    st.conflict ||= !chain[owner] && conflicts.has(`${kind}\u0000${s.metric}`);
  }
  if (raw === null) { st.insufficient = true; return; }
  if (k != null) { // rule 3
    const yes = raw.votes.filter((v) => holds(s, v.value)).length;
    const no = raw.votes.length - yes;
    if (yes >= k || no > reqs[owner].source_targets.length - k) {
      st.event = yes >= k;
      read(owner, raw, kind, true);
    } else {
      st.insufficient = true;
      st.status = 'votes_undecided';
    }
    return;
  }
  if (status === 'missing' && s.absent_means_no === true && aggs[owner].covered) { // rule 4
    st.event = false;
    if (!st.read.has(owner)) st.read.set(owner, new Set());
    for (const id of cited[owner]) st.read.get(owner).add(id);
    return;
  }
  if (found.some((f) => f[0] !== 'selected')) { st.insufficient = true; return; } // rule 5
  let value = kind === 'numeric' ? dec(raw.value) : kind === 'timestamp' ? dec(String(raw.value)) : raw.value;
  read(owner, raw, kind);
  for (let i = 1; i < needed.length; i++) {
    const [key, , role] = needed[i];
    if (role !== 'term' && role !== 'other_metric') continue;
    const other = found[i][2];
    read(found[i][1], other, 'numeric');
    const op = role === 'other_metric' ? '-' : s.terms.find((t) => t.metric === key).op;
    value = (op === '-' ? sub : add)(value, dec(other.value));
  }
  const skip = s.predicate === 'timestamp_threshold' ? s.metric : null;
  const stamp = aggs[owner].fields.find((f) => f.kind === 'timestamp' && f.status === 'selected'
    && f.key !== skip);
  if (stamp) {
    st.stamp = stamp.value;
    for (const id of stamp.evidence_ids) st.read.get(owner).add(id);
    st.fallback ||= stamp.fallback_used;
  }
  if (Array.isArray(value)) st.numeric = text(value);
  st.event = holds(s, value);
}

export function deduce(vector, rec) {
  const s = vector.prompt_spec.prediction_semantics;
  const reqs = vector.prompt_spec.data_requirements;
  const byId = (id) => vector.steps.find((x) => x.record.step_id === id).record;
  const aggSteps = rec.prior_step_ids.slice(0, -1).map(byId);
  const aggs = aggSteps.map((a) => a.output);
  const conflicts = new Set(byId(rec.prior_step_ids.at(-1)).output.conflicts
    .map((c) => `${c.kind}\u0000${c.key}`));
  const needed = [[s.metric, KIND[s.predicate] ?? 'numeric', 'metric'],
    ...(s.terms ?? []).map((t) => [t.metric, 'numeric', 'term']),
    ...(s.other_metric != null ? [[s.other_metric, 'numeric', 'other_metric']] : []),
    ...(s.preconditions ?? []).map((p) => [p.key, 'text', 'precondition'])];
  const found = needed.map(([key, kind]) => find(aggs, key, kind));
  const uncovered = aggs.filter((a) => !a.covered).map((a) => a.requirement_id);
  const st = { status: found[0][0], event: null, insufficient: false, conflict: false,
    fallback: false, numeric: null, stamp: null, read: new Map() };
  decide({ s, needed, found, aggs, cited: aggSteps.map((a) => a.evidence_ids), reqs, uncovered,
    chain: reqs.map((r) => r.selection_policy.strategy === 'fallback_chain'), conflicts }, st);
  const insufficient = uncovered.length > 0 || st.insufficient || st.event === null;
  const summary = [];
  for (const n of [...st.read.keys()].sort((a, b) => a - b)) {
    for (const e of aggSteps[n].evidence_ids) {
      if (st.read.get(n).has(e) && !summary.includes(e)) summary.push(e);
    }
  }
  const out = { predicate: s.predicate, metric: s.metric, metric_status: st.status,
    uncovered_requirements: uncovered, conflict_detected: st.conflict,
    insufficient_evidence: insufficient, fallback_used: st.fallback,
    provenance_ok: aggs.every((a) => a.provenance_ok), source_summary: summary };
  if (!insufficient) {
    out.event_observed = st.event;
    if (st.numeric !== null) out.numeric_value = st.numeric;
    if (st.stamp !== null) out.timestamp = st.stamp;
  }
  return record(rec, 'deduce', `deduce ${s.predicate} on ${s.metric}: `
    + (insufficient ? 'insufficient evidence' : 'variables computed'), out, summary);
}
