import { createDatabase, type Database } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export type DatabasePluginOptions = { url: string; poolSize: number; applicationName: string; database?: Database };

/** Uses the given database (tests share one pool per file) or opens one. */
async function databasePlugin(app: FastifyInstance, options: DatabasePluginOptions) {
  const owned = !options.database;
  const database = options.database ?? createDatabase({ url: options.url, max: options.poolSize, applicationName: options.applicationName });
  app.decorate('database', database);
  if (owned) app.addHook('onClose', async () => database.close());
}

export default fp(databasePlugin, { name: 'database' });
