import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Package boundaries (docs/architecture.md): connectors know only the kit and the canonical model;
// the web app knows only the shared contracts; the engine reaches connectors through the registry;
// no package imports an app.
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Apps sit on top of packages: a package never imports an app (the benchmark, which drives
    // the server, is an app of its own for that reason).
    files: ['packages/*/src/**'],
    rules: restrict(
      ['@replatform/server/*', '@replatform/web/*', '@replatform/cli/*', '@replatform/bench/*'],
      'Packages do not import apps.',
    ),
  },
  {
    files: ['packages/connectors/src/**'],
    rules: restrict(
      [
        '@replatform/engine/*',
        '@replatform/db/*',
        '@replatform/server/*',
        '@replatform/web/*',
        '@replatform/emulators/*',
      ],
      'Connectors import only the connector kit and @replatform/canonical.',
    ),
  },
  {
    files: ['packages/connectors/src/**/*.test.ts', 'packages/connectors/src/kit/conformance/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['apps/web/src/**'],
    rules: restrict(
      [
        '@replatform/server/*',
        '@replatform/db/*',
        '@replatform/engine/*',
        '@replatform/connectors/*',
        '@replatform/emulators/*',
        '@replatform/canonical/*',
      ],
      'The web app imports only @replatform/contracts.',
    ),
  },
  {
    files: ['packages/canonical/src/**', 'packages/contracts/src/**'],
    rules: restrict(
      [
        '@replatform/server/*',
        '@replatform/db/*',
        '@replatform/engine/*',
        '@replatform/connectors/*',
        '@replatform/emulators/*',
      ],
      'Canonical model and contracts depend on nothing of ours.',
    ),
  },
);
