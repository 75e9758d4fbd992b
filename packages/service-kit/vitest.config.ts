import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: { name: 'service-kit', testTimeout: 120_000, hookTimeout: 120_000, pool: 'forks' },
});
