import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
  { files: ['scripts/**', '**/*.mjs', 'e2e/**', '**/bench/**', 'server/faults/**'], rules: { 'no-console': 'off' } },
  // Tests read JSON answers whose shape is what they assert.
  { files: ['**/test/**', 'e2e/**', '**/bench/**', 'server/faults/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  prettier,
);
