import rateLimit from '@fastify/rate-limit';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WindowCounters } from './counter.js';
import { counterStoreClass } from './counters-store.js';
import { FallbackCounters } from './fallback-counters.js';
import { setRateLimitHeaders, type BucketVerdict } from './ietf-headers.js';
import { MemoryCounters } from './memory-counters.js';
import { withRateLimitResponses } from './openapi-responses.js';
import { openRateLimitRedis } from './redis-connection.js';
import { RateLimitStoreHealth } from './store-health.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Route buckets (by name) that also count this route's requests, on top of the service buckets. */
    rateLimitBuckets?: readonly string[];
  }
}

/** One fixed-window budget: a policy in the headers and a family of counters. */
export type RateLimitBucket = {
  /** Policy name in the headers, and the counters' key prefix. */
  name: string;
  windowMs: number;
  max: (request: FastifyRequest) => number;
  /** The counter this request is counted on, or null when the bucket does not count it. */
  keyOf: (request: FastifyRequest) => string | null;
  /**
   * A service bucket counts (and is documented on) only the limited routes under these prefixes;
   * every limited route when omitted. Lets one service keep apart budgets for route families.
   */
  routePrefixes?: readonly string[];
};

export type RateLimitRefusal = { policy: string; quota: number; retryAfterSeconds: number };

export type RateLimitPluginOptions = {
  /** When set, counters are shared through Redis by every instance (memory while it is unreachable). */
  redisUrl?: string;
  /** The longest a Redis command may hold a request before the memory counters decide instead. */
  redisCommandTimeoutMs: number;
  /** Redis key prefix; deployments (and test files) sharing a Redis keep apart by it. */
  namespace: string;
  /** Routes whose URL starts with one of these are limited and documented; health, metrics and docs are not. */
  routePrefixes: readonly string[];
  /**
   * Count every request of a limited route as soon as its caller is identified (onRequest, so
   * refused requests count too: a flood of bad credentials is limited like any other).
   */
  serviceBuckets: readonly RateLimitBucket[];
  /**
   * Count requests of the routes that name them in `config.rateLimitBuckets`, once authorized and
   * valid (preHandler): nobody can spend another tenant's budget with requests that are refused.
   */
  routeBuckets?: readonly RateLimitBucket[];
  /** The service's 429 error; the headers are already on the reply when it is thrown. */
  tooManyRequests: (request: FastifyRequest, refusal: RateLimitRefusal) => Error;
  /** The service's error body, documented as the 429 of routes that do not declare one. */
  errorBodySchema: TSchema;
};

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Rate limits on @fastify/rate-limit with counters that survive a Redis outage: shared in Redis
 * while it answers, per instance in memory while it does not (logged once and in metrics), and
 * headers (IETF draft `RateLimit-Policy`/`RateLimit`, `Retry-After`) that always describe the
 * counter that decided. A request is counted on every bucket that applies to it.
 */
async function rateLimitPlugin(app: FastifyInstance, options: RateLimitPluginOptions) {
  const routeBuckets = new Map((options.routeBuckets ?? []).map((b) => [b.name, b]));
  for (const bucket of [...options.serviceBuckets, ...routeBuckets.values()]) {
    if (!/^[a-z][a-z0-9-]*$/.test(bucket.name)) throw new Error(`rate-limit bucket name "${bucket.name}" must be lower-case letters, digits and dashes`);
    if (!(bucket.windowMs >= 1000)) throw new Error(`rate-limit bucket "${bucket.name}" needs a window of at least 1000 ms`);
  }

  let counters: WindowCounters = new MemoryCounters();
  if (options.redisUrl) {
    const redis = await openRateLimitRedis(options.redisUrl, { commandTimeoutMs: options.redisCommandTimeoutMs, log: app.log });
    app.addHook('onClose', async () => void redis.disconnect());
    counters = new FallbackCounters(redis, options.namespace, new RateLimitStoreHealth(app.log, app.metricsRegistry));
  }
  await app.register(rateLimit, { global: false, store: counterStoreClass(counters) });

  const limiterOf = (bucket: RateLimitBucket): Limiter =>
    app.createRateLimit({
      timeWindow: bucket.windowMs,
      max: (request) => bucket.max(request),
      keyGenerator: (request) => `${bucket.name}:${bucket.keyOf(request)}`,
    });
  const serviceLimiters = options.serviceBuckets.map((bucket) => ({ bucket, limit: limiterOf(bucket) }));
  const routeLimiters = new Map([...routeBuckets.values()].map((bucket) => [bucket.name, { bucket, limit: limiterOf(bucket) }]));

  const isUnder = (url: string | undefined, prefixes: readonly string[]) => url !== undefined && prefixes.some((prefix) => url.startsWith(prefix));
  const isLimited = (url: string | undefined) => isUnder(url, options.routePrefixes);
  const servesRoute = (bucket: RateLimitBucket, url: string | undefined) => !bucket.routePrefixes || isUnder(url, bucket.routePrefixes);
  const verdictsOf = new WeakMap<FastifyRequest, BucketVerdict[]>();

  app.addHook('onRoute', (route) => {
    const declared = route.config?.rateLimitBuckets ?? [];
    for (const name of declared) if (!routeBuckets.has(name)) throw new Error(`route ${route.url} names an unknown rate-limit bucket "${name}"`);
    if (!isLimited(route.url) || !route.schema?.response) return;
    const policies = [...options.serviceBuckets.filter((b) => servesRoute(b, route.url)).map((b) => b.name), ...declared];
    route.schema = { ...route.schema, response: withRateLimitResponses(route.schema.response as Record<string, unknown>, policies, options.errorBodySchema) };
  });

  const count = async (request: FastifyRequest, reply: FastifyReply, limiters: ReadonlyArray<{ bucket: RateLimitBucket; limit: Limiter }>) => {
    const verdicts = verdictsOf.get(request) ?? [];
    let refusal: RateLimitRefusal | null = null;
    for (const { bucket, limit } of limiters) {
      if (bucket.keyOf(request) === null) continue;
      const result = await limit(request);
      if (result.isAllowed) continue;
      const verdict: BucketVerdict = {
        policy: bucket.name,
        quota: result.max,
        windowSeconds: Math.ceil(bucket.windowMs / 1000),
        remaining: result.remaining,
        resetSeconds: result.ttlInSeconds,
        exceeded: result.isExceeded,
      };
      verdicts.push(verdict);
      if (verdict.exceeded && (!refusal || verdict.resetSeconds > refusal.retryAfterSeconds)) {
        refusal = { policy: verdict.policy, quota: verdict.quota, retryAfterSeconds: Math.max(1, verdict.resetSeconds) };
      }
    }
    verdictsOf.set(request, verdicts);
    setRateLimitHeaders(reply, verdicts);
    if (refusal) {
      app.serviceMetrics?.rateLimitRejections.inc({ bucket: refusal.policy });
      throw options.tooManyRequests(request, refusal);
    }
  };

  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    if (isLimited(url)) await count(request, reply, serviceLimiters.filter(({ bucket }) => servesRoute(bucket, url)));
  });
  app.addHook('preHandler', async (request, reply) => {
    const declared = request.routeOptions.config?.rateLimitBuckets;
    if (!declared?.length || !isLimited(request.routeOptions.url)) return;
    await count(request, reply, declared.map((name) => routeLimiters.get(name)!));
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limits', dependencies: ['metrics'] });
