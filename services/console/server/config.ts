import { fileURLToPath } from 'node:url';
import { Type, type Static } from '@sinclair/typebox';
import { ConfigError, HttpServerSettings, readConfig, TrustProxySetting, trustProxyRule } from '@raffle/service-kit';

/**
 * The built single-page app: Vite writes it to dist/public, and the same relative path finds it
 * from server/ (tsx) and from dist/ (the compiled server).
 */
export const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../dist/public', import.meta.url));

export const ConfigSchema = Type.Object({
  ...HttpServerSettings,
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3003 }),
  /** Where /api/developer and /api/dashboard go. */
  MANAGEMENT_URL: Type.String({ default: 'http://127.0.0.1:3001' }),
  /** Where /api/v1 and /public/v1 go. */
  DATA_PLANE_URL: Type.String({ default: 'http://127.0.0.1:3000' }),
  /** The Vite build output: index.html and assets/. */
  STATIC_DIR: Type.String({ minLength: 1, default: DEFAULT_STATIC_DIR }),
  /**
   * Request bodies larger than this are answered 413 here and never streamed upstream; the
   * default is the larger of the APIs' own limits (the data plane's BODY_LIMIT_BYTES).
   */
  PROXY_BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, maximum: 10 * 1024 * 1024, default: 65_536 }),
  /**
   * Whose X-Forwarded-For to keep (the kit's one rule, trust-proxy.ts): a proxy of ours (an
   * ingress) that stands in front and wrote it. From anyone else, a visitor's own X-Forwarded-For
   * is replaced by the address this server sees.
   */
  ...TrustProxySetting,
  /** How long an upstream may take to start answering before the browser gets 502. */
  PROXY_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});

export type Config = Static<typeof ConfigSchema>;

export { ConfigError };

export function loadConfig(env: Record<string, string | undefined>): Config {
  const config = readConfig(ConfigSchema, env);
  trustProxyRule(config.TRUST_PROXY);
  for (const name of ['MANAGEMENT_URL', 'DATA_PLANE_URL'] as const) {
    if (!isHttpUrl(config[name])) throw new ConfigError(`invalid configuration:\n  ${name}: must be an http(s) URL`);
    config[name] = config[name].replace(/\/+$/, '');
  }
  return config;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
