// Size budget of the widget (issue: loader at most 2 KB gzip; the whole widget, Preact and socket.io-client
// included, at most 35 KB gzip for one language; the frame's first load at most 2 KB more than before languages). Run after `pnpm --filter @svc/widget build`:  node widget/bench/size.mjs
// Prints OK or OVER per budget and always exits 0: it reports, CI decides.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const BUDGETS = { loader: 2 * KB, total: 35 * KB };
// The frame's first load before the languages came (frame.html, its script and its CSS, English built in):
// 29.65 KB on main at 5e24cbb. Issue 15: languages may add at most 2 KB to it.
const FRAME_BEFORE_LANGUAGES = 29.65 * KB;
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
const sum = (list) => list.reduce((total, f) => total + f.gzip, 0);
// The chat frame loads one language's catalogue (assets/locale-<lang>-<hash>.js), never the others.
const catalogues = all.filter((f) => /^assets\/locale-/.test(f.name));
const largestCatalogue = catalogues[0] ?? { name: 'none', gzip: 0 };
const english = catalogues.find((f) => f.name.startsWith('assets/locale-en-')) ?? largestCatalogue;
const frameEntry = sum(all.filter((f) => f.name === 'frame.html' || /^assets\/frame-/.test(f.name)));
const total = sum(all) - sum(catalogues) + largestCatalogue.gzip;
const kb = (bytes) => `${(bytes / KB).toFixed(2)} KB`;
const verdict = (size, budget) => `${kb(size).padStart(9)} of ${kb(budget).padStart(9)}  ${size <= budget ? 'OK' : 'OVER'}`;

console.log('widget/dist, gzip -9:');
for (const f of all) console.log(`  ${f.name.padEnd(32)} ${kb(f.gzip).padStart(9)}`);
console.log(`loader (loader.js)            ${verdict(loader, BUDGETS.loader)}`);
console.log(
  `frame first load, English    ${verdict(frameEntry + english.gzip, FRAME_BEFORE_LANGUAGES + 2 * KB)}  (html + script + css + ${english.name})`,
);
console.log(
  `frame first load, largest    ${verdict(frameEntry + largestCatalogue.gzip, FRAME_BEFORE_LANGUAGES + 2 * KB)}  (with ${largestCatalogue.name})`,
);
console.log(
  `whole widget, one language    ${verdict(total, BUDGETS.total)}  (all of dist but the other ${Math.max(catalogues.length - 1, 0)} catalogues)`,
);
