// Section 1.1's code sets (docs/spec-forms-draft.md), each a Map text -> code.
const codes = (texts, first = 0) => new Map(texts.map((t, i) => [t, i + first]));

export const TAG = {
  COMMON: 1, REQUIREMENT: 2, EXTRACT: 3, CHUNK: 4, AGGREGATE: 5,
  CONTRADICTIONS: 6, DEDUCE: 7, MAP: 8, VERDICT: 9,
};

// inputs.kind -> [step_type, tag] (section 1, "Identity of a step").
export const STEP_KINDS = new Map([
  ['extract_claims', ['extract', TAG.EXTRACT]],
  ['check_requirement', ['check', TAG.CHUNK]],
  ['aggregate', ['aggregate', TAG.AGGREGATE]],
  ['contradictions', ['check', TAG.CONTRADICTIONS]],
  ['deduce', ['deduce', TAG.DEDUCE]],
  ['map', ['map', TAG.MAP]],
]);

export const KIND = codes(['boolean', 'numeric', 'timestamp', 'text']);
// A CHUNK group's and a CONTRADICTIONS conflict's kind: the kind codes, two of them
// (draft section 6, decision 19).
export const GROUP_KIND = codes(['boolean', 'numeric']);
export const STRATEGY = codes(['single_best', 'multi_source_quorum', 'fallback_chain']);
export const TIE_BREAKER = codes(['source_order', 'highest_provenance']);
export const STATUS = codes(['selected', 'missing', 'insufficient', 'no_quorum']);
export const METRIC_STATUS = codes([...STATUS.keys(), 'wrong_kind', 'absent',
  'precondition_unmet', 'value_out_of_range', 'votes_undecided']);
export const PREDICATE = codes(['event_observed', 'numeric_threshold', 'numeric_range',
  'field_comparison', 'text_equals', 'timestamp_threshold']);
export const COMPARISON = codes(['>', '>=', '<', '<=', '==']);
export const OP = codes(['+', '-']);
export const OTHERWISE = codes(['INVALID', 'NO']);
export const ON_CONFLICT = codes(['invalid', 'continue']);
export const RULE = codes(['R_VALIDITY', 'R_CONFLICT', 'R_BINARY_DECISION', 'R_CONFIDENCE',
  'R_INVALID_FALLBACK'], 1);
export const REASON = codes(['sanity.allowed_source', 'sanity.source_target',
  'sanity.time_window', 'sanity.provenance', 'sanity.confidence', 'sanity.http_status',
  'gate.agent_name'], 1);
export const OBSERVED_FROM = codes(['claim', 'receipt']);
export const CHECK_ID = codes(['contradiction.numeric', 'contradiction.boolean']);
export const OUTCOME = codes(['YES', 'NO', 'INVALID']);

// The Unicode White_Space property's 25 code points: the draft's "§12.4's 25
// white-space code points" (SPEC_GAPS.md, gap 1).
export const WHITE_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);
