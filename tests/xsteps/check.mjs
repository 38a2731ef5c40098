// The `check_requirement` record: one chunk of R's chain with its running state
// (SPEC §12.5.3, §12.2, §12.4's gate).
import { cmp, dec } from './decimal.mjs';
import { citedCards, citedClaims, record } from './common.mjs';

// SPEC §12.4: exactly these 25 white-space code points.
const BLANK = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);

function isBlank(text) {
  return [...text].length > 0 && [...text].every((ch) => BLANK.has(ch.codePointAt(0)));
}

function itemMap(spec, req, eid, item, claims) {
  const win = spec.market.resolution_window;
  const slack = spec.timestamp_slack_seconds ?? 0; // §18.1 defaults (JSON forms)
  const start = Math.max(0, win.start - slack);
  const end = win.end + slack;
  const sem = spec.prediction_semantics;
  const skip = sem.predicate === 'timestamp_threshold' ? sem.metric : null;
  const sid = item.source.source_id;
  const stamp = claims.find((c) => c.kind === 'timestamp' && Number.isInteger(c.value)
    && c.key !== skip);
  const [observed, from] = stamp ? [stamp.value, 'claim']
    : [item.retrieval_receipt.retrieved_at, 'receipt'];
  const status = item.retrieval_receipt.status_code;
  const codes = req.accepted_status_codes;
  const reasons = [];
  if (!spec.market.allowed_sources.includes(sid)) reasons.push('sanity.allowed_source');
  if (!req.source_targets.some((t) => t.source_id === sid)) reasons.push('sanity.source_target');
  if (observed < start || observed > end) reasons.push('sanity.time_window');
  if (item.provenance_tier < (req.min_provenance_tier ?? 0)) reasons.push('sanity.provenance');
  if (!Number.isInteger(item.confidence_bps) || item.confidence_bps < 0
      || item.confidence_bps > 10000) reasons.push('sanity.confidence');
  if (codes === undefined ? status < 200 || status > 299 : !codes.includes(status)) {
    reasons.push('sanity.http_status');
  }
  const out = { evidence_id: eid, source_id: sid };
  if (reasons.length === 0 && isBlank(sid)) {
    reasons.push('gate.agent_name');
    out.gate_reason = 'agent name is blank (empty or only white space)';
  }
  return { ...out, admitted: reasons.length === 0, reasons, observed_at: observed,
    observed_from: from };
}

// §12.5.3 "groups": one claim folded into the running contradiction groups.
function fold(groups, eid, claim) {
  if (claim.kind !== 'numeric' && claim.kind !== 'boolean') return;
  const ref = { claim_id: claim.claim_id, evidence_id: eid, value: claim.value };
  const group = groups.find((g) => g.kind === claim.kind && g.key === claim.key);
  if (!group) {
    groups.push(claim.kind === 'numeric'
      ? { kind: 'numeric', key: claim.key, claim_count: 1, min: ref, max: ref }
      : { kind: 'boolean', key: claim.key, claim_count: 1, first: ref });
    return;
  }
  group.claim_count += 1;
  if (group.kind === 'numeric') {
    if (cmp(dec(claim.value), dec(group.min.value)) < 0) group.min = ref;
    else if (cmp(dec(claim.value), dec(group.max.value)) > 0) group.max = ref;
  } else if (!('other' in group) && claim.value !== group.first.value) {
    group.other = ref;
  }
}

const leafOf = (stepId) => Number(stepId.slice('step_'.length)) - 1;

export function checkRequirement(vector, rec) {
  const spec = vector.prompt_spec;
  const rid = rec.inputs.requirement_id;
  const req = spec.data_requirements.find((r) => r.requirement_id === rid);
  const win = spec.market.resolution_window;
  const slack = spec.timestamp_slack_seconds ?? 0;
  const n = rec.evidence_ids.length;
  const previous = rec.prior_step_ids.length > n
    ? vector.steps.find((s) => s.record.step_id === rec.prior_step_ids.at(-1)).record.output
    : null;
  const p = structuredClone(previous ?? { item_count: 0, admitted_count: 0,
    provenance_ok: true, claim_count: 0, sources: [], groups: [] });
  const claims = citedClaims(vector, rec);
  const cards = citedCards(vector, rec);
  const items = rec.evidence_ids.map((eid, k) => itemMap(spec, req, eid, cards[k], claims[k]));
  const admitted = items.filter((i) => i.admitted).length;
  const admittedCount = p.admitted_count + admitted;
  const output = { requirement_id: rid,
    window: { start: Math.max(0, win.start - slack), end: win.end + slack },
    chunk: previous ? previous.chunk + 1 : 0, items, item_count: p.item_count + n,
    admitted_count: admittedCount, covered: admittedCount > 0,
    provenance_ok: admittedCount > 0 || (p.provenance_ok
      && !items.some((i) => i.reasons.includes('sanity.provenance'))),
    claim_count: p.claim_count, sources: p.sources, groups: p.groups };
  items.forEach((item, k) => {
    if (!item.admitted) return;
    output.claim_count += claims[k].length;
    if (!output.sources.some((s) => s.source_id === item.source_id)) {
      output.sources.push({ source_id: item.source_id, evidence_id: item.evidence_id,
        step_id: rec.prior_step_ids[k] });
    }
    for (const claim of claims[k]) fold(output.groups, item.evidence_id, claim);
  });
  if (n > 0) output.last_leaf = leafOf(rec.prior_step_ids[n - 1]);
  else if (previous && 'last_leaf' in previous) output.last_leaf = previous.last_leaf;
  if (previous && 'last_leaf' in previous) output.from_leaf = previous.last_leaf;
  return record(rec, 'check', `check requirement ${rid} chunk ${output.chunk}: `
    + `${admitted} of ${n} item(s) admitted`, output);
}
