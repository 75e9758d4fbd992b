import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { BeaconChain } from '@raffle/beacon';
import { createTestDatabase } from '@raffle/service-kit/testing';
import { freePort, startPrivateNats } from '@raffle/service-kit/testing/faults';
import { registerIssuedTokens } from '@raffle/service-kit/testing/local-social';
import { captureLogLine } from '@raffle/service-kit/testing/log-scan';
import type { DemoKeys } from './db.js';
import { deployDemoAllowlistMint } from './demo-allowlist-mint.js';
import { prepareDemoDatabase } from './demo-database.js';
import { writeDemoKeysFile } from './demo-keys-output.js';
import { beaconServiceEnv, startPlatformBeacon } from './local-beacon.js';
import { startPlatformChain } from './local-chain.js';
import { startPlatformSocial, type PlatformSocial } from './local-social.js';
import { consoleUpstreamEnv, PLATFORM_SERVICES, platformServiceEnv } from './platform-services.js';
import { startService, stopServices, type RunningService } from './services.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type TestPlatform = {
  /** Each service's URL by its PLATFORM_SERVICES name ('data-plane', 'management', 'webhook-dispatcher', 'console'). */
  urls: Record<string, string>;
  ports: Record<string, number>;
  demo: DemoKeys;
  /** The `.demo-keys.json` `start` would have written, for this platform. */
  demoKeysFile: string;
  databaseUrl: string;
  /** The platform's local beacon (as `start` runs one): the chain the services pin, and its URL. */
  beacon: { chain: BeaconChain; url: string };
  /** The platform's local EVM chain (as `start` runs one, on a free port): the demo contracts deployed, its passes minted, the demo's AllowlistMint deployed. */
  chain: { rpcUrl: string; CHAIN_RPC_URLS: string };
  /** The platform's local Discord and X (as `start` runs them, on free ports): their faults and demo accounts. */
  social: PlatformSocial;
  /** Every log line of one service so far (for assertions on what was, or was not, logged). */
  logLines: (serviceName: string) => string[];
  /** The services' most recent log lines, for a failure message. */
  recentLogs: () => string;
  stop: () => Promise<void>;
};

const READY_TIMEOUT_MS = 90_000;
const RECENT_LINES = 200;

/**
 * The platform `start` gives a newcomer, built from start's own pieces, for a test file: a fresh
 * database (a clone of the run's migrated template, so it is the file's alone), the migrations
 * and the demo dataset as `start` applies them, and every service with `start`'s settings — on
 * free ports, and with a NATS server of its own so the dispatcher's stream and consumer touch
 * no other test's. Needs the template database global setup; the console's dist must be built.
 */
export async function startTestPlatform(options: { serviceEnv?: Record<string, string> } = {}): Promise<TestPlatform> {
  const recent: string[] = [];
  const linesByService = new Map<string, string[]>();
  const sink = (serviceName: string) =>
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          captureLogLine(line, serviceName);
          recent.push(line);
          if (recent.length > RECENT_LINES) recent.shift();
          const own = linesByService.get(serviceName) ?? [];
          own.push(line);
          linesByService.set(serviceName, own);
        }
        done();
      },
    });
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error('test platform cleanup:', error));
    cleanups.length = 0;
  };

  try {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const nats = await startPrivateNats();
    cleanups.push(() => nats.destroy());
    const workDir = await mkdtemp(path.join(tmpdir(), 'test-platform-'));
    cleanups.push(() => rm(workDir, { recursive: true, force: true }));

    // 1 s rounds rather than `start`'s 3 s: a close fixes the round two after the current one, so
    // a test drawing right after a close waits about two periods; only the chain's period differs.
    const beacon = await startPlatformBeacon({ port: 0, period: 1 });
    cleanups.push(() => beacon.close());
    const chain = await startPlatformChain({ port: 0, blockTime: 1 });
    cleanups.push(() => chain.stop());
    // Every token the stand-ins issue is a secret: the test file's log scan fails if a service logs one.
    const social = await startPlatformSocial({ discordPort: 0, xPort: 0, onAnswer: registerIssuedTokens });
    cleanups.push(() => social.close());

    const demo = await prepareDemoDatabase(database.url, () => {}, beacon.demoBeacon);
    const ports: Record<string, number> = {};
    for (const service of PLATFORM_SERVICES) ports[service.name] = await freePort();
    const urls = Object.fromEntries(PLATFORM_SERVICES.map((s) => [s.name, `http://127.0.0.1:${ports[s.name]}`]));
    const demoKeysFile = path.join(workDir, '.demo-keys.json');
    const allowlistMint = await deployDemoAllowlistMint(chain, database.url, demo);
    await writeDemoKeysFile(demoKeysFile, demo, urls, { rpcUrl: chain.rpcUrl, chainId: chain.chainId, allowlistMint });

    // NODE_ENV as a newcomer's shell has it (unset: the services' development default), not vitest's "test".
    const env = {
      ...platformServiceEnv(database.url, '127.0.0.1', { ...process.env, NATS_URL: nats.url, BEACON_CHAIN: undefined, CHAIN_RPC_URLS: undefined }, beaconServiceEnv(beacon), chain.env),
      ...social.serviceEnv(urls.console!),
      ...consoleUpstreamEnv(urls),
      NODE_ENV: 'development',
      ...options.serviceEnv,
    };
    const labelWidth = Math.max(...PLATFORM_SERVICES.map((s) => s.name.length));
    const services: RunningService[] = [];
    cleanups.push(() => stopServices(services));
    for (const service of PLATFORM_SERVICES) {
      const output = { stdout: sink(service.name), stderr: sink(service.name) };
      services.push(startService(service, { repoRoot, env, host: '127.0.0.1', labelWidth, port: ports[service.name], output }));
    }
    await Promise.all(services.map((s) => waitUntilReady(s, () => recent.join('\n'))));
    return {
      urls,
      ports,
      demo,
      demoKeysFile,
      databaseUrl: database.url,
      beacon: { chain: beacon.chain, url: beacon.url },
      chain: { rpcUrl: chain.rpcUrl, CHAIN_RPC_URLS: chain.env.CHAIN_RPC_URLS },
      social,
      logLines: (serviceName) => [...(linesByService.get(serviceName) ?? [])],
      recentLogs: () => recent.join('\n'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilReady(service: RunningService, logs: () => string): Promise<void> {
  let exited = false;
  void service.exited.then(() => (exited = true));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const ready = await fetch(`${service.url}/health/ready`).then((r) => r.ok, () => false);
    if (ready) return;
    if (exited) throw new Error(`${service.name} exited before it was ready:\n${logs()}`);
    if (Date.now() > deadline) throw new Error(`${service.name} was not ready within ${READY_TIMEOUT_MS} ms:\n${logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
