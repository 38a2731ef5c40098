// Re-derives every step record after `extract` from fixtures/vectors/step_records.json
// using SPEC §12.4, §12.4.1 and §12.5-§12.5.7 alone (stage 3: check chunks with a
// running state), and compares the por-cbor/1 bytes; items are read only through
// their extract steps' cards (§12.1.4), each checked here; each step's place and
// citations are checked by citations.mjs (§12.5.1).
// Usage: node rederive.mjs ROOT   -> one JSON line, then "N passed, N failed".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeHex } from './cbor.mjs';
import { record } from './common.mjs';
import { aggregate } from './aggregate.mjs';
import { checkRequirement } from './check.mjs';
import { contradictions } from './contradictions.mjs';
import { deduce } from './deduce.mjs';
import { checkCitations } from './citations.mjs';

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
  // A failure is "vector/step_id" (its bytes) or "vector/step_id: what" (its place);
  // a record passes when neither names it.
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const failed = new Set(failures.map((f) => f.split(':')[0])).size;
  process.stdout.write(JSON.stringify({ counts, failures }) + '\n');
  process.stdout.write(`${Math.max(0, total - failed)} passed, ${failed} failed\n`);
  process.exit(failures.length ? 1 : 0);
}

main();
