// Bundles the server and the workspace packages it imports into dist/main.js; npm dependencies stay
// external and load from node_modules at run time. The API reference page (`/docs/api/`) goes to
// dist/api-docs with Redoc's standalone bundle copied in, so nothing of it comes from a CDN.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-npm-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@svc/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});

const require = createRequire(import.meta.url);
const apiDocs = 'dist/api-docs';
fs.rmSync(apiDocs, { recursive: true, force: true });
fs.cpSync('api-docs', apiDocs, { recursive: true });
const redoc = path.join(path.dirname(require.resolve('redoc/package.json')), 'bundles');
for (const file of ['redoc.standalone.js', 'redoc.standalone.js.LICENSE.txt'])
  fs.copyFileSync(path.join(redoc, file), path.join(apiDocs, file));
