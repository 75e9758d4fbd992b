import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { dropTemplateDatabase, prepareTemplateDatabase } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

/**
 * Migrates one template database per run (its name is random, so concurrent runs on one
 * machine never touch each other's); every test file then clones it.
 */
export default async function setup(project: TestProject) {
  const name = `raffle_template_${randomBytes(4).toString('hex')}`;
  await prepareTemplateDatabase(name);
  project.provide('templateDatabase', name);
  return async () => dropTemplateDatabase(name);
}
