import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const peers = 'A dialect implements the interfaces of store/ on its own: it imports neither the other dialect nor the opener.';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'playwright-report/**', 'test-results/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  // The store's dialects are peers behind the interfaces of server/src/store/: neither imports the other or the
  // opener, and the rest of the server reaches them only through those interfaces.
  {
    files: ['server/src/store/sqlite/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/postgres/**', '**/open-store.ts'], message: peers }] }] },
  },
  {
    files: ['server/src/store/postgres/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/sqlite/**', '**/open-store.ts'], message: peers }] }] },
  },
  {
    files: ['server/src/**'],
    ignores: ['server/src/store/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/store/sqlite/**', '**/store/postgres/**'], message: 'Import the interfaces and records of store/.' }] },
      ],
    },
  },
  { files: ['scripts/**', '**/*.mjs', 'e2e/**', '**/bench/**', 'server/faults/**'], rules: { 'no-console': 'off' } },
  // Tests read JSON answers whose shape is what they assert.
  { files: ['**/test/**', 'e2e/**', '**/bench/**', 'server/faults/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  prettier,
);
