// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'build/',
      'reports/',
      'test-results/',
      'blob-report/',
      'playwright-report/',
      '.dependency-cruiser.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A missing await on a request or an expect is the classic silent bug of API tests.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Small rooms: a file or a function past these has two jobs, and is split by them, never packed.
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    // Plain JavaScript outside the TypeScript project: linted without type information.
    files: ['eslint.config.js', 'openapi/plugins/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
