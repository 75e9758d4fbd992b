import { defineConfig } from 'vitest/config';

/** Checks of the TypeScript project layout itself (seconds; in the integration stage). */
export default defineConfig({ test: { name: 'tooling', include: ['test/**/*.test.ts'] } });
