import { defineConfig } from 'vitest/config';

// Three projects: unit (pure code, no servers), integration (real PostgreSQL, NATS JetStream,
// SMTP, Chromium; cluster-mode adapters) and e2e (the running product in system Chromium).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'web/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'packages/*/src/**/*.int.test.ts',
            'services/*/src/**/*.int.test.ts',
            'packages/*/test/**/*.int.test.ts',
            'services/*/test/**/*.int.test.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
