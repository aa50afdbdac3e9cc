// Bundles the sample integrator into demo-site/dist/integrator with its page.
import fs from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: ['integrator/server.ts'],
  outfile: 'dist/integrator/server.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
});
fs.cpSync('integrator/public', 'dist/integrator/public', { recursive: true });
