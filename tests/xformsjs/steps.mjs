// The step forms EXTRACT, CHUNK, AGGREGATE, CONTRADICTIONS, DEDUCE and MAP
// (docs/spec-forms-draft.md sections 1, 2.3-2.9), written from the draft's text alone.
import {
  TAG, STEP_KINDS, KIND, GROUP_KIND, STRATEGY, STATUS, METRIC_STATUS, PREDICATE, REASON,
  OBSERVED_FROM, CHECK_ID, WHITE_SPACE,
} from './codes.mjs';
import { Form, none, asMap, opt, req } from './words.mjs';

const MAX_TIME = (1n << 63n) - 1n;

// The kind of a step (section 1, "Identity of a step"): its tag, checked against
// `step_type`.
export function stepTag(step) {
  const kind = req(req(step, 'inputs'), 'kind', 'inputs.kind');
  const known = typeof kind === 'string' ? STEP_KINDS.get(kind) : undefined;
  if (!known) none('inputs.kind is none of the six');
  if (req(step, 'step_type') !== known[0]) none(`step_type is not ${kind}'s`);
  return known[1];
}

// Section 2.3.
function extractForm(step) {
  const o = req(step, 'output');
  const card = req(o, 'card');
  const keys = ['source_id', 'status_code', 'retrieved_at', 'confidence_bps', 'provenance_tier'];
  if (card.size !== keys.length || !keys.every((k) => card.has(k))) {
    none('the card has not exactly its five keys');
  }
  const source = req(card, 'source_id');
  const f = new Form(TAG.EXTRACT);
  f.H(req(step, 'step_id'));
  f.H(source, 'card.source_id');
  f.Wr(req(card, 'provenance_tier'), 0n, 3n, 'provenance_tier');
  f.H(req(o, 'evidence_id')).T(req(o, 'evidence_id'));
  f.L(req(o, 'claims'), (g, claim) => {
    const kind = req(claim, 'kind');
    g.H(req(claim, 'key')).E(kind, KIND, 'claim kind');
    g.H(req(claim, 'claim_id')).V(kind, req(claim, 'value'), 'claim value');
  }, 'claims');
  f.H(req(o, 'requirement_id'));
  f.Wr(req(card, 'status_code'), 100n, 599n, 'status_code');
  f.Wr(req(card, 'retrieved_at'), 0n, MAX_TIME, 'retrieved_at');
  f.Wr(req(card, 'confidence_bps'), 0n, 10000n, 'confidence_bps');
  f.B([...source].every((c) => WHITE_SPACE.has(c.codePointAt(0))));
  return f;
}

// Section 2.4: tag, step id, then (per kind) inputs, priors and evidence.
function head(step, tag) {
  return new Form(tag).H(req(step, 'step_id'));
}

function citations(f, step) {
  f.L(req(step, 'prior_step_ids'), (g, id) => g.H(id), 'prior_step_ids');
  f.L(req(step, 'evidence_ids'), (g, id) => g.H(id), 'evidence_ids');
}

function lastWords(f, step, o, named) {
  f.R(o, named, 'output');
  f.T(req(step, 'description'));
}

const textList = (f, v, what) => f.L(v, (g, t) => g.T(t, what), what);
// An id list the chain only compares or copies (SPEC §5.6.1, "H or T").
const hashList = (f, v, what) => f.L(v, (g, t) => g.H(t, what), what);

// A claim reference (section 2.5) of the group's kind.
function ref(f, r, kind) {
  f.H(req(r, 'claim_id')).H(req(r, 'evidence_id')).V(kind, req(r, 'value'));
  f.R(r, ['claim_id', 'evidence_id', 'value'], 'claim reference');
}

const ITEM_KEYS = ['evidence_id', 'source_id', 'admitted', 'reasons', 'observed_at',
  'observed_from', 'gate_reason'];

function item(f, it) {
  f.H(req(it, 'evidence_id')).H(req(it, 'source_id')).B(req(it, 'admitted'), 'admitted');
  f.L(req(it, 'reasons'), (g, r) => g.E(r, REASON, 'reason'), 'reasons');
  f.W(req(it, 'observed_at'), 'observed_at');
  f.E(req(it, 'observed_from'), OBSERVED_FROM, 'observed_from');
  f.P(opt(it, 'gate_reason'), (g, t) => g.H(t, 'gate_reason'));
  f.R(it, ITEM_KEYS, 'item');
}

function group(f, gr) {
  const kind = req(gr, 'kind');
  f.E(kind, GROUP_KIND, 'group kind').H(req(gr, 'key')).W(req(gr, 'claim_count'));
  if (kind === 'numeric') {
    ref(f, req(gr, 'min'), kind);
    ref(f, req(gr, 'max'), kind);
    f.R(gr, ['kind', 'key', 'claim_count', 'min', 'max'], 'group');
  } else {
    ref(f, req(gr, 'first'), kind);
    f.P(opt(gr, 'other'), (g, r) => ref(g, r, kind));
    f.R(gr, ['kind', 'key', 'claim_count', 'first', 'other'], 'group');
  }
}

const CHUNK_KEYS = ['requirement_id', 'window', 'chunk', 'items', 'item_count',
  'admitted_count', 'covered', 'provenance_ok', 'claim_count', 'sources', 'groups',
  'last_leaf', 'from_leaf'];

// Section 2.5.
function chunkForm(step) {
  const o = req(step, 'output');
  const inputs = req(step, 'inputs');
  const f = head(step, TAG.CHUNK);
  f.H(req(o, 'requirement_id')).B(req(o, 'covered')).B(req(o, 'provenance_ok'));
  f.W(req(o, 'item_count'), 'item_count');
  f.O(opt(o, 'last_leaf'), (g, n) => g.W(n, 'last_leaf'));
  f.L(req(o, 'sources'), (g, s) => {
    g.H(req(s, 'step_id')).H(req(s, 'evidence_id')).H(req(s, 'source_id'));
    g.R(s, ['step_id', 'evidence_id', 'source_id'], 'source');
  }, 'sources');
  f.T(req(inputs, 'requirement_id'), 'inputs.requirement_id');
  f.R(inputs, ['kind', 'requirement_id'], 'inputs');
  citations(f, step);
  f.W(req(o, 'chunk'), 'chunk').W(req(o, 'admitted_count'), 'admitted_count');
  f.W(req(o, 'claim_count'), 'claim_count');
  const window = req(o, 'window');
  f.W(req(window, 'start')).W(req(window, 'end')).R(window, ['start', 'end'], 'window');
  f.O(opt(o, 'from_leaf'), (g, n) => g.W(n, 'from_leaf'));
  f.L(req(o, 'items'), item, 'items');
  f.L(req(o, 'groups'), group, 'groups');
  lastWords(f, step, o, CHUNK_KEYS);
  return f;
}

const FIELD_KEYS = ['key', 'kind', 'status', 'candidates', 'fallback_used', 'value', 'quorum',
  'claim_ids', 'evidence_ids', 'votes'];

function field(f, fd) {
  const kind = req(fd, 'kind');
  f.H(req(fd, 'key')).E(kind, KIND, 'field kind').E(req(fd, 'status'), STATUS, 'status');
  f.W(req(fd, 'candidates'), 'candidates').B(req(fd, 'fallback_used'), 'fallback_used');
  f.P(opt(fd, 'value'), (g, v) => g.V(kind, v, 'field value'));
  f.P(opt(fd, 'quorum'), (g, q) => {
    g.W(req(q, 'required'), 'required').W(req(q, 'agreeing'), 'agreeing');
    g.B(req(q, 'met'), 'met').R(q, ['required', 'agreeing', 'met'], 'quorum');
  });
  hashList(f, req(fd, 'claim_ids'), 'claim_ids');
  hashList(f, req(fd, 'evidence_ids'), 'evidence_ids');
  f.P(opt(fd, 'votes'), (g, votes) => g.L(votes, (h, v) => {
    h.V(kind, req(v, 'value'), 'vote value').H(req(v, 'source_id'));
    h.H(req(v, 'evidence_id')).R(v, ['value', 'source_id', 'evidence_id'], 'vote');
  }, 'votes'));
  f.R(fd, FIELD_KEYS, 'field');
}

const AGGREGATE_KEYS = ['requirement_id', 'strategy', 'covered', 'provenance_ok',
  'item_count', 'last_leaf', 'fallback_used', 'fields', 'sources_used'];

// Section 2.6.
function aggregateForm(step) {
  const o = req(step, 'output');
  const inputs = req(step, 'inputs');
  const f = head(step, TAG.AGGREGATE);
  f.T(req(inputs, 'requirement_id'), 'inputs.requirement_id');
  f.R(inputs, ['kind', 'requirement_id'], 'inputs');
  citations(f, step);
  f.H(req(o, 'requirement_id')).E(req(o, 'strategy'), STRATEGY, 'strategy');
  f.B(req(o, 'covered')).B(req(o, 'provenance_ok'));
  f.W(req(o, 'item_count'), 'item_count');
  f.O(opt(o, 'last_leaf'), (g, n) => g.W(n, 'last_leaf'));
  f.B(req(o, 'fallback_used'));
  f.L(req(o, 'fields'), field, 'fields');
  hashList(f, req(o, 'sources_used'), 'sources_used');
  lastWords(f, step, o, AGGREGATE_KEYS);
  return f;
}

// V' (section 2.7): a value "as text".
function valueAsText(f, kind, v) {
  if (kind === 'numeric') return f.D(v, 'conflict value');
  if (v === 'true' || v === 'false') return f.W(v === 'true' ? 1n : 0n);
  return none('a boolean conflict value is not "true" or "false"');
}

const CONFLICT_KEYS = ['check_id', 'kind', 'key', 'claim_ids', 'evidence_ids', 'values',
  'claim_count'];

function conflict(f, c) {
  const kind = req(c, 'kind');
  f.E(req(c, 'check_id'), CHECK_ID, 'check_id').E(kind, GROUP_KIND, 'conflict kind');
  f.H(req(c, 'key'));
  hashList(f, req(c, 'claim_ids'), 'claim_ids');
  hashList(f, req(c, 'evidence_ids'), 'evidence_ids');
  f.L(req(c, 'values'), (g, v) => valueAsText(g, kind, v), 'values');
  f.W(req(c, 'claim_count'), 'claim_count').R(c, CONFLICT_KEYS, 'conflict');
}

function openHead(step, tag) {
  const f = head(step, tag);
  f.R(req(step, 'inputs'), ['kind'], 'inputs');
  citations(f, step);
  return f;
}

// Section 2.7.
function contradictionsForm(step) {
  const o = req(step, 'output');
  const f = openHead(step, TAG.CONTRADICTIONS);
  f.W(req(o, 'claim_count'), 'claim_count').D(req(o, 'numeric_tolerance'), 'numeric_tolerance');
  f.L(req(o, 'conflicts'), conflict, 'conflicts');
  lastWords(f, step, o, ['claim_count', 'numeric_tolerance', 'conflicts']);
  return f;
}

const DEDUCE_KEYS = ['predicate', 'metric', 'metric_status', 'uncovered_requirements',
  'insufficient_evidence', 'conflict_detected', 'fallback_used', 'provenance_ok',
  'source_summary', 'event_observed', 'numeric_value', 'timestamp'];

// The optional variables event, value, timestamp: P[B] P[D] P[W].
function variables(f, m) {
  f.P(opt(m, 'event_observed'), (g, b) => g.B(b, 'event_observed'));
  f.P(opt(m, 'numeric_value'), (g, d) => g.D(d, 'numeric_value'));
  f.P(opt(m, 'timestamp'), (g, t) => g.W(t, 'timestamp'));
}

// Section 2.8.
function deduceForm(step) {
  const o = req(step, 'output');
  const f = openHead(step, TAG.DEDUCE);
  f.E(req(o, 'predicate'), PREDICATE, 'predicate').H(req(o, 'metric'));
  f.E(req(o, 'metric_status'), METRIC_STATUS, 'metric_status');
  textList(f, req(o, 'uncovered_requirements'), 'uncovered_requirements');
  for (const k of ['insufficient_evidence', 'conflict_detected', 'fallback_used',
    'provenance_ok']) f.B(req(o, k), k);
  hashList(f, req(o, 'source_summary'), 'source_summary');
  variables(f, o);
  lastWords(f, step, o, DEDUCE_KEYS);
  return f;
}

const MAP_VARIABLES = ['event_observed', 'numeric_value', 'timestamp', 'conflict_detected',
  'insufficient_evidence', 'fallback_used', 'provenance_ok', 'source_summary'];

// Section 2.9.
function mapForm(step) {
  const o = req(step, 'output');
  const v = req(o, 'evaluation_variables');
  const f = openHead(step, TAG.MAP);
  variables(f, v);
  for (const k of ['conflict_detected', 'insufficient_evidence', 'fallback_used',
    'provenance_ok']) f.B(req(v, k), k);
  hashList(f, req(v, 'source_summary'), 'source_summary');
  f.R(v, MAP_VARIABLES, 'evaluation_variables');
  lastWords(f, step, o, ['evaluation_variables']);
  return f;
}

const BY_TAG = new Map([
  [TAG.EXTRACT, extractForm], [TAG.CHUNK, chunkForm], [TAG.AGGREGATE, aggregateForm],
  [TAG.CONTRADICTIONS, contradictionsForm], [TAG.DEDUCE, deduceForm], [TAG.MAP, mapForm],
]);

export function stepForm(step) {
  asMap(step, 'step');
  return BY_TAG.get(stepTag(step))(step).bytes();
}
