// Size budget of the widget (issue: loader at most 2 KB gzip; the whole widget, Preact and socket.io-client
// included, at most 35 KB gzip). Run after `pnpm --filter @svc/widget build`:  node widget/bench/size.mjs
// Prints OK or OVER per budget and always exits 0: it reports, CI decides.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const BUDGETS = { loader: 2 * KB, total: 35 * KB };
const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist');

/** Every file under dir, with the bytes it takes gzipped (level 9, as served by a gzip-compressing server). */
function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    if (entry.name.endsWith('.map')) return [];
    return [{ name: path.relative(dist, full), gzip: gzipSync(fs.readFileSync(full), { level: 9 }).length }];
  });
}

if (!fs.existsSync(path.join(dist, 'loader.js'))) {
  console.log(`widget size: ${dist}/loader.js is missing; build first: pnpm --filter @svc/widget build`);
  process.exit(0);
}

const all = files(dist).sort((a, b) => b.gzip - a.gzip);
const loader = all.find((f) => f.name === 'loader.js').gzip;
const total = all.reduce((sum, f) => sum + f.gzip, 0);
const kb = (bytes) => `${(bytes / KB).toFixed(2)} KB`;
const verdict = (size, budget) => `${kb(size).padStart(9)} of ${kb(budget).padStart(9)}  ${size <= budget ? 'OK' : 'OVER'}`;

console.log('widget/dist, gzip -9:');
for (const f of all) console.log(`  ${f.name.padEnd(32)} ${kb(f.gzip).padStart(9)}`);
console.log(`loader (loader.js)            ${verdict(loader, BUDGETS.loader)}`);
console.log(`whole widget (all of dist)    ${verdict(total, BUDGETS.total)}`);
