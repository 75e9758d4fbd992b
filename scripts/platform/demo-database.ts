import { createDatabase, isDemoDatasetLoaded, loadDemoDataset, runMigrations, type DemoKeys } from './db.js';

/**
 * Brings a database to what `start` serves: the committed migrations, then the demo dataset
 * (loading it again changes nothing). Returns the demo's keys and ids.
 */
export async function prepareDemoDatabase(databaseUrl: string, say: (message: string) => void): Promise<DemoKeys> {
  await runMigrations(databaseUrl);
  say('migrations applied');
  const database = createDatabase({ url: databaseUrl, max: 1, applicationName: 'start-platform' });
  try {
    const present = await isDemoDatasetLoaded(database.db);
    const demo = await loadDemoDataset(database.db);
    say(present ? 'demo dataset already present, left as it is' : 'demo dataset loaded');
    return demo;
  } finally {
    await database.close();
  }
}
