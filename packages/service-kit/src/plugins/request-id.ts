import type { IncomingMessage } from 'node:http';
import { newId } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller's well-formed `X-Request-Id` is kept (so traces join up); anything else is replaced. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && WELL_FORMED_REQUEST_ID.test(given) ? given : newId('request');
}

async function requestIdPlugin(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}

export default fp(requestIdPlugin, { name: 'request-id' });
