import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PUBLIC_PREFIX } from './auth.js';

/**
 * The response headers a page on another origin may read: the validators it revalidates with, the
 * rate-limit state it should back off by, the request id to quote in a report, and how stale the
 * answer may be (read from a replica). Cache-Control
 * and Content-Type are readable without being listed.
 */
export const PUBLIC_EXPOSED_HEADERS = ['ETag', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id', 'Raffle-Staleness-Ms'];
/**
 * What a cross-origin page may send: the read methods, a tag to revalidate, a request id, a write's
 * `Raffle-Read-After` token, and the
 * `X-Raffle-Client` a page may name its client with (@raffle/sdk sends none from a browser, sparing
 * each public GET a preflight).
 */
export const PUBLIC_ALLOWED_METHODS = ['GET', 'HEAD'];
export const PUBLIC_ALLOWED_HEADERS = ['If-None-Match', 'X-Request-Id', 'X-Raffle-Client', 'Raffle-Read-After'];
/** How long a browser may reuse a preflight's answer (browsers cap it lower: Chrome at 2 h). */
export const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

const isPublicPath = (request: FastifyRequest) => {
  const path = request.url.split('?', 1)[0]!;
  return path === PUBLIC_PREFIX || path.startsWith(`${PUBLIC_PREFIX}/`);
};

const isPreflight = (request: FastifyRequest) => request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;

function answerPreflight(reply: FastifyReply) {
  return reply
    .code(204)
    .header('access-control-allow-methods', PUBLIC_ALLOWED_METHODS.join(', '))
    .header('access-control-allow-headers', PUBLIC_ALLOWED_HEADERS.join(', '))
    .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
    .send();
}

/**
 * CORS for the keyless /public/v1 routes only, so a community's page can fetch a draw proof and
 * verify it in its visitor's browser. Any origin, no credentials: these routes read no key and no
 * cookie, so a script on another site learns nothing it could not fetch itself. The keyed /api/v1
 * routes get no CORS headers: a browser page must not hold an API key. Errors, 404s and 405s under
 * the prefix carry the headers too, so the page can read why it was refused.
 */
async function publicCorsPlugin(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    if (!isPublicPath(request)) return;
    reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', PUBLIC_EXPOSED_HEADERS.join(', '));
    // A plain OPTIONS (not a preflight) still meets the router's 405.
    if (isPreflight(request)) return answerPreflight(reply);
  });
}

export default fp(publicCorsPlugin, { name: 'public-cors' });
