import { defineConfig } from 'vitest/config';

// Browser journeys: one file at a time, each against its own server and data folder.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
