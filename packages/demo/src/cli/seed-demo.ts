import { createDatabase } from '@raffle/db';
import { isDemoDatasetLoaded, loadDemoDataset } from '../demo-dataset.js';
import { formatDemoKeys } from '../format-demo-keys.js';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set: it names the migrated Postgres database to load the demo dataset into.');
  process.exit(2);
}
const database = createDatabase({ url, max: 1, applicationName: 'seed-demo' });
try {
  const alreadyLoaded = await isDemoDatasetLoaded(database.db);
  const demo = await loadDemoDataset(database.db);
  console.log(alreadyLoaded ? 'demo dataset already present; nothing changed' : 'demo dataset loaded');
  console.log(formatDemoKeys(demo));
} finally {
  await database.close();
}
