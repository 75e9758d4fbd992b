import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The SDK's `development` export condition points at its TypeScript source, so the console
 * bundles the SDK from src and needs no SDK build first.
 */
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['development', 'browser', 'module', 'import', 'default'] },
  build: { outDir: 'dist/public', assetsDir: 'assets', sourcemap: false, target: 'es2022' },
  server: {
    port: 5173,
    // `vite` (dev) talks to the local platform the same way the console server does.
    proxy: Object.fromEntries(
      [
        ['/api/developer', process.env.MANAGEMENT_URL ?? 'http://127.0.0.1:3001'],
        ['/api/dashboard', process.env.MANAGEMENT_URL ?? 'http://127.0.0.1:3001'],
        ['/api/v1', process.env.DATA_PLANE_URL ?? 'http://127.0.0.1:3000'],
        ['/public/v1', process.env.DATA_PLANE_URL ?? 'http://127.0.0.1:3000'],
      ].map(([prefix, target]) => [prefix!, { target: target!, changeOrigin: true }]),
    ),
  },
});
