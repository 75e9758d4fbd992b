export { createDatabase, runMigrations } from '@raffle/db';
export { formatDemoKeys, isDemoDatasetLoaded, loadDemoDataset, planDemoDataset } from '@raffle/demo';
export type { DemoApiKey, DemoKeys } from '@raffle/demo';
