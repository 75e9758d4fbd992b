import { DEV_JWT_SECRET } from '../../services/management/src/config.js';
import type { ServiceDefinition } from './services.js';

/**
 * What `start` runs and how it configures it, in one place: the README test starts the same
 * services with the same settings (on ports of its own), so the examples it runs are run
 * against the platform a newcomer gets.
 */

/** One row per service. A row whose server.ts does not exist yet is skipped, so rows can come first. */
export const PLATFORM_SERVICES: ServiceDefinition[] = [
  { name: 'data-plane', entry: 'services/data-plane/src/server.ts', port: { variable: 'DATA_PLANE_PORT', default: 3000 } },
  { name: 'management', entry: 'services/management/src/server.ts', port: { variable: 'MANAGEMENT_PORT', default: 3001 }, env: { JWT_SECRET: process.env.JWT_SECRET ?? DEV_JWT_SECRET } },
  { name: 'webhook-dispatcher', entry: 'services/webhook-dispatcher/src/server.ts', port: { variable: 'DISPATCHER_PORT', default: 3002 } },
  // Serves the built app (scripts/platform/console-build.ts builds it first) and proxies the APIs.
  // Nothing stands in front of it locally: a visitor's own X-Forwarded-For is replaced, not trusted.
  { name: 'console', entry: 'services/console/server/server.ts', port: { variable: 'CONSOLE_PORT', default: 3003 }, env: { TRUST_PROXY: 'false' } },
];

/** Where the console's proxies send the APIs: the other services of the same platform. */
export function consoleUpstreamEnv(urls: Record<string, string>): Record<string, string> {
  return { MANAGEMENT_URL: urls.management!, DATA_PLANE_URL: urls['data-plane']! };
}

/**
 * Locally, webhooks go to an inbox on this machine (`webhook-inbox`): http and loopback
 * are allowed here, and only here — production refuses both.
 */
const LOCAL_WEBHOOK_ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost,::1' };

const DEV_CURSOR_SECRET = 'development-only-cursor-secret-never-use-in-production';

/**
 * The settings every service gets from `start`; the caller's environment overrides the local
 * defaults. `beacon`: the local beacon's settings (BEACON_CHAIN, BEACON_RELAYS), unless the
 * caller's environment pins a chain of its own. `chains`: the local EVM chain's CHAIN_RPC_URLS,
 * unless the caller's environment names the chains to read.
 */
export function platformServiceEnv(
  databaseUrl: string,
  host: string,
  env: NodeJS.ProcessEnv,
  beacon: Record<string, string> = {},
  chains: Record<string, string> = {},
): Record<string, string> {
  return {
    ...(env.BEACON_CHAIN ? { BEACON_CHAIN: env.BEACON_CHAIN, ...(env.BEACON_RELAYS ? { BEACON_RELAYS: env.BEACON_RELAYS } : {}) } : beacon),
    ...(env.CHAIN_RPC_URLS ? { CHAIN_RPC_URLS: env.CHAIN_RPC_URLS } : chains),
    DATABASE_URL: databaseUrl,
    HOST: host,
    NATS_URL: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    CURSOR_SECRET: env.CURSOR_SECRET ?? DEV_CURSOR_SECRET,
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    WEBHOOK_ALLOW_HTTP: env.WEBHOOK_ALLOW_HTTP ?? LOCAL_WEBHOOK_ENV.WEBHOOK_ALLOW_HTTP,
    WEBHOOK_ALLOWED_HOSTS: env.WEBHOOK_ALLOWED_HOSTS ?? LOCAL_WEBHOOK_ENV.WEBHOOK_ALLOWED_HOSTS,
    // The console forwards each visitor's address as X-Forwarded-For; the APIs may trust it while
    // they listen on loopback, where nothing but this machine's processes can reach them.
    TRUST_PROXY: env.TRUST_PROXY ?? String(LOOPBACK_HOSTS.has(host)),
  };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
