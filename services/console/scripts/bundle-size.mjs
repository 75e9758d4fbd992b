// Reports the gzipped size of the built JavaScript and fails the build past the budget
// (issue 11: at most 250 KB gzipped in all). A budget, not a timing: it only fails when exceeded.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 250 * 1024;
const assets = fileURLToPath(new URL('../dist/public/assets/', import.meta.url));

const files = readdirSync(assets).filter((name) => name.endsWith('.js'));
const sizes = files.map((name) => ({ name, gzipped: gzipSync(readFileSync(path.join(assets, name)), { level: 9 }).length }));
const total = sizes.reduce((sum, s) => sum + s.gzipped, 0);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

for (const s of sizes.sort((a, b) => b.gzipped - a.gzipped)) console.log(`  ${s.name.padEnd(40)} ${kb(s.gzipped).padStart(10)} gzipped`);
console.log(`console JavaScript: ${kb(total)} gzipped in ${files.length} files (budget ${kb(BUDGET_BYTES)})`);
if (total > BUDGET_BYTES) {
  console.error(`over the ${kb(BUDGET_BYTES)} budget by ${kb(total - BUDGET_BYTES)}`);
  process.exit(1);
}
