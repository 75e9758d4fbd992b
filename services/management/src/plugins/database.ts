import { createDatabase, type Database } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Uses the given database (tests share one pool per file) or opens one from config. */
async function databasePlugin(app: FastifyInstance, options: { database?: Database }) {
  const owned = !options.database;
  const database =
    options.database ??
    createDatabase({ url: app.config.DATABASE_URL, max: app.config.DATABASE_POOL_SIZE, applicationName: 'management' });
  app.decorate('database', database);
  if (owned) app.addHook('onClose', async () => database.close());
}

export default fp(databasePlugin, { name: 'database', dependencies: ['config'] });
