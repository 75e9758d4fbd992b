import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pathOf } from '@raffle/service-kit';
import { DomainError } from '@raffle/domain';
import { callerOf, heldIdempotencyOf } from '../decorations.js';
import { sendRenderedJson } from '../routes/send-json.js';
import { createIdempotencyStore, type IdempotencyScope } from './idempotency-store.js';
import { requestFingerprint } from './request-fingerprint.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route honours `Idempotency-Key`: a retry with the same key replays the first response. */
    idempotent?: boolean;
  }
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

const KEY_PATTERN = /^[ -~]{1,255}$/;

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

const IdempotencyKeyHeader = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[ -~]+$',
  description:
    'Optional; 1 to 255 printable ASCII characters, unique per intended operation (a UUID is a good choice). ' +
    'A retry with the same key and the same request, within 24 hours, replays the first response with `Idempotent-Replayed: true`; ' +
    'the same key for a different request is 409 `IDEMPOTENCY_KEY_REUSED`, and while the first is still running 409 `IDEMPOTENCY_KEY_IN_PROGRESS`.',
});

/**
 * What is kept for retries: successes and the domain's refusals (404, 409, 422), so a retry sees
 * the answer the first attempt got. A 400 means the request was refused before anything ran and a
 * 5xx that it failed: the key is released, and a corrected or later retry runs.
 */
const isKept = (status: number) => (status >= 200 && status < 300) || (status > 400 && status < 500);

/**
 * `Idempotency-Key` for the routes that declare `config.idempotent`. The header joins the route's
 * schema (so it is documented), and the key is claimed once the caller is authenticated and the
 * body parsed, before validation: the same key with another body is a reuse, whatever the body.
 * The response is recorded before it is sent, so a retry that sees the record sees the answer.
 */
async function idempotencyPlugin(app: FastifyInstance) {
  const store = createIdempotencyStore(app.database.sql);
  app.decorateRequest('idempotency', null);

  // Keys are only looked up by (key id, key), so expired ones would otherwise stay for good.
  const sweeper = setInterval(() => {
    store.sweepExpired().catch((error: unknown) => app.log.warn({ err: error }, 'idempotency sweep failed; retrying next interval'));
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const headers = (route.schema?.headers ?? {}) as { properties?: Record<string, unknown> };
    route.schema = {
      ...route.schema,
      // Documented in its usual spelling; Fastify validates header names lowercased.
      headers: { ...headers, type: 'object', properties: { ...headers.properties, 'Idempotency-Key': IdempotencyKeyHeader } },
    };
  });

  app.addHook('preValidation', async (request, reply) => {
    if (!request.routeOptions.config.idempotent) return;
    const caller = callerOf(request);
    if (!caller) return;
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (key === undefined) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new DomainError('INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    const scope = { apiKeyId: caller.keyId, key };
    const fingerprint = requestFingerprint({ method: request.method, route: request.routeOptions.url ?? '', params: request.params, body: request.body });
    const claim = await store.claim(scope, { method: request.method, path: pathOf(request.url), fingerprint });
    switch (claim.outcome) {
      case 'run':
        request.setDecorator<IdempotencyScope | null>('idempotency', scope);
        return;
      case 'replay':
        reply.header(REPLAYED_HEADER, 'true').status(claim.response.status);
        return sendRenderedJson(reply, claim.response.body);
      case 'reused':
        throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was already used for a different request; use a new key for a new request');
      case 'in_progress':
        throw new DomainError('IDEMPOTENCY_KEY_IN_PROGRESS', 'a request with this Idempotency-Key is still being processed; retry shortly');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const scope = heldIdempotencyOf(request);
    if (!scope) return payload;
    request.setDecorator('idempotency', null);
    try {
      if (isKept(reply.statusCode) && typeof payload === 'string') await store.complete(scope, { status: reply.statusCode, body: payload });
      else await store.release(scope);
    } catch (error) {
      // The outcome stands and is answered; the record stays in progress until it is taken over as abandoned.
      request.log.error({ err: error }, 'could not record the idempotent response');
    }
    return payload;
  });

  // A safety net: a request that ended without passing onSend must not hold its key until it is abandoned.
  app.addHook('onResponse', async (request) => {
    const scope = heldIdempotencyOf(request);
    if (!scope) return;
    request.setDecorator('idempotency', null);
    await store.release(scope).catch((error: unknown) => request.log.error({ err: error }, 'could not release an idempotency key'));
  });
}

export default fp(idempotencyPlugin, { name: 'idempotency', dependencies: ['database', 'auth'] });
