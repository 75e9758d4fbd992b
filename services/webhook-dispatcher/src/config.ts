import { Type, type Static } from '@sinclair/typebox';
import { DISPATCHER_CONSUMER, RAFFLE_EVENTS_STREAM, RAFFLE_EVENTS_SUBJECT_PREFIX } from '@raffle/contracts';
import { ConfigError, DatabasePoolSettings, HttpServerSettings, readConfig, TracingSettings } from '@raffle/service-kit';
import { DEFAULT_STREAM_REPLICAS, MAX_STREAM_REPLICAS } from './consumer/stream-setup.js';

export const ConfigSchema = Type.Object({
  ...HttpServerSettings,
  ...TracingSettings,
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  HOST: Type.String({ default: '127.0.0.1' }),
  /** Health and metrics only: the dispatcher serves no API. */
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3002 }),
  DATABASE_URL: Type.String({ minLength: 1 }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 2, default: 10 }),
  ...DatabasePoolSettings,
  /** One server, or a comma-separated list of a cluster's nodes. */
  NATS_URL: Type.String({ default: 'nats://127.0.0.1:4222' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** Deliver to http:// URLs too (local development and tests only). */
  WEBHOOK_ALLOW_HTTP: Type.Boolean({ default: false }),
  /** Comma-separated hosts, IPs or CIDRs exempt from the private-address rule (e.g. 127.0.0.1 for a local inbox). */
  WEBHOOK_ALLOWED_HOSTS: Type.String({ default: '' }),
  /** POSTs in flight at once, over all endpoints. */
  DELIVERY_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 10_000, default: 256 }),
  /** POSTs in flight at once to one endpoint: a slow or dead endpoint holds at most these. */
  DELIVERY_CONCURRENCY_PER_ENDPOINT: Type.Integer({ minimum: 1, maximum: 1000, default: 16 }),
  DELIVERY_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 15_000 }),
  /** How often due retries (and deliveries a crashed instance held) are looked for. */
  DELIVERY_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, default: 500 }),
  /**
   * How long a claimed delivery stays ours without a renewal. The worker renews it every third of
   * it while it holds the delivery, so it need not outlast a queue or a POST: it is how soon the
   * deliveries of an instance that died are sent by another.
   */
  DELIVERY_LEASE_MS: Type.Integer({ minimum: 1000, default: 15_000 }),
  RELAY_ENABLED: Type.Boolean({ default: true }),
  /** The relay wakes on NOTIFY at every commit; this poll is the fallback. */
  RELAY_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, default: 1000 }),
  RELAY_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 5000, default: 500 }),
  CONSUMER_ENABLED: Type.Boolean({ default: true }),
  /** The JetStream stream, its subject prefix and the durable consumer (tests isolate themselves with their own). */
  NATS_STREAM: Type.String({ minLength: 1, default: RAFFLE_EVENTS_STREAM }),
  NATS_SUBJECT_PREFIX: Type.String({ minLength: 1, default: RAFFLE_EVENTS_SUBJECT_PREFIX }),
  NATS_CONSUMER: Type.String({ minLength: 1, default: DISPATCHER_CONSUMER }),
  /** Copies of the stream when it is created here: 1 on one server, 3 on a three-node cluster. */
  NATS_STREAM_REPLICAS: Type.Integer({ minimum: 1, maximum: MAX_STREAM_REPLICAS, default: DEFAULT_STREAM_REPLICAS }),
  /** Create the JetStream stream and consumer when missing (off where infra owns them). */
  NATS_ENSURE_STREAM: Type.Boolean({ default: true }),
  /** Published outbox rows are kept this long: retries, retry and recover need their payloads. */
  OUTBOX_RETENTION_DAYS: Type.Integer({ minimum: 1, default: 31 }),
  /** On shutdown, how long in-flight deliveries may take to finish. */
  DRAIN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 20_000 }),
});

export type Config = Static<typeof ConfigSchema>;

export { ConfigError };

export function loadConfig(env: Record<string, string | undefined>): Config {
  const config = readConfig(ConfigSchema, env);
  if (config.NODE_ENV === 'production' && config.WEBHOOK_ALLOW_HTTP) {
    throw new ConfigError('invalid configuration:\n  WEBHOOK_ALLOW_HTTP: http endpoints are for development only');
  }
  return config;
}
