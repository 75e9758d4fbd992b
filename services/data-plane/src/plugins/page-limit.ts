import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '@raffle/domain';

const PLAIN_INTEGER = /^[0-9]{1,9}$/;

/**
 * `limit` must be written as a plain integer. Ajv's coercion would accept `1e2`, ` 5` or
 * `1e400` (Infinity), so the raw value is checked before validation; the schema then
 * checks the range, and either failure answers 400 INVALID_LIMIT.
 */
async function pageLimitPlugin(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const querySchema = request.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
    if (!querySchema?.properties?.limit) return;
    const query = request.query as Record<string, unknown> | undefined;
    if (!query || !('limit' in query)) return;
    const raw = query.limit;
    if (typeof raw !== 'string' || !PLAIN_INTEGER.test(raw)) {
      throw new DomainError('INVALID_LIMIT', "limit must be an integer within the endpoint's page-size range");
    }
  });
}

export default fp(pageLimitPlugin, { name: 'page-limit' });
