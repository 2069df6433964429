import { defineConfig } from 'vitest/config';

// Browser journeys: one file at a time, each against its own server and data folder.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // A page's chunks, its data and Chromium share two cores with the server under test: vitest's 1 s
    // default for expect.poll timed out on a loaded machine while the page was right. A poll that never
    // matches still fails, 10 s later.
    expect: { poll: { timeout: 10_000 } },
  },
});
