// CLI: node tests/xcontainer/check.mjs FILE
// Prints one JSON line: {schema, ok, first_mismatch, top_root, records,
// proofs_checked, ...}. Exit 0 when ok, 1 when the bundle is rejected,
// 2 on a usage or I/O error.
import { readFileSync } from 'node:fs';
import { check } from './container.mjs';

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('usage: node check.mjs FILE');
  process.exit(2);
}
let bytes;
try {
  bytes = readFileSync(file);
} catch (e) {
  console.error(`cannot read ${file}: ${e.message}`);
  process.exit(2);
}
const result = check(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
console.log(JSON.stringify(result));
process.exitCode = result.ok ? 0 : 1;
