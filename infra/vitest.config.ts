import { defineConfig } from 'vitest/config';

/** Checks of the deployment files (compose, env example) against the services' config schemas. */
export default defineConfig({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: { name: 'infra', include: ['test/*.test.ts'] },
});
