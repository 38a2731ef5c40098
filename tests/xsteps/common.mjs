// Shared by the re-derivers: the record frame (SPEC §12.5.2), the cited claims and cards.

export function record(rec, stepType, description, output, evidenceIds = rec.evidence_ids) {
  return { schema: 'por.ReasoningStep/1', step_id: rec.step_id, step_type: stepType,
    description, evidence_ids: evidenceIds, prior_step_ids: rec.prior_step_ids,
    inputs: rec.inputs, output };
}

export function citedClaims(vector, rec) {
  return rec.prior_step_ids.filter((id) => id in vector.extract_outputs)
    .map((id) => vector.extract_outputs[id].claims);
}


// SPEC §12.5.2: a later step reads the k-th cited item only through the card of the
// k-th cited extract step (`output.card`), never the item itself.
export function citedCards(vector, rec) {
  return rec.prior_step_ids.filter((id) => id in vector.extract_outputs).map((id) => {
    const out = vector.extract_outputs[id];
    const card = out.card;
    return { evidence_id: out.evidence_id, source: { source_id: card.source_id },
      retrieval_receipt: { retrieved_at: card.retrieved_at, status_code: card.status_code },
      provenance_tier: card.provenance_tier, confidence_bps: card.confidence_bps };
  });
}
