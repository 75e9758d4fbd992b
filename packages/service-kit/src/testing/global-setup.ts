import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { dropTemplateDatabase, prepareTemplateDatabase, startRunPgBouncer } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
    /** The run's PgBouncer (transaction mode) the test databases are reached through; 0 when none. */
    pgbouncerPort: number;
  }
}

/**
 * Migrates one template database per run (its name is random, so concurrent runs on one
 * machine never touch each other's); every test file then clones it. A project whose env sets
 * TEST_DATABASE_POOLER=pgbouncer (the `*-pgbouncer` projects) also gets one PgBouncer in
 * transaction mode for the run, and its test databases are handed out through it (database.ts).
 */
export default async function setup(project: TestProject) {
  const name = `raffle_template_${randomBytes(4).toString('hex')}`;
  await prepareTemplateDatabase(name);
  project.provide('templateDatabase', name);
  const pooler = poolerOf(project) === 'pgbouncer' ? await startRunPgBouncer() : null;
  project.provide('pgbouncerPort', pooler?.port ?? 0);
  return async () => {
    await pooler?.destroy();
    await dropTemplateDatabase(name);
  };
}

function poolerOf(project: TestProject): string | undefined {
  const env = project.config.env as Record<string, string | undefined> | undefined;
  return env?.TEST_DATABASE_POOLER ?? process.env.TEST_DATABASE_POOLER;
}
