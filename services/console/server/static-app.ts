import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { pathOf, type UnmatchedFallback } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Paths that belong to the APIs or the server: an unknown one is a 404, never the app. */
const NOT_APP_PATHS = /^\/(api|public|health)(\/|$)/;

const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/**
 * The built app. Hashed assets are immutable and cached for a year; index.html is never cached,
 * so a new deploy is picked up on the next load.
 */
async function staticApp(app: FastifyInstance, options: { root: string }) {
  await app.register(fastifyStatic, {
    root: options.root,
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders: (res, filePath) => {
      const hashed = filePath.startsWith(path.join(options.root, 'assets') + path.sep);
      res.header('cache-control', hashed ? `public, max-age=${ONE_YEAR_SECONDS}, immutable` : 'no-cache');
    },
  });
}

/** Not encapsulated: `sendFile` must be there for the client routes, which the not-found handler answers. */
export const staticAppPlugin = fp(staticApp, { name: 'static-app' });

/**
 * Any other GET for a page path is the app's client-side route, answered with index.html; the
 * rest is left to the kit's 404/405.
 */
export function clientRoutes(root: string): UnmatchedFallback {
  const indexFile = path.join(root, 'index.html');
  return (request, reply) => {
    const pathname = pathOf(request.url);
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !NOT_APP_PATHS.test(pathname) && !pathname.startsWith('/assets/');
    if (!wantsPage || !existsSync(indexFile)) return undefined;
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  };
}
