import { RATE_LIMIT_RESPONSE_HEADERS } from '../rate-limit/ietf-headers.js';
import { operationsOf, type JsonObject, type OpenApiDocumentJson } from './document-types.js';

/**
 * The response headers the platform sends, documented once under `components.headers` and
 * referenced from each response, so a generator sees one definition per header.
 */
export const RESPONSE_HEADERS: Record<string, { description: string; schema: JsonObject }> = {
  'X-Request-Id': {
    description: 'The id of this request, also in the error body as `requestId` and in the service logs. A well-formed `X-Request-Id` sent by the client is kept.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$', examples: ['req_01JQ3W4Z8B6N2RXT5HKD9VYC3M'] },
  },
  'RateLimit-Policy': {
    description: RATE_LIMIT_RESPONSE_HEADERS['RateLimit-Policy'].description,
    schema: { type: 'string', examples: ['"key";q=600;w=60, "ip";q=1200;w=60'] },
  },
  RateLimit: {
    description: RATE_LIMIT_RESPONSE_HEADERS.RateLimit.description,
    schema: { type: 'string', examples: ['"key";r=599;t=60, "ip";r=1199;t=60'] },
  },
  'Retry-After': {
    description:
      'Seconds to wait before retrying: on a 429 the longest wait among the exhausted rate-limit policies, on a 503 how soon the service expects to answer again, ' +
      'on a 409 `IDEMPOTENCY_KEY_IN_PROGRESS` (routes that take an `Idempotency-Key`) how soon the request holding the key is expected to be done, when the same request replays its answer or runs, ' +
      "on a draw's 409 `DRAW_BEACON_PENDING` how many seconds until the raffle's beacon round is due, " +
      "and on a draw's 409 `DRAW_CHAIN_PENDING` when to ask again for the first block after the close.",
    schema: { type: 'integer', minimum: 1, examples: [30] },
  },
  'Idempotent-Replayed': {
    description: '`true` when this response is the stored answer to an earlier request with the same `Idempotency-Key`; absent on a first answer.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Raffle-Staleness-Ms': {
    description:
      'At most how many milliseconds behind the primary the data of this answer was when it was read: reads go to a streaming read replica while it is fresh enough (never past the deployment\'s bound, 2000 ms by default) ' +
      "and has replayed the key owner's own writes; 0 when the answer was read from the primary. A page served from a shared cache (the public raffle list) adds its time in the cache.",
    schema: { type: 'integer', minimum: 0, examples: [0, 120] },
  },
  'Raffle-Read-After': {
    description:
      'Sent on writes when the deployment reads from a replica: where this write ends in the database\'s log. Send it back as the `Raffle-Read-After` request header on a later read ' +
      'and that read sees this write, whichever instance answers. `@raffle/sdk` does so by itself.',
    schema: { type: 'string', pattern: '^[0-9A-F]{1,8}/[0-9A-F]{1,8}$', examples: ['0/16B3748'] },
  },
  ETag: {
    description: 'A strong validator of the representation; send it back as `If-None-Match` to get a 304 while it has not changed.',
    schema: { type: 'string', examples: ['"3f1c9a7e2b"'] },
  },
  'Cache-Control': {
    description: 'How long shared caches and clients may reuse this response.',
    schema: { type: 'string', examples: ['public, max-age=60'] },
  },
};

/** Headers whose meaning a route may spell out for itself. */
const ROUTE_DESCRIBED = new Set(['ETag', 'Cache-Control']);

const IDEMPOTENCY_KEY_PARAMETER = 'idempotency-key';
/** The statuses an idempotent route stores and replays (see the idempotency plugin: 2xx and 4xx but 400). */
const isReplayable = (status: string) => /^2\d\d$/.test(status) || (/^4\d\d$/.test(status) && status !== '400');

const takesIdempotencyKey = (operation: JsonObject) =>
  (operation.parameters ?? []).some((p: JsonObject) => p.in === 'header' && String(p.name).toLowerCase() === IDEMPOTENCY_KEY_PARAMETER);

/**
 * Every response gains `X-Request-Id` (the request-id plugin sets it on every answer); responses
 * of routes that take an `Idempotency-Key` gain `Idempotent-Replayed`, and their 409 `Retry-After`
 * (sent with `IDEMPOTENCY_KEY_IN_PROGRESS`). Each known header is then a reference to its
 * `components.headers` entry, unless the route described ETag or Cache-Control.
 */
export function documentStandardHeaders(document: OpenApiDocumentJson) {
  const used = new Set<string>();
  for (const { operation } of operationsOf(document)) {
    const idempotent = takesIdempotencyKey(operation);
    for (const [status, response] of Object.entries<JsonObject>(operation.responses ?? {})) {
      const headers: JsonObject = { 'X-Request-Id': {}, ...response.headers };
      if (idempotent && isReplayable(status)) headers['Idempotent-Replayed'] = {};
      if (idempotent && status === '409') headers['Retry-After'] = {};
      for (const name of Object.keys(headers)) {
        if (!RESPONSE_HEADERS[name]) continue;
        // What ETag and Cache-Control promise differs by route: a route's own description stays.
        if (ROUTE_DESCRIBED.has(name) && headers[name].description) continue;
        headers[name] = { $ref: `#/components/headers/${name}` };
        used.add(name);
      }
      response.headers = headers;
    }
  }
  const known = Object.keys(RESPONSE_HEADERS).filter((name) => used.has(name));
  if (known.length > 0) document.components.headers = Object.fromEntries(known.map((name) => [name, RESPONSE_HEADERS[name]]));
}
