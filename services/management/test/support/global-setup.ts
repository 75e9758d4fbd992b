import { setupLocalBeacon, setupTemplateDatabase } from '@raffle/service-kit/testing';
import type { TestProject } from 'vitest/node';

/** One migrated template database (each file clones it) and one local beacon the apps pin, per run. */
export default async function setup(project: TestProject) {
  const dropTemplate = await setupTemplateDatabase(project);
  const stopBeacon = await setupLocalBeacon(project);
  return async () => {
    await stopBeacon();
    await dropTemplate();
  };
}
