import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase, ensureDatabaseOfUrl } from './platform/database.js';
import { DEMO_CONTRACTS, type DemoKeys } from './platform/db.js';
import { ensureConsoleBuilt } from './platform/console-build.js';
import { deployDemoAllowlistMint } from './platform/demo-allowlist-mint.js';
import { prepareDemoDatabase } from './platform/demo-database.js';
import { printDemoKeys, writeDemoKeysFile, type DemoLocalChain } from './platform/demo-keys-output.js';
import { startEmbeddedPostgres, type RunningPostgres } from './platform/embedded-postgres.js';
import { beaconServiceEnv, startPlatformBeacon, type PlatformBeacon } from './platform/local-beacon.js';
import { startPlatformChain } from './platform/local-chain.js';
import { socialBanner, startPlatformSocial, type PlatformSocial } from './platform/local-social.js';
import type { LocalChain } from '@raffle/chain/local';
import { writeLinesWithPrefix } from './platform/prefixed-output.js';
import { signDevToken } from '../services/management/src/cli/dev-token.js';
import { consoleUpstreamEnv, PLATFORM_SERVICES as SERVICES, platformServiceEnv } from './platform/platform-services.js';
import {
  killServicesNow,
  serviceExists,
  servicePort,
  startService,
  stopServices,
  type RunningService,
} from './platform/services.js';

const DATABASE_NAME = 'raffle';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const host = env.HOST ?? '127.0.0.1';
const labelWidth = Math.max('platform'.length, 'postgres'.length, ...SERVICES.map((s) => s.name.length));
const say = (message: string) => console.log(`${'platform'.padEnd(labelWidth)} | ${message}`);

let postgres: RunningPostgres | null = null;
let beacon: PlatformBeacon | null = null;
let chain: LocalChain | null = null;
let social: PlatformSocial | null = null;
const services: RunningService[] = [];
let stopping = false;

/** Services first, while the database they drain into is still up; then Postgres. */
async function shutdown(reason: string, exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  say(`${reason}: stopping`);
  await stopServices(services);
  if (beacon) {
    await beacon.close();
    say('local beacon stopped');
  }
  if (chain) {
    await chain.stop();
    say('local chain stopped');
  }
  if (social) {
    await social.close();
    say('local Discord and X stopped');
  }
  if (postgres) {
    await postgres.stop();
    say('postgres stopped');
  }
  process.exit(exitCode);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (!stopping) return void shutdown(signal, 0);
    say(`second ${signal}: killing the services`);
    killServicesNow(services);
    process.exit(1);
  });
}
// Services run in their own process groups, so nothing else would stop them if we crash.
process.on('exit', () => killServicesNow(services));

async function startDatabase(): Promise<string> {
  if (env.DATABASE_URL) {
    await ensureDatabaseOfUrl(env.DATABASE_URL);
    return env.DATABASE_URL;
  }
  const port = Number(env.EMBEDDED_POSTGRES_PORT ?? 54329);
  const dataDir = path.join(repoRoot, '.data', 'postgres');
  say(`DATABASE_URL is not set: starting embedded Postgres on 127.0.0.1:${port}, data in ${path.relative(repoRoot, dataDir)}`);
  const postgresPrefix = `${'postgres'.padEnd(labelWidth)} |`;
  postgres = await startEmbeddedPostgres({
    dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    onLog: (text) => writeLinesWithPrefix(text, process.stdout, postgresPrefix),
  });
  say(postgres.initialised ? 'initialised a new Postgres cluster' : 'reusing the existing Postgres cluster');
  void postgres.exited.then(() => shutdown('postgres exited', 1));
  await ensureDatabase(postgres.url('postgres'), DATABASE_NAME);
  return postgres.url(DATABASE_NAME);
}

/**
 * The local beacon, in this process, unless BEACON_CHAIN pins another chain (quicknet, say). Its
 * key and genesis live under .data, so a restart serves the same chain and raffles closed before
 * it can still be drawn. 3 s rounds, like quicknet.
 */
async function startBeacon(): Promise<Record<string, string>> {
  if (env.BEACON_CHAIN) {
    say('BEACON_CHAIN is set: the services pin it (and ask BEACON_RELAYS, or drand\'s relays); no local beacon');
    return {};
  }
  const keyFile = path.join(repoRoot, '.data', 'local-beacon.json');
  beacon = await startPlatformBeacon({ port: Number(env.LOCAL_BEACON_PORT ?? 8081), period: 3, keyFile });
  say(`local beacon on ${beacon.url}, chain ${beacon.chain.chainHash} (${beacon.chain.period} s rounds), key in ${path.relative(repoRoot, keyFile)}`);
  say(`BEACON_CHAIN=${JSON.stringify(beacon.chain)}`);
  return beaconServiceEnv(beacon);
}

/**
 * The local EVM chain, unless CHAIN_RPC_URLS names the chains to read: anvil on 127.0.0.1:8545
 * (LOCAL_CHAIN_PORT), a block a second, the demo's contracts deployed and its Nebula Passes minted
 * (to alice and carol, not bob), fresh on every start. The services read it as `anvil`. Once the
 * demo data is loaded, the demo allowlist raffle's AllowlistMint is deployed there too.
 */
async function startChain(): Promise<Record<string, string>> {
  if (env.CHAIN_RPC_URLS) {
    say('CHAIN_RPC_URLS is set: the services read those chains; no local chain (the gated demo raffle needs one named anvil)');
    return {};
  }
  chain = await startPlatformChain({ port: Number(env.LOCAL_CHAIN_PORT ?? 8545), blockTime: 1 }, say);
  say(`local chain (anvil, chain id ${chain.chainId}) on ${chain.rpcUrl}; Nebula Pass (ERC-721) at ${DEMO_CONTRACTS.erc721}, passes minted to alice and carol`);
  say(`CHAIN_RPC_URLS=${chain.env.CHAIN_RPC_URLS}`);
  return chain.env;
}

/**
 * The demo's allowlist raffle on the local chain: an AllowlistMint deployed with its published
 * root, whose winners (alice among them: anvil's test account 1) mint with their proof.
 */
async function deployAllowlistMint(databaseUrl: string, demo: DemoKeys): Promise<DemoLocalChain | null> {
  if (!chain) return null;
  const mint = await deployDemoAllowlistMint(chain, databaseUrl, demo, say);
  if (mint) {
    say(`AllowlistMint (ERC-721 "Kite Genesis") at ${mint.address} on the local chain, with the root of ${mint.raffle.slug}'s allowlist version ${mint.version}: ${mint.root}`);
  }
  return { rpcUrl: chain.rpcUrl, chainId: chain.chainId, allowlistMint: mint };
}

/**
 * Local Discord and X (in this process), unless DISCORD_CLIENT_ID or X_CLIENT_ID names a real
 * application: Discord on 127.0.0.1:8082 (LOCAL_DISCORD_PORT), X on 127.0.0.1:8083 (LOCAL_X_PORT).
 * Management and the data plane are pointed at them; the console is where they send users back.
 */
async function startSocial(consoleUrl: string): Promise<Record<string, string>> {
  if (env.DISCORD_CLIENT_ID || env.X_CLIENT_ID) {
    say('DISCORD_CLIENT_ID or X_CLIENT_ID is set: the services use those applications (and the *_BASE_URL settings); no local Discord or X');
    return {};
  }
  social = await startPlatformSocial({ discordPort: Number(env.LOCAL_DISCORD_PORT ?? 8082), xPort: Number(env.LOCAL_X_PORT ?? 8083), host });
  say(`local Discord on ${social.discord.url}, local X on ${social.x.url}`);
  return social.serviceEnv(consoleUrl);
}

const DEV_TOKEN_TTL_SECONDS = 12 * 3600;

/**
 * A 12-hour dashboard JWT for each demo user, signed as the management service will verify it
 * (its JWT_SECRET, and JWT_ISSUER / JWT_AUDIENCE when set). With JWT_JWKS_URL set the service
 * verifies only the identity provider's tokens, so there is nothing we could sign.
 */
function printDevTokens(users: DemoKeys['users'], managementUrl: string, consoleUrl: string): void {
  if (env.JWT_JWKS_URL) {
    say('JWT_JWKS_URL is set: management verifies tokens against that JWKS, so no dashboard JWTs are printed');
    return;
  }
  const secret = SERVICES.find((s) => s.name === 'management')!.env!.JWT_SECRET!;
  const tokens = Object.entries(users).map(([name, user]) => ({
    name,
    token: signDevToken(secret, {
      sub: user.id,
      ttlSeconds: DEV_TOKEN_TTL_SECONDS,
      iss: env.JWT_ISSUER || undefined,
      aud: env.JWT_AUDIENCE || undefined,
    }),
  }));
  const width = Math.max(...tokens.map((t) => t.name.length));
  console.log(
    `Dashboard JWTs (12 h; mint more with \`npx -y pnpm@10.34.8 --filter @raffle/management token --user <id>\`):\n\n` +
      `${tokens.map((t) => `${t.name.padEnd(width)}  ${t.token}`).join('\n')}\n`,
  );
  const alice = tokens.find((t) => t.name === 'alice') ?? tokens[0]!;
  console.log(`Try (as ${alice.name}):\n\ncurl -s ${managementUrl}/api/developer/personal/api-keys -H 'Authorization: Bearer ${alice.token}'\n`);
  // The token rides in the fragment: browsers never send it to a server, and the console drops it from the address bar.
  console.log(
    `Developer console sign-in links (open one in a browser):\n\n` +
      `${tokens.map((t) => `${t.name.padEnd(width)}  ${consoleUrl}/sign-in#token=${t.token}`).join('\n')}\n`,
  );
}

/** The console serves its built files: they are built when missing or older than the source. A failed build leaves the APIs running. */
async function buildConsoleIfNeeded(): Promise<boolean> {
  try {
    await ensureConsoleBuilt(repoRoot, say);
    return true;
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    return false;
  }
}

async function start(): Promise<void> {
  const databaseUrl = await startDatabase();
  const beaconEnv = await startBeacon();
  const chainEnv = await startChain();
  // The demo's draws are signed with the local beacon's key, so their proofs name the chain the services pin.
  const demo = await prepareDemoDatabase(databaseUrl, say, beacon?.demoBeacon);

  const localChain = await deployAllowlistMint(databaseUrl, demo);

  const urls = Object.fromEntries(SERVICES.map((s) => [s.name, `http://${host}:${servicePort(s, env)}`]));
  await writeDemoKeysFile(path.join(repoRoot, '.demo-keys.json'), demo, urls, localChain);
  printDemoKeys(demo, urls['data-plane']!);
  printDevTokens(demo.users, urls.management!, urls.console!);
  const socialEnv = await startSocial(urls.console!);
  if (social) console.log(`${socialBanner(social, urls.console!)}\n`);

  const consoleBuilt = await buildConsoleIfNeeded();

  const serviceEnv = { ...platformServiceEnv(databaseUrl, host, env, beaconEnv, chainEnv), ...socialEnv, ...consoleUpstreamEnv(urls) };
  for (const service of SERVICES) {
    if (stopping) return;
    if (service.name === 'console' && !consoleBuilt) {
      say('console: not started, its build failed (see above)');
      continue;
    }
    if (!serviceExists(repoRoot, service)) {
      say(`${service.name}: ${service.entry} does not exist yet, skipped`);
      continue;
    }
    const running = startService(service, { repoRoot, env: serviceEnv, host, labelWidth });
    services.push(running);
    say(`${service.name} starting on ${running.url}`);
    void running.exited.then((code) => shutdown(`${service.name} exited (${code})`, 1));
  }
  say(services.length > 0 ? 'running; Ctrl-C stops everything' : 'no service to run yet; Ctrl-C stops Postgres');
}

start().catch((error: unknown) => {
  console.error(error);
  void shutdown('start failed', 1);
});
