import { createDatabase, STATEMENT_BOUNDS, type Database } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export type DatabasePluginOptions = { url: string; poolSize: number; applicationName: string; database?: Database };

/**
 * Uses the given database (tests share one pool per file) or opens one whose every statement is
 * bounded as a request's (STATEMENT_BOUNDS.request; longer kinds raise it per transaction): a
 * locked table costs a request a 503 within seconds, not a connection for as long as the lock.
 */
async function databasePlugin(app: FastifyInstance, options: DatabasePluginOptions) {
  const owned = !options.database;
  const database =
    options.database ?? createDatabase({ url: options.url, max: options.poolSize, applicationName: options.applicationName, statementBounds: STATEMENT_BOUNDS.request });
  app.decorate('database', database);
  if (owned) app.addHook('onClose', async () => database.close());
}

export default fp(databasePlugin, { name: 'database' });
