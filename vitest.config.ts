import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'adapters/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**', 'examples/nextjs-chat/.next/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on CI's two cores, one test file at a
    // time. Two at once took the run from 965 s to 753 s there (files wait on servers, builds and
    // child processes). The tests that time the event loop hold generous bounds for a shared
    // machine, and count their own thread's CPU apart from waits for a core.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/support/temporary-folder-setup.ts'],
  },
});
