import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { managementErrorBody } from '@raffle/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Agent, request as upstreamRequest } from 'undici';
import { BodyTooLargeError, declaresTooLarge, limitedBody } from './body-limit.js';
import { forwardedForOf } from './forwarded-for.js';
import { upstreamPathOf } from './request-target.js';

export type ProxyRoute = {
  /** A path prefix such as /api/developer; the path (dot segments resolved) and query string go upstream. */
  prefix: string;
  /** The upstream origin, no trailing slash. */
  target: string;
  /** Named in the 502 message. */
  upstreamName: string;
  /** Data-plane errors carry `code`; management errors do not (the spec), their message starts with it. */
  errorStyle: 'data-plane' | 'management';
};

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
  routes: ProxyRoute[];
  timeoutMs: number;
  /** Bodies larger than this are refused here with 413, never streamed upstream. */
  bodyLimitBytes: number;
  /** A proxy of ours stands in front: keep the X-Forwarded-For it wrote (forwarded-for.ts). */
  trustProxy: boolean;
};

function forwardedRequestHeaders(request: FastifyRequest, trustProxy: boolean): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers as IncomingHttpHeaders)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'host' || name === 'x-forwarded-for') continue;
    headers[name] = value;
  }
  headers['x-forwarded-for'] = forwardedForOf(request, trustProxy);
  // The id this server logged under, so the upstream's log line joins up with ours.
  headers['x-request-id'] = request.id;
  return headers;
}

/** An answer of this server's own, worded as the route's upstream words its errors. */
function ownError(request: FastifyRequest, reply: FastifyReply, route: ProxyRoute, status: number, code: string, message: string) {
  const body = managementErrorBody(request, status, `${code}: ${message}`);
  return reply.status(status).header('cache-control', 'no-store').send(route.errorStyle === 'data-plane' ? { ...body, code } : body);
}

/** As the services' own 503s say: a retry a second later may find the upstream back (the SDK waits what it is told). */
const RETRY_AFTER_SECONDS = '1';

/** The upstream refused the connection, or did not start answering within the proxy's timeout: nothing came back to pass on. */
function badGateway(request: FastifyRequest, reply: FastifyReply, route: ProxyRoute) {
  reply.header('retry-after', RETRY_AFTER_SECONDS);
  return ownError(request, reply, route, 502, 'SERVICE_UNAVAILABLE', `the ${route.upstreamName} service did not answer; try again shortly`);
}

/**
 * Streams the request to the upstream and its answer back (status, headers, body) untouched.
 * Nothing here logs headers: the Authorization header goes through but never into a log line
 * (Fastify's own request log is redacted by the service-kit logger).
 */
export async function proxyPlugin(app: FastifyInstance, options: ProxyOptions) {
  const dispatcher = new Agent({ headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, connectTimeout: 5_000 });
  app.addHook('onClose', async () => dispatcher.close());

  // Bodies are passed on as streams, unparsed and unbuffered: the upstream validates them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  for (const route of options.routes) {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const path = upstreamPathOf(request.url, route.prefix);
      // Outside the prefix once resolved: not an API path at all.
      if (path === null) return reply.callNotFound();
      const method = request.method;
      const hasBody = method !== 'GET' && method !== 'HEAD' && request.body !== undefined;
      if (hasBody && declaresTooLarge(request.headers['content-length'], options.bodyLimitBytes)) {
        return ownError(request, reply, route, 413, 'PAYLOAD_TOO_LARGE', `the request body is larger than ${options.bodyLimitBytes} bytes`);
      }
      try {
        const upstream = await upstreamRequest(route.target + path, {
          method: method as 'GET',
          headers: forwardedRequestHeaders(request, options.trustProxy),
          body: hasBody ? limitedBody(request.body as Readable, options.bodyLimitBytes) : undefined,
          dispatcher,
        });
        reply.status(upstream.statusCode);
        for (const [name, value] of Object.entries(upstream.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
        }
        return reply.send(upstream.body);
      } catch (error) {
        if (error instanceof BodyTooLargeError || (error as { cause?: unknown }).cause instanceof BodyTooLargeError) {
          return ownError(request, reply, route, 413, 'PAYLOAD_TOO_LARGE', `the request body is larger than ${options.bodyLimitBytes} bytes`);
        }
        // The error's code and name only: a driver's message may quote the URL, and with it a query's secrets.
        const { code, name } = error as { code?: string; name?: string };
        request.log.warn({ upstream: route.upstreamName, errorCode: code, errorName: name }, 'upstream did not answer');
        return badGateway(request, reply, route);
      }
    };
    app.all(route.prefix, handler);
    app.all(`${route.prefix}/*`, handler);
  }
}
