import { ManagementErrorBodySchema } from '@raffle/contracts';
import { registerServiceRateLimits, type RateLimitBucket } from '@raffle/service-kit';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '@raffle/domain';
import { configOf, dashboardUserIdOf } from '../decorations.js';
import { DASHBOARD_PREFIX, MANAGEMENT_PREFIX } from './auth.js';

/** The route buckets a route can name in `config.rateLimitBuckets`. */
export const RATE_LIMIT_BUCKETS = {
  webhookSend: 'webhook-send',
  webhookRecover: 'webhook-recover',
  keyCreate: 'key-create',
  webhookEndpointCreate: 'webhook-endpoint-create',
  walletLink: 'wallet-link',
  connectionLink: 'connection-link',
  rafflePublish: 'raffle-publish',
} as const;

type Params = { workspaceId?: string; endpointId?: string };

/**
 * A webhook endpoint's counter, named by its owner too: a personal endpoint is counted under its
 * user, so a stranger who learns its id spends only their own budget (ownership is checked later,
 * in the handler); a workspace's routes have passed the workspace access check by then.
 */
function endpointKey(request: FastifyRequest): string | null {
  const { workspaceId, endpointId } = request.params as Params;
  if (!endpointId) return null;
  return workspaceId ? `workspace:${workspaceId}:endpoint:${endpointId}` : `user:${dashboardUserIdOf(request)}:endpoint:${endpointId}`;
}

const userKey = (request: FastifyRequest) => {
  const userId = dashboardUserIdOf(request);
  return userId ? `user:${userId}` : null;
};

/**
 * Management's limits: a `user` budget for every /api/developer and /api/dashboard request (per
 * JWT `sub`, per IP when the session is missing or refused), and tighter buckets for what acts on
 * third parties or costs others, counted once a request is authorized and valid.
 */
async function rateLimitPlugin(app: FastifyInstance) {
  const config = configOf(app);
  const window = config.RATE_LIMIT_WINDOW_MS;
  const routeBucket = (name: string, max: number, keyOf: RateLimitBucket['keyOf']): RateLimitBucket => ({ name, windowMs: window, max: () => max, keyOf });

  await registerServiceRateLimits(app, config, {
    routePrefixes: [MANAGEMENT_PREFIX, DASHBOARD_PREFIX],
    serviceBuckets: [
      {
        name: 'user',
        windowMs: window,
        max: (request) => (dashboardUserIdOf(request) ? config.RATE_LIMIT_USER_MAX : config.RATE_LIMIT_ANONYMOUS_MAX),
        keyOf: (request) => userKey(request) ?? `ip:${request.ip}`,
      },
    ],
    routeBuckets: [
      routeBucket(RATE_LIMIT_BUCKETS.webhookSend, config.RATE_LIMIT_WEBHOOK_SEND_MAX, endpointKey),
      routeBucket(RATE_LIMIT_BUCKETS.webhookRecover, config.RATE_LIMIT_WEBHOOK_RECOVER_MAX, endpointKey),
      routeBucket(RATE_LIMIT_BUCKETS.keyCreate, config.RATE_LIMIT_KEY_CREATE_MAX, userKey),
      routeBucket(RATE_LIMIT_BUCKETS.webhookEndpointCreate, config.RATE_LIMIT_WEBHOOK_ENDPOINT_CREATE_MAX, userKey),
      routeBucket(RATE_LIMIT_BUCKETS.walletLink, config.RATE_LIMIT_WALLET_LINK_MAX, userKey),
      routeBucket(RATE_LIMIT_BUCKETS.connectionLink, config.RATE_LIMIT_CONNECTION_LINK_MAX, userKey),
      routeBucket(RATE_LIMIT_BUCKETS.rafflePublish, config.RATE_LIMIT_RAFFLE_PUBLISH_MAX, userKey),
    ],
    tooManyRequests: (_request, refusal) =>
      new DomainError('RATE_LIMITED', `the "${refusal.policy}" limit of ${refusal.quota} requests per window is exhausted; retry in ${refusal.retryAfterSeconds} s`),
    errorBodySchema: Type.Ref(ManagementErrorBodySchema),
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['config', 'auth', 'metrics'] });
