import { once } from 'node:events';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { ApiError } from '../errors.js';
import { API_PREFIX } from './auth.js';

const POLICY = 'default';
const REDIS_CONNECT_GRACE_MS = 2000;

/**
 * Per-key limits (per IP when no valid key was sent), configurable per key type. Counting is
 * @fastify/rate-limit's (in Redis when REDIS_URL is set, so all instances share counters); the
 * headers are the IETF draft's `RateLimit-Policy` and `RateLimit`, which the plugin does not
 * emit, so its own headers are translated on the way out.
 */
async function rateLimitPlugin(app: FastifyInstance) {
  const config = app.config;
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  redis?.on('error', (error) => app.log.warn({ reason: error.message }, 'rate-limit Redis unavailable: failing open'));
  // Commands are not queued while disconnected (a Redis outage must not stall requests), so
  // give the first connection a moment before serving.
  if (redis && redis.status !== 'ready') {
    await Promise.race([once(redis, 'ready'), new Promise((resolve) => setTimeout(resolve, REDIS_CONNECT_GRACE_MS).unref())]);
  }

  const maxFor = (request: FastifyRequest) =>
    request.caller?.kind === 'personal'
      ? config.RATE_LIMIT_PERSONAL_MAX
      : request.caller?.kind === 'workspace'
        ? config.RATE_LIMIT_WORKSPACE_MAX
        : config.RATE_LIMIT_ANONYMOUS_MAX;

  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: config.RATE_LIMIT_WINDOW_MS,
    max: async (request) => maxFor(request),
    keyGenerator: (request) => (request.caller ? `key:${request.caller.keyId}` : `ip:${request.ip}`),
    allowList: (request) => !request.url.startsWith(API_PREFIX),
    ...(redis ? { redis, nameSpace: 'raffle-rl:' } : {}),
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new ApiError('RATE_LIMITED', `rate limit of ${context.max} requests exceeded; retry in ${context.after}`),
  });

  const windowSeconds = Math.ceil(config.RATE_LIMIT_WINDOW_MS / 1000);
  app.addHook('onSend', async (_request, reply, payload) => {
    const limit = reply.getHeader('x-ratelimit-limit');
    if (limit === undefined) return payload;
    const remaining = reply.getHeader('x-ratelimit-remaining');
    const reset = reply.getHeader('x-ratelimit-reset');
    reply.header('ratelimit-policy', `"${POLICY}";q=${limit};w=${windowSeconds}`);
    reply.header('ratelimit', `"${POLICY}";r=${remaining};t=${reset}`);
    reply.removeHeader('x-ratelimit-limit');
    reply.removeHeader('x-ratelimit-remaining');
    reply.removeHeader('x-ratelimit-reset');
    return payload;
  });

  if (redis) app.addHook('onClose', async () => void redis.disconnect());
}

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['config', 'auth'] });
