import { inject } from 'vitest';
import { startTestPlatform } from '../platform/test-platform.js';
import type { PlatformPorts } from './readme-blocks.js';

export { repoRoot } from '../platform/test-platform.js';

export type ReadmePlatform = {
  ports: PlatformPorts;
  /** The `.demo-keys.json` `start` would have written, for this platform (the README reads DEMO_KEYS). */
  demoKeysFile: string;
  /** The services' most recent log lines, for a failure message. */
  recentLogs: () => string;
  stop: () => Promise<void>;
};

/** The platform `start` gives a newcomer (scripts/platform/test-platform.ts), with the ports the README's examples are pointed at. */
export async function startReadmePlatform(): Promise<ReadmePlatform> {
  const platform = await startTestPlatform({ serviceEnv: { STATIC_DIR: inject('consoleStaticDir') } });
  const ports: PlatformPorts = {
    dataPlane: platform.ports['data-plane']!,
    management: platform.ports.management!,
    dispatcher: platform.ports['webhook-dispatcher']!,
    console: platform.ports.console!,
  };
  return { ports, demoKeysFile: platform.demoKeysFile, recentLogs: platform.recentLogs, stop: platform.stop };
}
