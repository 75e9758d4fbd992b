import { createDatabase, isDemoDatasetLoaded, loadDemoDataset, runMigrations, type DemoBeacon, type DemoKeys } from './db.js';

/**
 * Brings a database to what `start` serves: the committed migrations, then the demo dataset
 * (loading it again changes nothing), its raffles closed and drawn on `beacon`'s chain (the local
 * beacon's identity; without one, the demo's own public key). Returns the demo's keys and ids.
 */
export async function prepareDemoDatabase(databaseUrl: string, say: (message: string) => void, beacon?: DemoBeacon): Promise<DemoKeys> {
  await runMigrations(databaseUrl);
  say('migrations applied');
  const database = createDatabase({ url: databaseUrl, max: 1, applicationName: 'start-platform' });
  try {
    const present = await isDemoDatasetLoaded(database.db);
    const demo = await loadDemoDataset(database.db, beacon);
    say(present ? 'demo dataset already present, left as it is' : 'demo dataset loaded');
    return demo;
  } finally {
    await database.close();
  }
}
