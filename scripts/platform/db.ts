export { createDatabase, formatDemoKeys, isDemoDatasetLoaded, loadDemoDataset, runMigrations } from '@raffle/db';
export type { DemoApiKey, DemoKeys } from '@raffle/db';
