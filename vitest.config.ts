import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file gets its own database; files run in parallel on separate workers.
          fileParallelism: true,
          // Files share their worker's loaded modules instead of importing the whole server again
          // each (most of a file's start-up time). Nothing a file sets may outlive it: each builds
          // its own app on its own database, and restores any environment variable it changes.
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Two files at a time (the npm script's --maxWorkers=2): each has its own server, database
          // and browser; most of a file's time is waiting on them.
          fileParallelism: true,
        },
      },
    ],
  },
});
