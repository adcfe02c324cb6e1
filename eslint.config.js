import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const forbiddenInEngine = {
  patterns: [
    { group: ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'comlink', 'recharts'], message: 'The engine is pure: no UI, state or worker libraries.' },
    { group: ['**/ui/**', '**/state/**', '**/worker/**', '../ui', '../state', '../worker'], message: 'Dependencies point one way: ui → state → worker → model.' },
  ],
};

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.tsx', 'src/ui/**/*.ts', 'src/state/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['src/model/**/*.ts', 'src/presets/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', forbiddenInEngine], 'no-console': 'error' },
  },
  {
    files: ['src/worker/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', 'zustand', '**/ui/**', '**/state/**'], message: 'The worker sits below state and ui.' }] }] },
  },
  {
    files: ['src/state/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/ui/**'], message: 'state sits below ui.' }] }] },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
