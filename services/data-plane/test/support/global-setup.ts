import { prepareTemplateDatabase } from './database.js';

/** Migrates a template database once; every test file then clones it (fast, isolated). */
export default async function setup() {
  await prepareTemplateDatabase();
}
