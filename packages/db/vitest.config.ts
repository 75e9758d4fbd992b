import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources, as under `node --conditions=development`.
export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: { name: 'db', testTimeout: 60_000, hookTimeout: 120_000 },
});
