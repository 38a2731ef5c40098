// The draft's own examples (docs/spec-forms-draft.md section 1's table and section
// 2.11's worked example), each recomputed: a second check of this implementation
// against the text itself rather than against the generated vectors.
import { STRATEGY } from './codes.mjs';
import { FormNone, Form } from './words.mjs';
import { leafHash, requirementForm } from './forms.mjs';

const hex = (b) => Buffer.from(b).toString('hex');
const z = (n) => '00'.repeat(n);
const w = (n) => n.toString(16).padStart(64, '0');

// The words an encoder writes, without the tag word a Form starts with.
function words(write) {
  const f = new Form(0);
  write(f);
  return hex(f.bytes().subarray(32));
}

const m = (entries) => new Map(entries);

// [name, encoder, expected hex or null for "no form"]
const TABLE = [
  ['W(5)', (f) => f.W(5n), w(5)],
  ['W(2^64-1)', (f) => f.W((1n << 64n) - 1n), z(24) + 'ff'.repeat(8)],
  ['W(-1)', (f) => f.W(-1n), null],
  ['W(true)', (f) => f.W(true), null],
  ['B(true)', (f) => f.B(true), w(1)],
  ['B(1)', (f) => f.B(1n), null],
  ['B("true")', (f) => f.B('true'), null],
  ['E(strategy "fallback_chain")', (f) => f.E('fallback_chain', STRATEGY), w(2)],
  ['E(strategy "best")', (f) => f.E('best', STRATEGY), null],
  ['H("price")', (f) => f.H('price'),
    '683b531f41ec88a2f345b727afe59757b73162a340a65c86bba62866f8fe556c'],
  ['T("ab")', (f) => f.T('ab'), w(2) + '6162' + z(30)],
  ['T("")', (f) => f.T(''), w(0)],
  // The rule's "no padding word when the length is a multiple of 32" (no example given).
  ['T(32 x "a")', (f) => f.T('a'.repeat(32)), w(32) + '61'.repeat(32)],
  ['D("-0.25")', (f) => f.D('-0.25'), '800002' + z(28) + '02' + '3235' + z(30)],
  ['D("100")', (f) => f.D('100'), w(3) + '313030' + z(29)],
  ['D("0")', (f) => f.D('0'), w(1) + '30' + z(31)],
  ['D("1.50")', (f) => f.D('1.50'), null],
  ['D("-0")', (f) => f.D('-0'), null],
  ['D("1e5")', (f) => f.D('1e5'), null],
  ['V_numeric("100")', (f) => f.V('numeric', '100'), w(3) + '313030' + z(29)],
  // SPEC §5.6.1 since s41: a text value is H.
  ['V_text("price")', (f) => f.V('text', 'price'),
    '683b531f41ec88a2f345b727afe59757b73162a340a65c86bba62866f8fe556c'],
  ['L[T](["a"])', (f) => f.L(['a'], (g, t) => g.T(t)), w(1) + w(1) + '61' + z(31)],
  ['P[W](absent)', (f) => f.P(undefined, (g, n) => g.W(n)), w(0)],
  ['P[W](7)', (f) => f.P(7n, (g, n) => g.W(n)), w(1) + w(7)],
  ['O(absent)', (f) => f.O(undefined, (g, n) => g.W(n)), w(0) + w(0)],
  ['Z(absent)', (f) => f.Z(undefined), w(0)],
  ['R({"a":1,"x":1}, {"a"})', (f) => f.R(m([['a', 1n], ['x', 1n]]), ['a']),
    '2956b2cee8e54663cef11aac45368e3a869c862ed7a6fd2dba3a408017ce3e0e'],
  ['R({"a":1}, {"a"})', (f) => f.R(m([['a', 1n]]), ['a']), w(0)],
];

// SPEC §5.6.13: REQUIREMENT of fixtures/markets/01-boolean-observed, 14 words (s41: a
// field is E(kind) H(key), its T(key) gone).
const WORKED = [
  w(2), '56cda5886a10d7a4b63de09585bc0eeb3c33afbe565c470617112d53c5f1d6fa', w(0), w(0), w(1),
  w(1), w(1), '5a1eecc78fc7cecb62a7e45b6091a407c7d691374e3881ee6b117a904ca95f6e', w(2), w(0),
  '740062676a3134f36f0f0fc90152e91a417d0d363bf2441ebd6a5103f562dacf', w(2),
  '6f3b4d4c313a62a5ed5d98395f36f232e91ffa0b08d3b1fdf6690b7d043cc459', w(0),
].join('');
const WORKED_LH = '4b24cca3cfb93c38f6f470156e100eeb7742d96df321ccf0b1ac57b0c71ae088';

function attempt(write) {
  try {
    return write();
  } catch (e) {
    if (e instanceof FormNone) return null;
    throw e;
  }
}

// Each example as {name, ok, want, got}; `spec01` is the decoded PromptSpec of market
// 01-boolean-observed (from the vectors file), or undefined when the file has none.
export function checkExamples(spec01) {
  const out = TABLE.map(([name, write, want]) => {
    const got = attempt(() => words(write));
    return { name, ok: got === want, want, got };
  });
  if (spec01 !== undefined) {
    const form = attempt(() => requirementForm(spec01, 0));
    const got = form && [hex(form), hex(leafHash(form))];
    out.push({ name: 'section 2.11 worked example', ok: got !== null && got[0] === WORKED
      && got[1] === WORKED_LH, want: [WORKED, WORKED_LH], got });
  }
  return out;
}
