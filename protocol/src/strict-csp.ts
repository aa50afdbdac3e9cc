import { config } from 'zod';

// For pages under a strict Content-Security-Policy (no 'unsafe-eval'): zod probes `new Function` when it
// builds an object schema, to compile a faster parser, and the browser reports the probe as a violation.
// Imported for this effect alone, first in the console's entry (demo-site/src/console/main.tsx), before any
// module that builds schemas; the server keeps compiling.
config({ jitless: true });
