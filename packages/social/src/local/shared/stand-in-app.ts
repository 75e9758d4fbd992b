import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { LocalFaults } from './faults.js';

export type StandInListenOptions = {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
};

/** One answer a stand-in gave, as sent: what the contract tests hold to the provider's document. */
export type StandInAnswer<Route extends string> = {
  route: Route;
  method: string;
  status: number;
  headers: Record<string, string>;
  /** Without parameters (`application/json`, not `application/json; charset=utf-8`). */
  contentType: string | null;
  body: string;
};

export type StandInOptions<Route extends string> = StandInListenOptions & {
  /** Told of every answer to a known route (not of dropped connections); for contract tests. */
  onAnswer?: (answer: StandInAnswer<Route>) => void;
};

export type StandInHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * A Fastify app for a stand-in: no logging (its requests carry codes, secrets and tokens), OAuth's
 * form-encoded bodies parsed, and a close that drops connections held open by a `slow` fault.
 */
export function createStandInApp<Route extends string>(
  onAnswer?: (answer: StandInAnswer<Route>) => void,
): { app: FastifyInstance; withFaults: (faults: LocalFaults<Route>, route: Route, handler: StandInHandler) => StandInHandler } {
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    // The providers decode percent-escapes in the path; @discordjs/rest sends `/users/%40me`.
    rewriteUrl: (request) => (request.url ?? '/').replace(/%40/gi, '@'),
  });
  const closing = new AbortController();
  app.addHook('onClose', async () => closing.abort());
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const routeOf = new WeakMap<FastifyRequest, Route>();
  if (onAnswer) {
    app.addHook('onSend', async (request, reply, payload) => {
      const route = routeOf.get(request);
      if (route === undefined) return payload;
      const headers = Object.fromEntries(Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)]));
      const contentType = headers['content-type']?.split(';')[0]?.trim() ?? null;
      onAnswer({ route, method: request.method, status: reply.statusCode, headers, contentType, body: typeof payload === 'string' ? payload : '' });
      return payload;
    });
  }

  /** Runs the route's fault first: `down` drops the connection unanswered, `slow` answers late. */
  const withFaults =
    (faults: LocalFaults<Route>, route: Route, handler: StandInHandler): StandInHandler =>
    async (request, reply) => {
      routeOf.set(request, route);
      const fault = faults.faultFor(route);
      if (fault?.kind === 'down') {
        reply.hijack();
        request.raw.socket.destroy();
        return;
      }
      if (fault?.kind === 'slow') {
        try {
          await sleep(fault.delayMs, undefined, { signal: closing.signal });
        } catch {
          reply.hijack();
          request.raw.socket.destroy();
          return;
        }
      }
      return handler(request, reply);
    };

  return { app, withFaults };
}

export async function listenStandIn(app: FastifyInstance, options: StandInListenOptions): Promise<string> {
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the stand-in is not listening on a TCP port');
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}`;
}

/** The form fields of a token or revocation request, as strings. */
export const formOf = (request: FastifyRequest): Record<string, string | undefined> =>
  request.body !== null && typeof request.body === 'object' ? (request.body as Record<string, string | undefined>) : {};

export const queryOf = (request: FastifyRequest): Record<string, string | undefined> => request.query as Record<string, string | undefined>;
