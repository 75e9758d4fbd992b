import { createDatabase, isConnectionError, STATEMENT_BOUNDS, type Database, type PoolMode } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export type DatabasePluginOptions = { url: string; poolSize: number; applicationName: string; poolMode?: PoolMode; directUrl?: string; database?: Database };

/** Between checks of a transaction pooler's session defaults while the database does not answer. */
const SESSION_DEFAULTS_RETRY_MS = 5000;

/**
 * Uses the given database (tests share one pool per file) or opens one whose every statement is
 * bounded as a request's (STATEMENT_BOUNDS.request; longer kinds raise it per transaction): a
 * locked table costs a request a 503 within seconds, not a connection for as long as the lock.
 * Behind a transaction pooler those bounds come from the pooler, so they are checked at startup.
 */
async function databasePlugin(app: FastifyInstance, options: DatabasePluginOptions) {
  const owned = !options.database;
  const database =
    options.database ??
    createDatabase({
      url: options.url,
      max: options.poolSize,
      applicationName: options.applicationName,
      statementBounds: STATEMENT_BOUNDS.request,
      poolMode: options.poolMode,
      directUrl: options.directUrl,
      onPoolerRelease: (unansweredMs) =>
        app.log.warn({ unansweredMs: Math.round(unansweredMs) }, 'the pooler cannot reach the database: the statements queued in it were failed (503) and its connections reopened'),
    });
  app.decorate('database', database);
  if (owned) app.addHook('onClose', async () => database.close());
  if (database.poolMode === 'transaction') await checkSessionDefaults(app, database);
}

/**
 * Refuses to start when a transaction pooler's sessions lack the statement bounds or jit=off:
 * every statement would run unbounded with nothing to show it. A database that does not answer
 * yet must not keep the service down (it starts, and turns ready, without one): the check then
 * runs in the background until it gets an answer, and a problem found then is logged as an error.
 */
async function checkSessionDefaults(app: FastifyInstance, database: Database): Promise<void> {
  const log = app.log;
  try {
    const problem = await database.sessionDefaultsProblem();
    if (problem) throw new Error(problem);
  } catch (error) {
    if (!isConnectionError(error)) throw error;
    log.warn('the database does not answer yet: the pooler\'s session defaults are checked once it does');
    let closing = false;
    app.addHook('onClose', async () => {
      closing = true;
    });
    const retry = async (): Promise<void> => {
      if (closing) return;
      try {
        const problem = await database.sessionDefaultsProblem();
        if (problem) log.error(problem);
      } catch (again) {
        if (isConnectionError(again)) setTimeout(() => void retry(), SESSION_DEFAULTS_RETRY_MS).unref();
        else log.error({ err: again }, 'could not check the pooler\'s session defaults');
      }
    };
    setTimeout(() => void retry(), SESSION_DEFAULTS_RETRY_MS).unref();
  }
}

export default fp(databasePlugin, { name: 'database' });
