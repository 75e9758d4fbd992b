import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { pathOf } from '../request-path.js';

type KnownPath = { pattern: RegExp; methods: Set<string> };

export type UnmatchedBody = (request: FastifyRequest, status: 404 | 405, message: string) => unknown;

/** A service's own answer for what no route matched, or undefined to leave it to the 404/405 (the console's client routes). */
export type UnmatchedFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

function patternOf(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/**
 * Unknown paths answer 404; a known path asked with another method answers 405 with the
 * `Allow` header. The body is the service's own error body, built by `body`. A `fallback` answers
 * first when it will.
 */
async function notFoundPlugin(app: FastifyInstance, options: { body: UnmatchedBody; fallback?: UnmatchedFallback }) {
  const known = new Map<string, KnownPath>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const entry = known.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const m of methods) entry.methods.add(m.toUpperCase());
    known.set(route.url, entry);
  });

  const answerUnmatched = (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request.url);
    const allowed = new Set<string>();
    for (const { pattern, methods } of known.values()) if (pattern.test(path)) for (const m of methods) allowed.add(m);
    // A matching route for this very method means the route ran and found nothing (static files).
    if (allowed.size > 0 && !allowed.has(request.method)) {
      const allow = [...allowed].sort().join(', ');
      reply.header('allow', allow);
      return reply.status(405).send(options.body(request, 405, `${request.method} is not allowed here; use ${allow}`));
    }
    return reply.status(404).send(options.body(request, 404, `no route ${request.method} ${path}`));
  };
  app.decorate('answerUnmatched', answerUnmatched);
  const { fallback } = options;
  app.setNotFoundHandler(fallback ? (request, reply) => fallback(request, reply) ?? answerUnmatched(request, reply) : answerUnmatched);
}

export default fp(notFoundPlugin, { name: 'not-found' });
