import { config } from 'zod';

// For pages under a strict Content-Security-Policy (no 'unsafe-eval'): zod probes `new Function` when it
// builds an object schema, to compile a faster parser, and the browser reports the probe as a violation.
// Imported for this effect alone, before any module that builds schemas (the console's admin panel); the
// server keeps compiling.
config({ jitless: true });
