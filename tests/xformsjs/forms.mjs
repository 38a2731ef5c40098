// F of a record, the `forms` component's order, leaf hashes and root
// (docs/spec-forms-draft.md sections 1-3, SPEC §3.6), written from the text alone.
// "No form" throws FormNone (check id `form.none`).
import { commonForm, requirementForm, verdictForm } from './spec.mjs';
import { stepForm } from './steps.mjs';
import { FormNone, none, req, sha256 } from './words.mjs';

export { FormNone, commonForm, requirementForm, verdictForm, stepForm };

// F(R) for a decoded record. A PromptSpec has one COMMON form and one REQUIREMENT form
// per data requirement: `requirement` undefined names COMMON, k names REQUIREMENT k.
export function formOf(record, requirement) {
  const schema = req(record, 'schema');
  if (schema === 'por.PromptSpec/1') {
    return requirement === undefined ? commonForm(record) : requirementForm(record, requirement);
  }
  if (requirement !== undefined) none('only a PromptSpec has requirement forms');
  if (schema === 'por.ReasoningStep/1') return stepForm(record);
  if (schema === 'por.DeterministicVerdict/1') return verdictForm(record);
  return none(`a ${typeof schema === 'string' ? schema : 'record'} has no form type`);
}

// Φ's records (section 3): COMMON and REQUIREMENT 0..r-1 of the PromptSpec, every
// reasoning step in trace order (extract steps included), VERDICT; index j is slot j.
export function formSlots(spec, steps, verdict) {
  const r = req(spec, 'data_requirements');
  if (!Array.isArray(r)) none('data_requirements is not an array');
  return [
    { record: spec, requirement: undefined },
    ...r.map((_, k) => ({ record: spec, requirement: k })),
    ...steps.map((s) => ({ record: s, requirement: undefined })),
    { record: verdict, requirement: undefined },
  ];
}

// Φ itself; throws FormNone when a record has no form.
export function formsOf(spec, steps, verdict) {
  return formSlots(spec, steps, verdict).map((slot) => formOf(slot.record, slot.requirement));
}

// LH(F) = SHA-256(0x00 || F): the form itself (section 3, decision 1).
export function leafHash(form) {
  return sha256(Uint8Array.of(0), form);
}

// RFC 9162 MTH over leaf hashes (SPEC §3.6).
function mthOfLeaves(leaves) {
  if (leaves.length === 1) return leaves[0];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha256(Uint8Array.of(1), mthOfLeaves(leaves.slice(0, k)), mthOfLeaves(leaves.slice(k)));
}

export function formsRoot(forms) {
  return forms.length === 0 ? sha256(new Uint8Array(0)) : mthOfLeaves(forms.map(leafHash));
}
