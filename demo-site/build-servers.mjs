// Bundles the sample servers (the Chat API integrator with its page, the FAQ bot) into demo-site/dist.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// Paths are relative to demo-site/, wherever this is run from.
process.chdir(path.dirname(fileURLToPath(import.meta.url)));

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
await build({
  entryPoints: ['bot/server.ts'],
  outfile: 'dist/bot/server.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
});
