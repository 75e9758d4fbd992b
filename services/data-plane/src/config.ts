import { Type, type Static } from '@sinclair/typebox';
import { BeaconSettings, beaconOf, ChainSettings, ConfigError, DatabasePoolSettings, HttpServerSettings, readConfig, SocialSettings, socialConnectionsOf, TracingSettings, TrustProxySetting, trustProxyRule } from '@raffle/service-kit';

const DEV_CURSOR_SECRET = 'development-only-cursor-secret-change-me';
const DEV_IP_HASH_SECRET = 'development-only-ip-hash-secret-change-me';

export const ConfigSchema = Type.Object({
  ...HttpServerSettings,
  ...TracingSettings,
  /** The pinned beacon chain and its relays: every close fixes the draw's round on that chain. */
  ...BeaconSettings,
  /** The EVM chains on-chain requirements are read on (CHAIN_RPC_URLS). */
  ...ChainSettings,
  /** Linked Discord and X accounts: their sealed tokens, renewed here, and the providers requirements read. */
  ...SocialSettings,
  /** How long an entry waits for the chain before it is accepted `pending` and settled later (decision 0027). */
  CHAIN_ENTRY_TIMEOUT_MS: Type.Integer({ minimum: 50, maximum: 30_000, default: 1500 }),
  /** Whether this instance settles pending entries; every replica may (they share the queue with SKIP LOCKED). */
  PENDING_ENTRIES_ENABLED: Type.Boolean({ default: true }),
  /** Between the resolver's passes while the chain answers (it backs off to 30 s while it does not). */
  PENDING_ENTRIES_INTERVAL_MS: Type.Integer({ minimum: 50, maximum: 600_000, default: 2000 }),
  /** Pending entries one pass claims and reads the chain for. */
  PENDING_ENTRIES_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 5000, default: 200 }),
  /** How long a pass waits for the chain (longer than an entry may: nobody waits on the answer). */
  PENDING_ENTRIES_CHAIN_TIMEOUT_MS: Type.Integer({ minimum: 50, maximum: 60_000, default: 5000 }),
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  DATABASE_URL: Type.String({ minLength: 1 }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, default: 10 }),
  ...DatabasePoolSettings,
  /**
   * Optional: a streaming replica of DATABASE_URL's primary. Lists and reads go to it while it is
   * fresh enough and has replayed the caller's own writes; everything else stays on the primary.
   */
  DATABASE_READ_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** The replica pool's size; DATABASE_POOL_SIZE when unset. */
  DATABASE_READ_POOL_SIZE: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Past this many ms behind the primary, reads go to the primary (the bound `Raffle-Staleness-Ms` never exceeds). */
  DATABASE_READ_MAX_STALENESS_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 2000 }),
  /** How often each instance reads the primary's WAL position and the replica's replay position. */
  DATABASE_READ_SAMPLE_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 10_000, default: 100 }),
  /** One server, or a comma-separated list of a cluster's nodes. */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  /** Optional: when set, rate-limit counters are shared by every instance. */
  REDIS_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** Signs pagination cursors; every instance of one deployment needs the same value. */
  CURSOR_SECRET: Type.String({ minLength: 16, default: DEV_CURSOR_SECRET }),
  /** Keys the hash entrants' IPs are stored as (duplicate detection); the same on every instance. */
  IP_HASH_SECRET: Type.String({ minLength: 16, default: DEV_IP_HASH_SECRET }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** How long a verified key is trusted before it is read again. */
  API_KEY_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 1000 }),
  /** The public raffle list is identical for every caller; pages are reused for this long. */
  PUBLIC_RAFFLES_CACHE_TTL_MS: Type.Integer({ minimum: 0, default: 1000 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
  /** The longest a rate-limit Redis command may hold a request; past it this instance's memory counts instead. */
  RATE_LIMIT_REDIS_TIMEOUT_MS: Type.Integer({ minimum: 10, maximum: 5000, default: 250 }),
  /** Prefix of the rate-limit keys in Redis; deployments sharing one Redis keep apart by it. */
  RATE_LIMIT_REDIS_NAMESPACE: Type.String({ minLength: 1, maxLength: 64, default: 'raffle-rl:' }),
  RATE_LIMIT_PERSONAL_MAX: Type.Integer({ minimum: 1, default: 600 }),
  RATE_LIMIT_WORKSPACE_MAX: Type.Integer({ minimum: 1, default: 1200 }),
  RATE_LIMIT_ANONYMOUS_MAX: Type.Integer({ minimum: 1, default: 60 }),
  /** Keyless /public/v1 requests per client IP and window: a verifier fetches one proof, a page a handful. */
  RATE_LIMIT_PUBLIC_MAX: Type.Integer({ minimum: 1, default: 120 }),
  RATE_LIMIT_PUBLIC_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 65_536 }),
  /** Whose X-Forwarded-For to believe (per-IP limits then use it): the kit's one rule (trust-proxy.ts). */
  ...TrustProxySetting,
});

export type Config = Static<typeof ConfigSchema>;

export { ConfigError };

/** Reads the environment once; every problem is reported together, by variable name. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const config = readConfig(ConfigSchema, env);
  // Tests settle pending entries themselves, or turn the resolver on: a pass every 2 s in every test app is noise.
  if (config.NODE_ENV === 'test' && (env.PENDING_ENTRIES_ENABLED === undefined || env.PENDING_ENTRIES_ENABLED === '')) config.PENDING_ENTRIES_ENABLED = false;
  trustProxyRule(config.TRUST_PROXY);
  beaconOf(config);
  socialConnectionsOf(config);
  if (config.NODE_ENV === 'production') {
    const unset = [
      config.CURSOR_SECRET === DEV_CURSOR_SECRET && 'CURSOR_SECRET',
      config.IP_HASH_SECRET === DEV_IP_HASH_SECRET && 'IP_HASH_SECRET',
    ].filter((name): name is string => Boolean(name));
    if (unset.length > 0) throw new ConfigError(`invalid configuration:\n${unset.map((name) => `  ${name}: must be set in production`).join('\n')}`);
  }
  return config;
}
