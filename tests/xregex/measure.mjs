// SPEC §12.1.2 in JavaScript, written from SPEC.md's text (by the author of the
// Python measure, so it checks the rules are stated completely, not that a
// stranger reads them the same way):
// the regex subset's grammar and its measure (groups, repetition sum, positions,
// width), and the plan of §12.1.2's rule table. Usage: node measure.mjs regex.json
// prints one line per vector that disagrees, then "ok N" or "FAIL N".
import { readFileSync } from "node:fs";

const MAX = 0x10ffff;
const META = new Set("\\.+*?()|[]{}^$");
const CLASS_META = new Set("\\[]-&~");
const PUNCT = new Set();
for (let c = 0x21; c < 0x7f; c++) {
  const ch = String.fromCharCode(c);
  if (!/[0-9A-Za-z]/.test(ch) && ch !== "<" && ch !== ">") PUNCT.add(ch);
}
const CONTROL = { n: 0x0a, t: 0x09, r: 0x0d, f: 0x0c, v: 0x0b };
const DIGIT = [[0x30, 0x39]];
const SPACE = [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]];
const WORD = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const complement = (rs) => {
  const out = []; let low = 0;
  for (const [a, b] of rs) { if (a > low) out.push([low, a - 1]); low = Math.max(low, b + 1); }
  if (low <= MAX) out.push([low, MAX]);
  return out;
};
const merge = (rs) => {
  const out = [];
  for (const [a, b] of [...rs].sort((x, y) => x[0] - y[0] || x[1] - y[1])) {
    if (out.length && a <= out[out.length - 1][1] + 1) out[out.length - 1][1] = Math.max(out[out.length - 1][1], b);
    else out.push([a, b]);
  }
  return out;
};
const PERL = { d: DIGIT, s: SPACE, w: WORD, D: complement(DIGIT), S: complement(SPACE), W: complement(WORD) };

class Refused extends Error {}

function measure(pattern) {
  const cs = Array.from(pattern); // characters = code points
  let i = 0, groups = 0, repeatSum = 0n;
  let nullable = false; // whether the sub-pattern just parsed can match the empty text
  const atoms = [];
  const peek = () => (i < cs.length ? cs[i] : "");
  const fail = () => { throw new Refused(); };
  const add = (into, m, k) => { for (const [a, c] of m) into.set(a, (into.get(a) ?? 0n) + c * k); };
  const atom = (ranges) => { atoms.push(ranges); return new Map([[atoms.length - 1, 1n]]); };
  const escapeChar = () => { // after "\": a literal's code point, or fail
    const c = cs[i + 1] ?? "";
    if (PUNCT.has(c)) { i += 2; return c.codePointAt(0); }
    if (c in CONTROL) { i += 2; return CONTROL[c]; }
    return fail();
  };
  const count = () => {
    const s = i;
    while (/[0-9]/.test(peek())) i++;
    const d = cs.slice(s, i).join("");
    if (!d || (d.length > 1 && d[0] === "0")) fail();
    return BigInt(d);
  };
  const classItem = () => {
    const c = peek();
    if (c === "\\") return escapeChar();
    if (c === "" || CLASS_META.has(c)) fail();
    i++; return c.codePointAt(0);
  };
  const bracket = () => {
    i++;
    const neg = peek() === "^"; if (neg) i++;
    const rs = [];
    for (;;) {
      if (peek() === "]" && rs.length) { i++; break; }
      if (peek() === "\\" && (cs[i + 1] ?? "") in PERL) { rs.push(...PERL[cs[i + 1]]); i += 2; continue; }
      const lo = classItem(); let hi = lo;
      if (peek() === "-") { i++; hi = classItem(); if (hi < lo) fail(); }
      rs.push([lo, hi]);
    }
    const m = merge(rs);
    return neg ? complement(m) : m;
  };
  const alternation = () => {
    const out = branch(); let any = nullable;
    while (peek() === "|") { i++; add(out, branch(), 1n); any = any || nullable; }
    nullable = any;
    return out;
  };
  const branch = () => {
    const out = new Map(); let all = true;
    while (!["", "|", ")"].includes(peek())) { add(out, piece(), 1n); all = all && nullable; }
    nullable = all;
    return out;
  };
  const quantifier = () => { // copies, or null
    const c = peek();
    if ("*+?".includes(c) && c) { i++; nullable = c !== "+"; return 1n; }
    if (c !== "{") return null;
    i++;
    const lo = count(); let hi = lo, open = false;
    if (peek() === ",") { i++; if (peek() === "}") open = true; else hi = count(); }
    if (peek() !== "}" || (!open && hi < lo)) fail();
    i++;
    repeatSum += open ? lo : hi;
    nullable = lo === 0n;
    return open ? (lo > 0n ? lo : 1n) : hi;
  };
  const piece = () => {
    const c = peek();
    if (c === "^" || c === "$") {
      i++; if ("*+?{".includes(peek()) && peek()) fail(); nullable = true; return new Map();
    }
    let m; nullable = false;
    if (c === "(") {
      i++;
      if (peek() === "?") { if (cs[i + 1] === ":") i += 2; else fail(); } else groups++;
      m = alternation();
      if (peek() !== ")") fail();
      i++;
    } else if (c === "[") m = atom(bracket());
    else if (c === ".") { i++; m = atom([[0, 9], [11, MAX]]); }
    else if (c === "\\") {
      const n = cs[i + 1] ?? "";
      if (n in PERL) { i += 2; m = atom(PERL[n]); } else { const v = escapeChar(); m = atom([[v, v]]); }
    } else if (c === "" || META.has(c)) fail();
    else { i++; m = atom([[c.codePointAt(0), c.codePointAt(0)]]); }
    if (nullable && "*+?{".includes(peek()) && peek()) fail(); // a nullable group takes no quantifier
    const k = quantifier();
    if (k === null) return m;
    if (peek() === "?") i++;
    if ("*+?{".includes(peek()) && peek()) fail();
    const out = new Map(); add(out, m, k); return out;
  };
  const counts = alternation();
  if (i !== cs.length) fail();
  let positions = 0n; for (const c of counts.values()) positions += c;
  const ev = [];
  for (const [a, c] of counts) {
    for (const [lo, hi] of atoms[a]) { // surrogates U+D800..U+DFFF are not characters
      for (const [l, h] of [[lo, Math.min(hi, 0xd7ff)], [Math.max(lo, 0xe000), hi]]) {
        if (l <= h) { ev.push([l, c]); ev.push([h + 1, -c]); }
      }
    }
  }
  ev.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
  let level = 0n, width = 0n;
  for (const [, d] of ev) { level += d; if (level > width) width = level; }
  return { groups, repeat_sum: repeatSum, positions, width };
}

const TEXTS = ["regex longer than 256 characters", "regex outside the SPEC 12.1.2 syntax",
  "counted repetitions add up to more than 64", "regex has no capture group",
  "regex has more than 512 positions", "regex fields of the requirement exceed 1024 positions"];

function plan1(pattern) { // rules 1-5
  if (Array.from(pattern).length > 256) return [TEXTS[0], null];
  let m;
  try { m = measure(pattern); } catch (e) { if (e instanceof Refused) return [TEXTS[1], null]; throw e; }
  if (m.repeat_sum > 64n) return [TEXTS[2], m];
  if (m.groups < 1) return [TEXTS[3], m];
  if (m.positions > 512n) return [TEXTS[4], m];
  return ["ok", m];
}

const data = JSON.parse(readFileSync(process.argv[2], "utf8"));
let bad = 0, n = 0;
for (const v of data.patterns) {
  n++;
  const [plan, m] = plan1(v.pattern);
  const got = { plan, groups: m ? m.groups : null, repeat_sum: m ? Number(m.repeat_sum) : null,
    positions: m ? Number(m.positions) : null, width: m ? Number(m.width) : null,
    cost: m ? (Number(m.width) + 1) * (Number(m.width) <= 10 ? 1 : 8) : null };
  for (const k of Object.keys(got)) if (got[k] !== v[k]) { bad++; console.log(`${JSON.stringify(v.pattern)} ${k}: ${got[k]} != ${v[k]}`); }
}
for (const r of data.requirements) {
  n++;
  let left = 1024n; const plans = [];
  for (const p of r.patterns) {
    let [plan, m] = plan1(p);
    if (plan === "ok") { if (m.positions > left) plan = TEXTS[5]; else left -= m.positions; }
    plans.push(plan);
  }
  if (JSON.stringify(plans) !== JSON.stringify(r.plan)) { bad++; console.log(`requirement ${JSON.stringify(r.patterns)}: ${plans}`); }
}
console.log(bad ? `FAIL ${bad}` : `ok ${n}`);
