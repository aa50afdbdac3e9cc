import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['protocol/**/*.test.ts', 'server/test/**/*.test.ts', 'widget/**/*.test.ts', 'demo-site/**/*.test.ts'],
    // Two cores: integration files each start real servers; keep parallelism modest.
    maxWorkers: 2,
    globalSetup: ['server/test/support/pg-global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
