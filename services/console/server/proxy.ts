import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import replyFrom from '@fastify/reply-from';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BodyTooLargeError, declaresTooLarge, limitedBody } from './body-limit.js';
import { consoleErrorBody } from './errors.js';
import { forwardedForOf } from './forwarded-for.js';
import { upstreamTargetOf } from './request-target.js';
import type { UpstreamRoute } from './upstream-routes.js';

/** Connection-scoped headers (RFC 9110 §7.6.1) are for one hop only. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export type ProxyOptions = {
  routes: UpstreamRoute[];
  timeoutMs: number;
  /** Bodies larger than this are refused here with 413, never streamed upstream. */
  bodyLimitBytes: number;
};

/** Connect to an upstream within this, or the browser gets 502. */
const CONNECT_TIMEOUT_MS = 5_000;

/** As the services' own 503s say: a retry a second later may find the upstream back (the SDK waits what it is told). */
const RETRY_AFTER_SECONDS = '1';

function withoutHopByHop<H extends Record<string, unknown>>(headers: H): H {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name))) as H;
}

/**
 * `Expect: 100-continue` (curl adds it to any body over 1 MiB, whatever the method) is this hop's:
 * Node's server has already answered the 100 and the body is streaming in. Passed on, undici
 * refuses to send the request at all (it does not support `expect`), and the browser got a 502.
 */
const ANSWERED_HERE = new Set(['expect']);

function forwardedRequestHeaders(request: FastifyRequest, headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return {
    ...Object.fromEntries(Object.entries(withoutHopByHop(headers)).filter(([name]) => !ANSWERED_HERE.has(name))),
    'x-forwarded-for': forwardedForOf(request),
    // The id this server logged under, so the upstream's log line joins up with ours.
    'x-request-id': request.id,
  };
}

function payloadTooLarge(request: FastifyRequest, reply: FastifyReply, limitBytes: number) {
  const status = 413;
  return reply.status(status).header('cache-control', 'no-store').send(consoleErrorBody(request, status, 'PAYLOAD_TOO_LARGE', `the request body is larger than ${limitBytes} bytes`));
}

/** The upstream refused the connection, or did not start answering within the proxy's timeout: nothing came back to pass on. */
function badGateway(request: FastifyRequest, reply: FastifyReply, route: UpstreamRoute) {
  const status = 502;
  reply.status(status).header('cache-control', 'no-store').header('retry-after', RETRY_AFTER_SECONDS);
  return reply.send(consoleErrorBody(request, status, 'SERVICE_UNAVAILABLE', `the ${route.upstreamName} service did not answer; try again shortly`));
}

/** The upload outgrew the limit somewhere down the chain of causes (undici and reply-from each wrap it). */
function causedByTooLargeBody(error: unknown): boolean {
  let cause = error;
  while (cause instanceof Error) {
    if (cause instanceof BodyTooLargeError) return true;
    cause = cause.cause;
  }
  return false;
}

/**
 * Streams the request to the upstream and its answer back (status, headers, body) untouched, on
 * @fastify/reply-from (undici). What it adds is the console's: the path resolved and checked
 * against the prefix before anything is sent, the visitor's address, the body limit, and the
 * console's own error body for what the upstream never answered. Nothing here logs headers or the
 * query: the Authorization header goes through but never into a log line (the service-kit logger
 * censors Fastify's request log), and reply-from's own request lines, which would log the path
 * with its query, are off.
 */
export async function proxyPlugin(app: FastifyInstance, options: ProxyOptions) {
  await app.register(replyFrom, {
    undici: {
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // reply-from turns certificate checks off unless told (it sets `tls.rejectUnauthorized:
      // false`, which `connect` overrides): an https upstream must prove who it is.
      connect: { timeout: CONNECT_TIMEOUT_MS, rejectUnauthorized: true },
    },
    disableRequestLogging: true,
  });

  // Bodies are passed on as streams, unparsed and unbuffered: the upstream validates them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  for (const route of options.routes) {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const target = upstreamTargetOf(request.url, route.prefix);
      // Outside the prefix once resolved: not an API path at all.
      if (target === null) return reply.callNotFound();
      const carriesBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== undefined;
      if (carriesBody && declaresTooLarge(request.headers['content-length'], options.bodyLimitBytes)) {
        return payloadTooLarge(request, reply, options.bodyLimitBytes);
      }
      // Counted on the way out: a chunked upload says nothing of its size up front.
      if (carriesBody) request.body = limitedBody(request.body as Readable, options.bodyLimitBytes);
      return reply.from(route.target + target.path, {
        // The query as sent, never parsed and rebuilt.
        queryString: () => target.query,
        // A GET's or HEAD's body is not passed on (nor does reply-from allow one).
        ...(carriesBody || request.body === undefined ? {} : { body: null }),
        rewriteRequestHeaders: (_request, headers) => forwardedRequestHeaders(request, headers),
        rewriteHeaders: (headers) => withoutHopByHop(headers),
        // No retries: the browser's SDK retries what it is told to (Retry-After), and only once.
        retryDelay: () => null,
        onError: (_reply, { error }) => {
          if (causedByTooLargeBody(error)) return void payloadTooLarge(request, reply, options.bodyLimitBytes);
          // The error's code and name only: a message may quote the URL, and with it a query's
          // secrets. (reply-from has logged the error already: undici's messages name the
          // upstream's host and port, never the path; server-kit.test.ts checks a failed request's
          // query stays out of the log.)
          const cause = (error as { cause?: { code?: string; name?: string } }).cause;
          request.log.warn({ upstream: route.upstreamName, errorCode: cause?.code, errorName: cause?.name }, 'upstream did not answer');
          return void badGateway(request, reply, route);
        },
      });
    };
    app.all(route.prefix, handler);
    app.all(`${route.prefix}/*`, handler);
  }
}
