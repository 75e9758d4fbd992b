import { defineConfig } from 'vitest/config';

/** One run over every package and service, so the summary counts every test once. */
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'services/*/vitest.config.ts'],
  },
});
