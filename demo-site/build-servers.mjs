// Bundles the sample servers (the Chat API integrator with its page, the FAQ bot) into demo-site/dist.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// Paths are relative to demo-site/, wherever this is run from.
const here = path.dirname(fileURLToPath(import.meta.url));
const options = {
  absWorkingDir: here,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
};

await build({ ...options, entryPoints: ['./integrator/server.ts'], outfile: 'dist/integrator/server.js' });
fs.cpSync(path.join(here, 'integrator/public'), path.join(here, 'dist/integrator/public'), { recursive: true });
await build({ ...options, entryPoints: ['./bot/server.ts'], outfile: 'dist/bot/server.js' });
