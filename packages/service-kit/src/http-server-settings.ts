import { Type, type Static } from '@sinclair/typebox';
import type { FastifyServerOptions } from 'fastify';

/**
 * How long a client may take and how many may connect at once: every service reads the same
 * variables. A slow client (headers or body trickling in) is cut off with 408 rather than
 * holding a socket and its memory for good; past HTTP_MAX_CONNECTIONS an instance refuses new
 * connections (the load balancer sends them elsewhere) rather than slowing every request.
 */
export const HttpServerSettings = {
  /** Time for a request's headers to arrive in full (slow-header clients get 408). */
  HTTP_HEADERS_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600_000, default: 10_000 }),
  /** Time for a whole request, body included, to arrive (slow-body clients get 408). */
  HTTP_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600_000, default: 30_000 }),
  /** Idle time before a keep-alive connection is closed; keep it above the load balancer's own idle timeout. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600_000, default: 72_000 }),
  /** At shutdown, how long open keep-alive connections get (each request answered 503 + `Connection: close`) before they are closed. */
  HTTP_SHUTDOWN_DRAIN_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 1000 }),
  /** Open connections one instance accepts; further ones are refused. */
  HTTP_MAX_CONNECTIONS: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10_000 }),
};

export type HttpServerConfig = Static<ReturnType<typeof Type.Object<typeof HttpServerSettings>>>;

/** Node checks the two request timeouts on this period: it bounds how late a slow client is cut off. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** The Fastify options that carry the settings (Fastify creates the server with them). */
export function httpServerOptions(config: HttpServerConfig): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout'> & { http: object } {
  return {
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    http: {
      headersTimeout: Math.min(config.HTTP_HEADERS_TIMEOUT_MS, config.HTTP_REQUEST_TIMEOUT_MS),
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
  };
}

/** What Fastify has no option for; call once the app is built. */
export function limitConnections(server: { maxConnections: number }, config: HttpServerConfig): void {
  server.maxConnections = config.HTTP_MAX_CONNECTIONS;
}
