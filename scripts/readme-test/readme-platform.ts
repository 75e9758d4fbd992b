import path from 'node:path';
import { startContractProxy, type ContractProxy } from '@raffle/service-kit/testing/contract-proxy';
import { inject } from 'vitest';
import { repoRoot, startTestPlatform } from '../platform/test-platform.js';
import type { PlatformPorts } from './readme-blocks.js';

export { repoRoot };

export type ReadmePlatform = {
  ports: PlatformPorts;
  /** The `.demo-keys.json` `start` would have written, for this platform (the README reads DEMO_KEYS). */
  demoKeysFile: string;
  /** The services' most recent log lines, for a failure message. */
  recentLogs: () => string;
  /**
   * What Prism, between the examples and the data plane and management (`prism proxy --errors`
   * with their OpenAPI documents), found wrong in a request or a response since the last call.
   */
  takeContractViolations: () => Promise<string[]>;
  /** How many requests went through each of those two Prism proxies so far. */
  contractCheckedRequests: () => { dataPlane: number; management: number };
  stop: () => Promise<void>;
};

/**
 * The platform `start` gives a newcomer (scripts/platform/test-platform.ts), with the ports the
 * README's examples are pointed at: for the data plane and management, Prism's in front of them.
 */
export async function startReadmePlatform(): Promise<ReadmePlatform> {
  const platform = await startTestPlatform({ serviceEnv: { STATIC_DIR: inject('consoleStaticDir') } });
  const proxies: ContractProxy[] = [];
  const stop = async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await platform.stop();
  };
  try {
    const document = (api: string) => path.join(repoRoot, 'docs', 'openapi', `${api}.json`);
    const [dataPlane, management] = await Promise.all([
      startContractProxy({ document: document('data-plane'), upstream: platform.urls['data-plane']! }),
      startContractProxy({ document: document('management'), upstream: platform.urls.management! }),
    ]);
    proxies.push(dataPlane, management);
    const ports: PlatformPorts = {
      dataPlane: Number(new URL(dataPlane.url).port),
      management: Number(new URL(management.url).port),
      dispatcher: platform.ports['webhook-dispatcher']!,
      console: platform.ports.console!,
    };
    const takeContractViolations = async () => (await Promise.all(proxies.map((proxy) => proxy.takeViolations()))).flat();
    const contractCheckedRequests = () => ({ dataPlane: dataPlane.requestsReceived(), management: management.requestsReceived() });
    return { ports, demoKeysFile: platform.demoKeysFile, recentLogs: platform.recentLogs, takeContractViolations, contractCheckedRequests, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
