import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '@raffle/contracts';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { JsonObject, Operation } from '../openapi/document-types.js';
import { pathOf } from '../request-path.js';
import { createClaimSettlements } from './claim-settlements.js';
import { createIdempotencyStore, type HeldIdempotencyKey, type IdempotencyClaim } from './idempotency-store.js';
import { requestFingerprint } from './request-fingerprint.js';
import { createResponseSealing, type ResponseSealing } from './response-sealing.js';

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

/**
 * The `Retry-After` of 409 IDEMPOTENCY_KEY_IN_PROGRESS: the request holding the key is either still
 * running (entries and creates take well under a second) or over and its claim waits to be settled, which
 * happens within moments of the database answering again (claim-settlements.ts).
 */
export const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export type IdempotencyPluginOptions = {
  /**
   * Whose keys these are, once the caller is authenticated (the data plane's API key id, the
   * management user id), or null when the request has no caller: then the header is ignored.
   * Ids are prefixed by kind (`key_`, `usr_`), so two services' principals never share a key.
   */
  principalOf: (request: FastifyRequest) => string | null;
  /** The service's refusal (its `DomainError`), answered through its error handler. */
  refusal: (code: ErrorCode, message: string) => Error;
  /**
   * When set, stored responses are sealed under this server secret and the client's key
   * (response-sealing.ts): for routes whose answers carry a secret shown once (decision 0020).
   */
  sealingSecret?: string;
};

/** The request's held key (with its claim token) until its response is stored; null when none. */
export const heldIdempotencyOf = (request: FastifyRequest): HeldIdempotencyKey | null =>
  (request as FastifyRequest & { idempotency?: HeldIdempotencyKey | null }).idempotency ?? null;

/** A route that stored the response with its own transaction's writes: the plugin then leaves the record alone. */
export const markIdempotencyCompleted = (request: FastifyRequest) => request.setDecorator('idempotency', null);

const IdempotencyKeyHeader = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[ -~]+$',
  description:
    'Optional; 1 to 255 printable ASCII characters, unique per intended operation (a UUID is a good choice). ' +
    'A retry with the same key and the same request, within 24 hours, replays the first response with `Idempotent-Replayed: true`; ' +
    'the same key for a different request is 409 `IDEMPOTENCY_KEY_REUSED`, and while the first is still running 409 `IDEMPOTENCY_KEY_IN_PROGRESS` with `Retry-After`: ' +
    'send the same request again after that many seconds. A first request that failed (5xx) does not keep the key: its retry runs.',
});

/**
 * What is kept for retries: successes and the domain's refusals (404, 409, 422), so a retry sees
 * the answer the first attempt got. A 400 means the request was refused before anything ran and a
 * 5xx that it failed: the key is released, and a corrected or later retry runs.
 */
const isKept = (status: number) => (status >= 200 && status < 300) || (status > 400 && status < 500);

/** The stored answer as sent the first time, or null when a sealed one no longer opens (the server secret changed since). */
function replayBody(sealing: ResponseSealing | null, principal: string, key: string, stored: string): string | null {
  if (!sealing) return stored;
  try {
    return sealing.open(principal, key, stored);
  } catch {
    return null;
  }
}

/**
 * `Idempotency-Key` for the routes that declare `config.idempotent`. The header joins the route's
 * schema (so it is documented), and the key is claimed once the caller is authenticated and the
 * body parsed, before validation: the same key with another body is a reuse, whatever the body.
 * The response is recorded before it is sent, so a retry that sees the record sees the answer.
 */
async function idempotencyPlugin(app: FastifyInstance, options: IdempotencyPluginOptions) {
  const store = createIdempotencyStore(app.database.sql);
  const sealing = options.sealingSecret === undefined ? null : createResponseSealing(options.sealingSecret);
  const settlements = createClaimSettlements(store, app.log);
  app.decorateRequest('idempotency', null);
  // The client's key as sent, kept for the request's life: a sealed response is sealed and opened with it.
  app.decorateRequest('idempotencyOpener', null);
  app.addHook('onClose', async () => settlements.close());

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
    const principal = options.principalOf(request);
    if (principal === null) return;
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (key === undefined) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw options.refusal('INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    // A sealed service stores only a digest of the key: the key itself is half of what opens the answer.
    const held: HeldIdempotencyKey = { apiKeyId: principal, key: sealing ? sealing.recordKey(key) : key, claimToken: randomUUID() };
    request.setDecorator('idempotencyOpener', key);
    const fingerprint = requestFingerprint({ method: request.method, route: request.routeOptions.url ?? '', params: request.params, body: request.body });
    const idempotentRequest = { method: request.method, path: pathOf(request.url), fingerprint };
    // Asked before claiming: a settlement that lands meanwhile is gone from the list, but its claim was what we met.
    const earlierAttemptUnsettled = settlements.holds(held);
    let claim: IdempotencyClaim;
    try {
      claim = await store.claim(held, idempotentRequest);
      // A retry on this instance may meet its own earlier attempt's claim, still to be released: settle it now and claim again.
      if (claim.outcome === 'in_progress' && earlierAttemptUnsettled) {
        await settlements.land(held);
        claim = await store.claim(held, idempotentRequest);
      }
    } catch (error) {
      // The claim's insert may have committed with its answer lost (a connection cut): whatever
      // happened, release this request's token once the database answers, so the retry is not refused.
      settlements.settleLater({ held, response: null });
      throw error;
    }
    switch (claim.outcome) {
      case 'run':
        request.setDecorator<HeldIdempotencyKey | null>('idempotency', held);
        return;
      case 'replay': {
        const body = replayBody(sealing, principal, key, claim.response.body);
        // Neither replayable nor free to run again (it did run): the key is spent.
        if (body === null) throw options.refusal('IDEMPOTENCY_KEY_REUSED', 'the answer stored for this Idempotency-Key can no longer be read; use a new key');
        reply.header(REPLAYED_HEADER, 'true').status(claim.response.status);
        return reply.header('content-type', JSON_CONTENT_TYPE).send(body);
      }
      case 'reused':
        throw options.refusal('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was already used for a different request; use a new key for a new request');
      case 'in_progress':
        reply.header('retry-after', String(IN_PROGRESS_RETRY_AFTER_SECONDS));
        throw options.refusal('IDEMPOTENCY_KEY_IN_PROGRESS', 'a request with this Idempotency-Key is still being processed; retry shortly');
    }
  });

  // The outcome stands and is answered whatever happens here: a settlement the database cannot take now is written once it can.
  app.addHook('onSend', async (request, reply, payload) => {
    const held = heldIdempotencyOf(request);
    if (!held) return payload;
    request.setDecorator('idempotency', null);
    const opener = (request as FastifyRequest & { idempotencyOpener?: string | null }).idempotencyOpener ?? null;
    const body = typeof payload === 'string' && sealing && opener !== null ? sealing.seal(held.apiKeyId, opener, payload) : payload;
    const response = isKept(reply.statusCode) && typeof body === 'string' ? { status: reply.statusCode, body } : null;
    // A 503 is the database (or a dependency) failing the request: its 503 is not held up by a release that would likely fail too.
    if (reply.statusCode === 503) settlements.settleLater({ held, response });
    else await settlements.settle({ held, response });
    return payload;
  });

  // A safety net: a request that ended without passing onSend must not hold its key until it is abandoned.
  app.addHook('onResponse', async (request) => {
    const held = heldIdempotencyOf(request);
    if (!held) return;
    request.setDecorator('idempotency', null);
    await settlements.settle({ held, response: null });
  });
}

export default fp(idempotencyPlugin, { name: 'idempotency', dependencies: ['database', 'auth'] });

/** The codes an operation taking `Idempotency-Key` may answer about its key, for the service's `commonCodes`. */
export function idempotencyErrorCodes({ operation }: Operation): ErrorCode[] {
  const takesKey = (operation.parameters ?? []).some((p: JsonObject) => p.in === 'header' && String(p.name).toLowerCase() === IDEMPOTENCY_KEY_HEADER);
  return takesKey ? ['INVALID_IDEMPOTENCY_KEY', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_PROGRESS'] : [];
}
