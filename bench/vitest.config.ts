import { defineConfig } from 'vitest/config';

// The benchmark's own helpers (report shapes, the Postgres it starts); workspace packages resolve to their sources.
export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: { name: 'bench', include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
});
