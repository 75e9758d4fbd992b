import { parseChainRpcUrls } from '@raffle/chain';
import { parseAllowedOrigins } from '@raffle/domain';
import { Type, type Static } from '@sinclair/typebox';
import { BeaconSettings, beaconOf, ChainSettings, ConfigError, DatabasePoolSettings, HttpServerSettings, httpUrlProblem, readConfig, SocialSettings, socialConnectionsOf, TracingSettings, TrustProxySetting, trustProxyRule } from '@raffle/service-kit';

/** Outside production only: lets `pnpm start` and the token CLI work with no setup. */
export const DEV_JWT_SECRET = 'development-only-jwt-secret-never-use-in-production';

/** Outside production only: signs dashboard list cursors when no CURSOR_SECRET is set. */
export const DEV_CURSOR_SECRET = 'development-only-cursor-secret-change-me';

/** Outside production only: keys the hash of entrants' IPs (duplicate detection) when none is set. */
export const DEV_IP_HASH_SECRET = 'development-only-ip-hash-secret-change-me';

/** Outside production the console runs on this machine, on whatever port `start` or a test gave it. */
export const DEV_SIWE_ALLOWED_ORIGINS = 'http://localhost:*,http://127.0.0.1:*';

export const ConfigSchema = Type.Object({
  ...HttpServerSettings,
  ...TracingSettings,
  /** The pinned beacon chain and its relays: every close fixes the draw's round on that chain. */
  ...BeaconSettings,
  /** The EVM chains read (CHAIN_RPC_URLS): on-chain requirements at entry and at the draw; a wallet-link message's chain id must be one of them, and contract wallets' signatures are checked on it. */
  ...ChainSettings,
  /** Linked Discord and X accounts (the OAuth flows of /api/dashboard/me/connections): their clients and sealed tokens. */
  ...SocialSettings,
  /** How long an entry waits for the chain before it is accepted `pending` and settled later (decision 0027). */
  CHAIN_ENTRY_TIMEOUT_MS: Type.Integer({ minimum: 50, maximum: 30_000, default: 1500 }),
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001 }),
  DATABASE_URL: Type.String({ minLength: 1 }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, default: 10 }),
  ...DatabasePoolSettings,
  /** One server, or a comma-separated list of a cluster's nodes. */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  /** HS256 secret of the dashboard's session JWTs; unused when JWT_JWKS_URL is set. */
  JWT_SECRET: Type.String({ minLength: 32, default: DEV_JWT_SECRET }),
  /** When set, tokens are RS256/ES256, verified with the key named by their `kid` in this JWKS. */
  JWT_JWKS_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** How long a fetched JWKS is used before it is fetched again. */
  JWT_JWKS_CACHE_TTL_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 300 }),
  /** When set, a token's `iss` must equal it. */
  JWT_ISSUER: Type.Optional(Type.String({ minLength: 1 })),
  /** When set, a token's `aud` must include it. */
  JWT_AUDIENCE: Type.Optional(Type.String({ minLength: 1 })),
  JWT_CLOCK_TOLERANCE_SECONDS: Type.Integer({ minimum: 0, maximum: 300, default: 5 }),
  /**
   * The longest a session token may live: `exp - iat` (`exp - now` without `iat`). Longer ones,
   * and those whose `iat` is ahead of now past the clock tolerance, are refused.
   */
  JWT_MAX_LIFETIME_SECONDS: Type.Integer({ minimum: 60, maximum: 2_592_000, default: 86_400 }),
  /** Active (unrevoked, unexpired) keys one user may hold; the same cap applies per workspace. */
  MAX_ACTIVE_KEYS_PER_USER: Type.Integer({ minimum: 1, default: 50 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 16_384 }),
  /**
   * Keys the HMAC under which entrants' IPs are stored (web entries' duplicate detection). Every
   * instance needs the same value, and changing it stops new entries matching older ones.
   */
  IP_HASH_SECRET: Type.String({ minLength: 16, default: DEV_IP_HASH_SECRET }),
  /** Signs dashboard list cursors; every instance of one deployment needs the same value. */
  CURSOR_SECRET: Type.String({ minLength: 16, default: DEV_CURSOR_SECRET }),
  /** Runs the lifecycle scheduler (startsAt/endsAt, autoDraw, autoFinalize). Off by default when NODE_ENV=test. */
  SCHEDULER_ENABLED: Type.Boolean({ default: true }),
  /** Pause between two scheduler passes; every instance may run one, row locks keep them apart. */
  SCHEDULER_INTERVAL_MS: Type.Integer({ minimum: 50, maximum: 3_600_000, default: 1000 }),
  /** Whose X-Forwarded-For to believe (per-IP limits then use it): the kit's one rule (trust-proxy.ts). */
  ...TrustProxySetting,
  /** Optional: when set, rate-limit counters are shared by every instance through this Redis. */
  REDIS_URL: Type.Optional(Type.String({ minLength: 1 })),
  /** The window of every rate-limit bucket below. */
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
  /** Requests per window per user (JWT `sub`) across the whole service. */
  RATE_LIMIT_USER_MAX: Type.Integer({ minimum: 1, default: 300 }),
  /** Requests per window per IP whose session is missing or refused. */
  RATE_LIMIT_ANONYMOUS_MAX: Type.Integer({ minimum: 1, default: 60 }),
  /** Webhook test sends and delivery retries per window per endpoint: each one is a POST to a third party. */
  RATE_LIMIT_WEBHOOK_SEND_MAX: Type.Integer({ minimum: 1, default: 10 }),
  /** Recover calls per window per endpoint: one call can resend 30 days of failed deliveries. */
  RATE_LIMIT_WEBHOOK_RECOVER_MAX: Type.Integer({ minimum: 1, default: 3 }),
  /** API keys created or rolled per window per user, personal and workspace keys together. */
  RATE_LIMIT_KEY_CREATE_MAX: Type.Integer({ minimum: 1, default: 20 }),
  /** Webhook endpoints created per window per user, personal and workspace endpoints together. */
  RATE_LIMIT_WEBHOOK_ENDPOINT_CREATE_MAX: Type.Integer({ minimum: 1, default: 10 }),
  /** The longest a rate-limit Redis command may hold a request; past it this instance's memory counts instead. */
  RATE_LIMIT_REDIS_TIMEOUT_MS: Type.Integer({ minimum: 10, maximum: 5000, default: 250 }),
  /** Prefix of the rate-limit keys in Redis; deployments sharing one Redis keep apart by it. */
  RATE_LIMIT_REDIS_NAMESPACE: Type.String({ minLength: 1, maxLength: 64, default: 'raffle-mgmt-rl:' }),
  /** Lets webhook endpoints use http (local development); https only otherwise. */
  WEBHOOK_ALLOW_HTTP: Type.Boolean({ default: false }),
  /**
   * Comma-separated hostnames, IPs or CIDRs exempt from the rule that endpoint URLs must reach a
   * public address (local sinks in development and tests, e.g. "127.0.0.1,localhost"). Empty by default.
   */
  WEBHOOK_ALLOWED_HOSTS: Type.String({ default: '' }),
  /**
   * The console's origins, comma-separated `scheme://host[:port]` (`:*` any port): a wallet-link
   * (Sign-In with Ethereum) message's domain and URI must name one of them. The default covers
   * the console on this machine (outside production only); production must set its public URL
   * (e.g. https://console.example.com), or it refuses to start.
   */
  SIWE_ALLOWED_ORIGINS: Type.String({ default: DEV_SIWE_ALLOWED_ORIGINS }),
  /** How long a wallet-link nonce may be used. */
  SIWE_NONCE_TTL_SECONDS: Type.Integer({ minimum: 30, maximum: 86_400, default: 600 }),
  /** Wallet links (nonces and links together) per window per user: each link may cost an RPC call. */
  RATE_LIMIT_WALLET_LINK_MAX: Type.Integer({ minimum: 1, default: 30 }),
  /** Connection starts and callbacks per window per user: each callback costs requests to Discord or X. */
  RATE_LIMIT_CONNECTION_LINK_MAX: Type.Integer({ minimum: 1, default: 30 }),
  /**
   * Raffle publishes per window per user. Publishing claims a slug for every workspace, so a refused
   * one tells its caller the slug is held (decision 0042): the budget keeps that from being a fast
   * way to enumerate unlisted and private raffles' slugs.
   */
  RATE_LIMIT_RAFFLE_PUBLISH_MAX: Type.Integer({ minimum: 1, default: 10 }),
});

export type Config = Static<typeof ConfigSchema>;

export { ConfigError };

/** Reads the environment once; every problem is reported together, by variable name. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const config = readConfig(ConfigSchema, env);
  trustProxyRule(config.TRUST_PROXY);
  beaconOf(config);
  socialConnectionsOf(config);
  // Tests build many apps on shared databases: a scheduler nobody asked for would move their raffles.
  if (config.NODE_ENV === 'test' && (env.SCHEDULER_ENABLED === undefined || env.SCHEDULER_ENABLED === '')) config.SCHEDULER_ENABLED = false;
  if (config.NODE_ENV === 'production' && config.IP_HASH_SECRET === DEV_IP_HASH_SECRET) {
    throw new ConfigError('invalid configuration:\n  IP_HASH_SECRET: must be set in production');
  }
  if (config.NODE_ENV === 'production' && config.CURSOR_SECRET === DEV_CURSOR_SECRET) {
    throw new ConfigError('invalid configuration:\n  CURSOR_SECRET: must be set in production');
  }
  const chains = parseChainRpcUrls(config.CHAIN_RPC_URLS);
  if (typeof chains === 'string') throw new ConfigError(`invalid configuration:\n  CHAIN_RPC_URLS: ${chains}`);
  // The default is any localhost port: a production console never is, and a message naming one must not link.
  if (config.NODE_ENV === 'production' && !env.SIWE_ALLOWED_ORIGINS?.trim()) {
    throw new ConfigError("invalid configuration:\n  SIWE_ALLOWED_ORIGINS: must be set in production (the console's public origin, e.g. https://console.example.com)");
  }
  const origins = parseAllowedOrigins(config.SIWE_ALLOWED_ORIGINS);
  if (typeof origins === 'string') throw new ConfigError(`invalid configuration:\n  SIWE_ALLOWED_ORIGINS: ${origins}`);
  if (config.JWT_JWKS_URL !== undefined) {
    // The JWKS decides who may sign in, so production fetches it over https only.
    const problem = httpUrlProblem(config.JWT_JWKS_URL, config.NODE_ENV === 'production');
    if (problem) throw new ConfigError(`invalid configuration:\n  JWT_JWKS_URL: ${problem}`);
  } else if (config.NODE_ENV === 'production' && config.JWT_SECRET === DEV_JWT_SECRET) {
    throw new ConfigError('invalid configuration:\n  JWT_SECRET: must be set in production (or set JWT_JWKS_URL)');
  }
  return config;
}
