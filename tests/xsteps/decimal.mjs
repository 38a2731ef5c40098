// Canonical decimals (SPEC §3.2) as exact [BigInt, scale] pairs: parse, compare,
// add, subtract, and the canonical text of a result.

export function dec(text) {
  const neg = text.startsWith('-');
  const body = neg ? text.slice(1) : text;
  const [whole, frac = ''] = body.split('.');
  const n = BigInt(whole + frac);
  return [neg ? -n : n, frac.length];
}

function align(a, b) {
  const s = Math.max(a[1], b[1]);
  return [a[0] * 10n ** BigInt(s - a[1]), b[0] * 10n ** BigInt(s - b[1]), s];
}

export function cmp(a, b) {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function sub(a, b) {
  const [x, y, s] = align(a, b);
  return [x - y, s];
}

export function add(a, b) {
  const [x, y, s] = align(a, b);
  return [x + y, s];
}

// No exponent, no trailing fraction zeros, no "-0".
export function text([n, scale]) {
  const neg = n < 0n;
  let digits = (neg ? -n : n).toString().padStart(scale + 1, '0');
  let out = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  if (scale) out = out.replace(/0+$/, '').replace(/\.$/, '');
  return neg && out !== '0' ? `-${out}` : out;
}
