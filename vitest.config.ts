import { defineConfig } from 'vitest/config';

// One runner for unit, integration and browser (Playwright) tests. Integration tests start real
// servers on 127.0.0.1 and browser tests drive a Chromium brought by npm (e2e/browser.ts), so
// timeouts are generous.
export default defineConfig({
  test: {
    include: ['apps/*/src/**/*.test.{ts,tsx}', 'packages/*/src/**/*.test.ts', 'e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['e2e/global-setup.ts'],
    pool: 'forks',
    execArgv: ['--disable-warning=ExperimentalWarning'],
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
      : ['default'],
  },
});
