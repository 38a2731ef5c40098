// COMMON, REQUIREMENT and VERDICT (docs/spec-forms-draft.md sections 2.1, 2.2, 2.10),
// written from the draft's text alone.
import {
  TAG, KIND, STRATEGY, TIE_BREAKER, PREDICATE, COMPARISON, OP, OTHERWISE, ON_CONFLICT,
  RULE, OUTCOME,
} from './codes.mjs';
import { Form, decimalParts, none, opt, req, dflt } from './words.mjs';

// The ranges §4 fixes of the integers these forms read (`time`, `count`, `bps`,
// 1..64, 0..3, 100..599): outside them the record is not valid, so it has no form
// (draft section 1). The draft at 865a6be left two of them open (section 6, item
// 22); forms4's vectors (s39) refuse every one: SPEC_GAPS.md, gap 3.
const MAX_COUNT = (1n << 63n) - 1n;
const TIME = [0n, MAX_COUNT];
const COUNT = [0n, MAX_COUNT];
const BPS = [0n, 10000n];
const ONE_TO_64 = [1n, 64n];

// §4.2 ConfidencePolicy, in the layout's order, with its defaults (decision 13).
const CONFIDENCE = [
  ['default_confidence_bps', 7000n], ['min_confidence_for_yesno_bps', 5500n],
  ['conflict_factor_bps', 8000n], ['fallback_factor_bps', 9000n],
  ['invalid_confidence_bps', 0n],
];

// §12.1's fallback fields, used when `expected_fields` is absent or empty (decision 14).
const FALLBACK_FIELDS = [['boolean', 'result'], ['numeric', 'value'], ['numeric', 'price'],
  ['timestamp', 'timestamp']];

function requirements(spec) {
  return req(spec, 'data_requirements');
}

function selection(q) {
  return req(q, 'selection_policy');
}

export function commonForm(spec) {
  const ps = req(spec, 'prediction_semantics');
  const market = req(spec, 'market');
  const conflict = req(spec, 'conflict_policy');
  const window = req(market, 'resolution_window');
  const confidence = dflt(spec, 'confidence_policy', new Map());
  const f = new Form(TAG.COMMON);
  f.H(req(ps, 'metric'), 'metric');
  f.Z(opt(ps, 'sources_required'), 'sources_required', ONE_TO_64[1]);
  const tolerance = req(conflict, 'numeric_tolerance');
  if (decimalParts(tolerance, 'numeric_tolerance').sign) none('numeric_tolerance is below 0');
  f.D(tolerance, 'numeric_tolerance');
  f.L(requirements(spec), (g, q) => {
    g.H(req(q, 'requirement_id'));
    g.E(req(selection(q), 'strategy'), STRATEGY, 'strategy');
    g.W(BigInt(listOf(req(q, 'source_targets')).length));
    g.Wr(dflt(q, 'min_provenance_tier', 0n), 0n, 3n, 'min_provenance_tier');
  }, 'data_requirements');
  f.H(req(market, 'market_id'));
  f.Wr(req(window, 'start'), ...TIME, 'start').Wr(req(window, 'end'), ...TIME, 'end');
  f.Wr(dflt(spec, 'timestamp_slack_seconds', 0n), ...COUNT, 'timestamp_slack_seconds');
  f.L(req(market, 'allowed_sources'), (g, s) => g.H(s), 'allowed_sources');
  f.L(req(req(market, 'resolution_rules'), 'rules'), (g, rule) => {
    const id = req(rule, 'rule_id');
    if (typeof id !== 'string') none('rule_id is not a text'); // decision 16
    g.W(BigInt(RULE.get(id) ?? 0));
  }, 'rules');
  f.E(dflt(conflict, 'on_conflict', 'invalid'), ON_CONFLICT, 'on_conflict');
  f.H(req(spec, 'output_schema_ref'));
  f.B(dflt(spec, 'strict_mode', true), 'strict_mode');
  for (const [key, value] of CONFIDENCE) f.Wr(dflt(confidence, key, value), ...BPS, key);
  f.E(req(ps, 'predicate'), PREDICATE, 'predicate');
  f.T(req(ps, 'metric'));
  f.P(opt(ps, 'comparison'), (g, c) => g.E(c, COMPARISON, 'comparison'));
  f.P(opt(ps, 'threshold'), (g, d) => g.D(d, 'threshold'));
  f.P(opt(ps, 'terms'), (g, terms) => g.L(terms, (h, t) => {
    h.E(req(t, 'op'), OP, 'op');
    h.H(req(t, 'metric'));
  }, 'terms'));
  f.P(opt(ps, 'lower'), (g, d) => g.D(d, 'lower'));
  f.P(opt(ps, 'upper'), (g, d) => g.D(d, 'upper'));
  f.O(opt(ps, 'lower_inclusive'), (g, b) => g.B(b, 'lower_inclusive'));
  f.O(opt(ps, 'upper_inclusive'), (g, b) => g.B(b, 'upper_inclusive'));
  f.P(opt(ps, 'other_metric'), (g, t) => g.H(t, 'other_metric'));
  f.P(opt(ps, 'expected_text'), (g, t) => g.H(t, 'expected_text'));
  f.B(dflt(ps, 'absent_means_no', false), 'absent_means_no');
  f.P(opt(ps, 'preconditions'), (g, list) => g.L(list, (h, p) => {
    h.H(req(p, 'key'));
    h.H(req(p, 'equals'), 'equals');
    h.E(dflt(p, 'otherwise', 'INVALID'), OTHERWISE, 'otherwise');
  }, 'preconditions'));
  return f.bytes();
}

function listOf(v, what = 'list') {
  if (!Array.isArray(v)) none(`${what} is not an array`);
  return v;
}

export function requirementForm(spec, k) {
  const list = listOf(requirements(spec), 'data_requirements');
  if (!Number.isInteger(k) || k < 0 || k >= list.length) none(`requirement ${k} does not exist`);
  const q = list[k];
  const policy = selection(q);
  const f = new Form(TAG.REQUIREMENT);
  f.H(req(q, 'requirement_id'));
  f.E(req(policy, 'strategy'), STRATEGY, 'strategy');
  f.E(dflt(policy, 'tie_breaker', 'source_order'), TIE_BREAKER, 'tie_breaker');
  f.Wr(dflt(policy, 'min_sources', 1n), ...ONE_TO_64, 'min_sources');
  f.Wr(dflt(policy, 'quorum', 1n), ...ONE_TO_64, 'quorum');
  f.L(req(q, 'source_targets'), (g, t) => g.H(req(t, 'source_id')), 'source_targets');
  const declared = opt(q, 'expected_fields');
  if (declared !== undefined && listOf(declared, 'expected_fields').length > 0) {
    f.L(declared, (g, field) => {
      g.E(req(field, 'kind'), KIND, 'kind');
      const key = req(field, 'key');
      g.H(key);
    }, 'expected_fields');
  } else {
    f.L(FALLBACK_FIELDS, (g, [kind, key]) => g.E(kind, KIND).H(key));
  }
  f.P(opt(q, 'accepted_status_codes'), (g, list) => g.L(list, (h, c) => h.Wr(c, 100n, 599n),
    'accepted_status_codes'));
  return f.bytes();
}

export function verdictForm(v) {
  const f = new Form(TAG.VERDICT);
  f.H(req(v, 'market_id'));
  f.E(req(v, 'outcome'), OUTCOME, 'outcome');
  f.Wr(req(v, 'confidence_bps'), ...BPS, 'confidence_bps');
  f.E(req(v, 'resolution_rule_id'), RULE, 'resolution_rule_id');
  f.O(opt(v, 'resolution_time'), (g, t) => g.Wr(t, ...TIME, 'resolution_time'));
  f.B32(req(v, 'prompt_spec_hash'), 'prompt_spec_hash');
  f.B32(req(v, 'evidence_root'), 'evidence_root');
  f.Wr(req(v, 'evidence_count'), ...COUNT, 'evidence_count');
  f.B32(req(v, 'reasoning_root'), 'reasoning_root');
  f.Wr(req(v, 'reasoning_count'), ...COUNT, 'reasoning_count');
  return f.bytes();
}
