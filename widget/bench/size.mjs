// Size budgets of the widget (issue 15), gzip -9 as a compressing server sends them. Run after
// `pnpm --filter @svc/widget build`:  node widget/bench/size.mjs
//   loader.js                                       <= 2 KB
//   frame first load: frame.html, its entry script and what that imports statically, its CSS and one
//   language's catalogue                            <= 2 KB more than before the languages came
//   whole widget once the chat window is open, one language: loader + embed script + frame first load
//                                                   <= 35 KB
// What a visitor only loads on demand (a form or dialog they open, the triggers script of a channel with rules)
// is listed apart and counts into neither. Prints OK or OVER per budget and always exits 0: it reports, CI decides.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const KB = 1024;
// The frame's first load before the languages came (frame.html, its script and its CSS, English built in):
// 29.65 KB on main at 5e24cbb. Issue 15: languages may add at most 2 KB to it.
const FRAME_BEFORE_LANGUAGES = 29.65 * KB;
const BUDGETS = { loader: 2 * KB, frame: FRAME_BEFORE_LANGUAGES + 2 * KB, open: 35 * KB };
const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist');

if (!fs.existsSync(path.join(dist, 'loader.js'))) {
  console.log(`widget size: ${dist}/loader.js is missing; build first: pnpm --filter @svc/widget build`);
  process.exit(0);
}

const read = (name) => fs.readFileSync(path.join(dist, name));
const gzip = (name) => gzipSync(read(name), { level: 9 }).length;
const assets = fs
  .readdirSync(path.join(dist, 'assets'))
  .filter((name) => !name.endsWith('.map'))
  .map((name) => `assets/${name}`);

/** A module and every chunk it imports statically (not `import()`: those load on demand). */
function staticClosure(name, seen = new Set()) {
  if (seen.has(name)) return seen;
  seen.add(name);
  const code = read(name).toString();
  for (const [, spec] of code.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]*?from\s*)?["'](\.\/[^"']+)["']/g))
    staticClosure(path.posix.join(path.posix.dirname(name), spec), seen);
  return seen;
}

// What frame.html itself asks for: its module script and its stylesheet.
const html = read('frame.html').toString();
const entries = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]);
const firstLoad = new Set(['frame.html']);
for (const entry of entries) for (const name of entry.endsWith('.js') ? staticClosure(entry) : [entry]) firstLoad.add(name);

// One chunk per language (widget/vite.config.ts names them locale-<lang>-<hash>.js); the frame loads one.
const catalogues = assets.filter((name) => /^assets\/locale-/.test(name)).map((name) => ({ name, gzip: gzip(name) }));
catalogues.sort((a, b) => b.gzip - a.gzip);
const english = catalogues.find((c) => c.name.startsWith('assets/locale-en-'));
const largest = catalogues[0];
const onDemand = [...assets.filter((name) => !firstLoad.has(name) && !/^assets\/locale-/.test(name)), 'triggers.js'];

const sum = (names) => names.reduce((total, name) => total + gzip(name), 0);
const kb = (bytes) => `${(bytes / KB).toFixed(2)} KB`;
const verdict = (size, budget) => `${kb(size).padStart(9)} of ${kb(budget).padStart(9)}  ${size <= budget ? 'OK' : 'OVER'}`;
const list = (names) => names.map((name) => `  ${name.padEnd(36)} ${kb(gzip(name)).padStart(9)}`).join('\n');

const loader = gzip('loader.js');
const embed = gzip('embed.js');
const frame = sum([...firstLoad]);
console.log('widget/dist, gzip -9');
console.log(`frame first load (what frame.html loads, before any language):\n${list([...firstLoad])}`);
console.log(`catalogues, one per language, the frame loads one: ${kb(english.gzip)} (en) to ${kb(largest.gzip)} (${largest.name})`);
console.log(`on demand, not part of any figure below (${kb(sum(onDemand))} in all):\n${list(onDemand)}`);
console.log(`loader (loader.js)                        ${verdict(loader, BUDGETS.loader)}`);
console.log(`frame first load, English                 ${verdict(frame + english.gzip, BUDGETS.frame)}`);
console.log(`frame first load, largest catalogue       ${verdict(frame + largest.gzip, BUDGETS.frame)}  (${largest.name})`);
console.log(`after open, English (loader+embed+frame)  ${verdict(loader + embed + frame + english.gzip, BUDGETS.open)}`);
console.log(`after open, largest catalogue             ${verdict(loader + embed + frame + largest.gzip, BUDGETS.open)}`);
