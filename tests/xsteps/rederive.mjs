// Re-derives every step record after `extract` from fixtures/vectors/step_records.json
// using SPEC §12.5.2-§12.5.7, §12.4 and §12.4.1 alone, and compares the por-cbor/1 bytes;
// items are read only through their extract steps' cards (§12.1.4), each checked here.
// Usage: node rederive.mjs ROOT   -> one JSON line, then "N passed, N failed".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeHex } from './cbor.mjs';
import { cmp as decCmp, dec, sub as decSub } from './decimal.mjs';
import { citedCards, citedClaims, record } from './common.mjs';
import { aggregate } from './aggregate.mjs';
import { deduce } from './deduce.mjs';
import { checkCitations } from './citations.mjs';

// SPEC §12.4: exactly these 25 white-space code points.
const BLANK = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);


function isBlank(text) {
  return [...text].length > 0 && [...text].every((ch) => BLANK.has(ch.codePointAt(0)));
}

function checkRequirement(vector, rec) {
  const spec = vector.prompt_spec;
  const rid = rec.inputs.requirement_id;
  const req = spec.data_requirements.find((r) => r.requirement_id === rid);
  const win = spec.market.resolution_window;
  const slack = spec.timestamp_slack_seconds ?? 0; // §18.1 defaults (JSON forms)
  const start = Math.max(0, win.start - slack);
  const end = win.end + slack;
  const sem = spec.prediction_semantics;
  const skip = sem.predicate === 'timestamp_threshold' ? sem.metric : null;
  const targets = req.source_targets.map((t) => t.source_id);
  const codes = req.accepted_status_codes;
  const claims = citedClaims(vector, rec);
  const cards = citedCards(vector, rec);
  const items = rec.evidence_ids.map((eid, k) => {
    const item = cards[k];
    const sid = item.source.source_id;
    const stamp = claims[k].find((c) => c.kind === 'timestamp' && Number.isInteger(c.value)
      && c.key !== skip);
    const [observed, from] = stamp ? [stamp.value, 'claim']
      : [item.retrieval_receipt.retrieved_at, 'receipt'];
    const status = item.retrieval_receipt.status_code;
    const reasons = [];
    if (!spec.market.allowed_sources.includes(sid)) reasons.push('sanity.allowed_source');
    if (!targets.includes(sid)) reasons.push('sanity.source_target');
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
  });
  const admitted = items.filter((i) => i.admitted).length;
  const output = { requirement_id: rid, window: { start, end }, items,
    admitted_count: admitted, covered: admitted > 0,
    provenance_ok: admitted > 0 || !items.some((i) => i.reasons.includes('sanity.provenance')) };
  return record(rec, 'check',
    `check requirement ${rid}: ${admitted} of ${items.length} item(s) admitted`, output);
}

function contradictions(vector, rec) {
  const tolerance = vector.prompt_spec.conflict_policy?.numeric_tolerance ?? '0';
  const all = [];
  citedClaims(vector, rec).forEach((claims, k) => {
    for (const c of claims) all.push([rec.evidence_ids[k], c]);
  });
  const groups = new Map();
  for (const [eid, c] of all) {
    if (c.kind !== 'numeric' && c.kind !== 'boolean') continue;
    const key = JSON.stringify([c.kind, c.key]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push([eid, c]);
  }
  const conflicts = [];
  for (const group of groups.values()) {
    const kind = group[0][1].kind;
    let pair;
    if (kind === 'numeric') {
      let low = group[0];
      let high = group[0];
      for (const g of group) {
        if (decCmp(dec(g[1].value), dec(low[1].value)) < 0) low = g;
        if (decCmp(dec(g[1].value), dec(high[1].value)) > 0) high = g;
      }
      if (decCmp(decSub(dec(high[1].value), dec(low[1].value)), dec(tolerance)) <= 0) continue;
      pair = [low, high];
    } else {
      const other = group.find((g) => g[1].value !== group[0][1].value);
      if (!other) continue;
      pair = [group[0], other];
    }
    conflicts.push({ check_id: `contradiction.${kind}`, kind, key: group[0][1].key,
      claim_ids: pair.map((p) => p[1].claim_id), evidence_ids: pair.map((p) => p[0]),
      values: pair.map((p) => (kind === 'numeric' ? p[1].value : String(p[1].value))),
      claim_count: group.length });
  }
  return record(rec, 'check',
    `contradiction check over ${all.length} claim(s): ${conflicts.length} conflict(s)`,
    { claim_count: all.length, numeric_tolerance: tolerance, conflicts });
}

const VARIABLES = ['event_observed', 'numeric_value', 'timestamp', 'conflict_detected',
  'insufficient_evidence', 'fallback_used', 'provenance_ok', 'source_summary'];

function map(vector, rec) {
  const deduce = vector.steps.find((s) => s.record.step_id === rec.prior_step_ids[0]).record;
  const variables = {};
  for (const k of VARIABLES) if (k in deduce.output) variables[k] = deduce.output[k];
  return record(rec, 'map', 'map to evaluation variables', { evaluation_variables: variables },
    deduce.output.source_summary);
}

const DERIVE = { check_requirement: checkRequirement, aggregate, contradictions, deduce, map };

function main() {
  const root = process.argv[2];
  if (!root) {
    process.stderr.write('usage: node rederive.mjs ROOT\n');
    process.exit(2);
  }
  const data = JSON.parse(readFileSync(join(root, 'fixtures/vectors/step_records.json'), 'utf8'));
  const counts = {};
  const failures = [];
  for (const vector of data.vectors) {
    // SPEC §12.5.2: every extract step's card is five of its item's values, exactly.
    for (const [sid, out] of Object.entries(vector.extract_outputs)) {
      const item = vector.items.find((i) => i.evidence_id === out.evidence_id);
      const card = { source_id: item.source.source_id,
        status_code: item.retrieval_receipt.status_code,
        retrieved_at: item.retrieval_receipt.retrieved_at,
        confidence_bps: item.confidence_bps, provenance_tier: item.provenance_tier };
      if (encodeHex(card) !== encodeHex(out.card)) failures.push(`${vector.name}/${sid}/card`);
    }
    for (const text of checkCitations(vector)) failures.push(`${vector.name}/${text}`);
    for (const step of vector.steps) {
      const rec = step.record;
      const kind = rec.inputs?.kind;
      const derive = Object.hasOwn(DERIVE, kind) ? DERIVE[kind] : null;
      counts[kind] = (counts[kind] ?? 0) + 1;
      let got;
      try {
        // The vector's record and its bytes must be one record; then the bytes are
        // compared with the record derived from SPEC (an unknown kind derives nothing).
        if (encodeHex(rec) !== step.cbor_hex) throw new Error('record is not its bytes');
        got = derive ? encodeHex(derive(vector, rec)) : `error: unknown kind ${kind}`;
      } catch (err) {
        got = `error: ${err.message}`;
      }
      if (got !== step.cbor_hex) failures.push(`${vector.name}/${rec.step_id}`);
    }
  }
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  process.stdout.write(JSON.stringify({ counts, failures }) + '\n');
  process.stdout.write(`${total - failures.length} passed, ${failures.length} failed\n`);
  process.exit(failures.length ? 1 : 0);
}

main();
