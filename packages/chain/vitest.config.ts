import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: { name: 'chain', testTimeout: 60_000, hookTimeout: 60_000 },
});
