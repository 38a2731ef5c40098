// The `aggregate` record (SPEC §12.5.4, §12.3).
import { citedCards, citedClaims, record } from './common.mjs';
import { add, cmp, dec, sub } from './decimal.mjs';

const FALLBACK = [['result', 'boolean'], ['value', 'numeric'], ['price', 'numeric'],
  ['timestamp', 'timestamp']];

function voters(vector, rec, key, kind) {
  const claims = citedClaims(vector, rec);
  const cards = citedCards(vector, rec);
  // Stage 3: the cited items are the first admitted item of each source; each votes
  // with its first claim of the field, or not at all.
  const out = [];
  rec.evidence_ids.forEach((eid, pos) => {
    const claim = claims[pos].find((c) => c.key === key && c.kind === kind);
    if (claim) out.push({ pos, item: cards[pos], claim });
  });
  return out;
}

function agrees(kind, tolerance, a, b) {
  if (kind !== 'numeric') return a === b;
  const t = dec(tolerance);
  const v = dec(b);
  return cmp(dec(a), sub(v, t)) >= 0 && cmp(dec(a), add(v, t)) <= 0;
}

function field(vector, rec, req, key, kind) {
  const policy = req.selection_policy;
  const vs = voters(vector, rec, key, kind);
  const out = { key, kind, status: 'missing', candidates: vs.length, claim_ids: [],
    evidence_ids: [], fallback_used: false };
  const order = (policy.tie_breaker ?? 'source_order') === 'highest_provenance'
    ? [...vs].sort((a, b) => b.item.provenance_tier - a.item.provenance_tier || a.pos - b.pos)
    : vs;
  const choose = (v) => Object.assign(out, { status: 'selected', value: v.claim.value,
    claim_ids: [v.claim.claim_id], evidence_ids: [v.item.evidence_id] });
  if (vs.length === 0) {
    // missing
  } else if (policy.strategy === 'single_best') {
    choose(order[0]);
  } else if (policy.strategy === 'fallback_chain') {
    const targets = req.source_targets.map((t) => t.source_id);
    const rank = (v) => targets.indexOf(v.item.source.source_id);
    const pick = vs.reduce((a, b) => (rank(b) < rank(a) ? b : a));
    choose(pick);
    out.fallback_used = pick.item.source.source_id !== targets[0];
  } else if (vs.length < (policy.min_sources ?? 1)) {
    out.status = 'insufficient';
  } else {
    const quorum = policy.quorum ?? 1;
    const tolerance = vector.prompt_spec.conflict_policy?.numeric_tolerance ?? '0';
    const groups = order.map((v) => vs.filter((w) => agrees(kind, tolerance, w.claim.value,
      v.claim.value)));
    const k = groups.findIndex((g) => g.length >= quorum);
    if (k >= 0) {
      Object.assign(out, { status: 'selected', value: order[k].claim.value,
        claim_ids: groups[k].map((w) => w.claim.claim_id),
        evidence_ids: groups[k].map((w) => w.item.evidence_id),
        quorum: { required: quorum, agreeing: groups[k].length, met: true } });
    } else {
      Object.assign(out, { status: 'no_quorum', quorum: { required: quorum,
        agreeing: Math.max(...groups.map((g) => g.length)), met: false } });
    }
  }
  const sem = vector.prompt_spec.prediction_semantics;
  if (sem.sources_required != null && key === sem.metric) {
    out.votes = vs.map((v) => ({ value: v.claim.value, source_id: v.item.source.source_id,
      evidence_id: v.item.evidence_id }));
  }
  return out;
}

export function aggregate(vector, rec) {
  const rid = rec.inputs.requirement_id;
  const req = vector.prompt_spec.data_requirements.find((r) => r.requirement_id === rid);
  const check = vector.steps.find((s) => s.record.step_id === rec.prior_step_ids.at(-1))
    .record.output;
  const declared = (req.expected_fields ?? []).map((f) => [f.key, f.kind]);
  const fields = (declared.length ? declared : FALLBACK)
    .map(([key, kind]) => field(vector, rec, req, key, kind));
  const used = new Set(fields.flatMap((f) => f.evidence_ids));
  const chosen = fields.filter((f) => f.status === 'selected').length;
  const strategy = req.selection_policy.strategy;
  return record(rec, 'aggregate',
    `aggregate requirement ${rid} by ${strategy}: ${chosen} of ${fields.length} field(s) selected`,
    { requirement_id: rid, strategy, covered: check.covered, provenance_ok: check.provenance_ok,
      item_count: check.item_count, ...('last_leaf' in check ? { last_leaf: check.last_leaf } : {}),
      fields, sources_used: rec.evidence_ids.filter((e) => used.has(e)),
      fallback_used: fields.some((f) => f.fallback_used) });
}
