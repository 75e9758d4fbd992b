import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { managementErrorBody } from '@raffle/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Agent, request as upstreamRequest } from 'undici';

export type ProxyRoute = {
  /** A path prefix such as /api/developer; the path and query string go upstream unchanged. */
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

function forwardedRequestHeaders(request: FastifyRequest): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers as IncomingHttpHeaders)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'host') continue;
    headers[name] = value;
  }
  // The id this server logged under, so the upstream's log line joins up with ours.
  headers['x-request-id'] = request.id;
  return headers;
}

/** As the services' own 503s say: a retry a second later may find the upstream back (the SDK waits what it is told). */
const RETRY_AFTER_SECONDS = '1';

/** The upstream refused the connection, or did not start answering within the proxy's timeout: nothing came back to pass on. */
function badGateway(request: FastifyRequest, reply: FastifyReply, route: ProxyRoute) {
  const message = `SERVICE_UNAVAILABLE: the ${route.upstreamName} service did not answer; try again shortly`;
  const body = managementErrorBody(request, 502, message);
  return reply
    .status(502)
    .header('cache-control', 'no-store')
    .header('retry-after', RETRY_AFTER_SECONDS)
    .send(route.errorStyle === 'data-plane' ? { ...body, code: 'SERVICE_UNAVAILABLE' } : body);
}

/**
 * Streams the request to the upstream and its answer back (status, headers, body) untouched.
 * Nothing here logs headers: the Authorization header goes through but never into a log line
 * (Fastify's own request log is redacted by the service-kit logger).
 */
export async function proxyPlugin(app: FastifyInstance, options: { routes: ProxyRoute[]; timeoutMs: number }) {
  const dispatcher = new Agent({ headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, connectTimeout: 5_000 });
  app.addHook('onClose', async () => dispatcher.close());

  // Bodies are passed on as streams, unparsed and unbuffered: the upstream validates them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  for (const route of options.routes) {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const method = request.method;
      const hasBody = method !== 'GET' && method !== 'HEAD' && request.body !== undefined;
      try {
        const upstream = await upstreamRequest(route.target + request.url, {
          method: method as 'GET',
          headers: forwardedRequestHeaders(request),
          body: hasBody ? (request.body as Readable) : undefined,
          dispatcher,
        });
        reply.status(upstream.statusCode);
        for (const [name, value] of Object.entries(upstream.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
        }
        return reply.send(upstream.body);
      } catch (error) {
        request.log.warn({ upstream: route.upstreamName, err: error }, 'upstream did not answer');
        return badGateway(request, reply, route);
      }
    };
    app.all(route.prefix, handler);
    app.all(`${route.prefix}/*`, handler);
  }
}
