import { ErrorBodySchema } from '@raffle/contracts';
import { registerServiceRateLimits } from '@raffle/service-kit';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '@raffle/domain';
import { callerOf, configOf } from '../decorations.js';
import { API_PREFIX, PUBLIC_PREFIX } from './auth.js';

/**
 * A `default` policy for /api/v1: per key, with a budget per key type, and per IP when no valid
 * key was sent. A `public` policy for the keyless /public/v1 routes: per client IP (behind
 * TRUST_PROXY, the forwarded one), with a budget of its own, so strangers checking draws neither
 * spend nor are refused by the keyed budgets. The counting, the Redis sharing with its in-memory
 * fallback and the headers are service-kit's, the same as management's.
 */
async function rateLimitPlugin(app: FastifyInstance) {
  const config = configOf(app);
  const maxFor = (request: FastifyRequest) => {
    const kind = callerOf(request)?.kind;
    return kind === 'personal' ? config.RATE_LIMIT_PERSONAL_MAX : kind === 'workspace' ? config.RATE_LIMIT_WORKSPACE_MAX : config.RATE_LIMIT_ANONYMOUS_MAX;
  };

  await registerServiceRateLimits(app, config, {
    routePrefixes: [API_PREFIX, PUBLIC_PREFIX],
    serviceBuckets: [
      {
        name: 'default',
        routePrefixes: [API_PREFIX],
        windowMs: config.RATE_LIMIT_WINDOW_MS,
        max: maxFor,
        keyOf: (request) => {
          const caller = callerOf(request);
          return caller ? `key:${caller.keyId}` : `ip:${request.ip}`;
        },
      },
      {
        name: 'public',
        routePrefixes: [PUBLIC_PREFIX],
        windowMs: config.RATE_LIMIT_PUBLIC_WINDOW_MS,
        max: () => config.RATE_LIMIT_PUBLIC_MAX,
        // Public routes never identify a caller: a key sent anyway does not buy a bigger budget.
        keyOf: (request) => `ip:${request.ip}`,
      },
    ],
    tooManyRequests: (_request, refusal) =>
      new DomainError('RATE_LIMITED', `rate limit of ${refusal.quota} requests exceeded; retry in ${refusal.retryAfterSeconds} s`),
    errorBodySchema: Type.Ref(ErrorBodySchema),
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['config', 'auth', 'metrics'] });
