// Shared by the re-derivers: the record frame (SPEC §12.5.2) and the cited claims.

export function record(rec, stepType, description, output, evidenceIds = rec.evidence_ids) {
  return { schema: 'por.ReasoningStep/1', step_id: rec.step_id, step_type: stepType,
    description, evidence_ids: evidenceIds, prior_step_ids: rec.prior_step_ids,
    inputs: rec.inputs, output };
}

export function citedClaims(vector, rec) {
  return rec.prior_step_ids.filter((id) => id in vector.extract_outputs)
    .map((id) => vector.extract_outputs[id].claims);
}

