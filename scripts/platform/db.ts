export { createDatabase, runMigrations } from '@raffle/db';
export { DEMO_BEACON_GENESIS, formatDemoKeys, isDemoDatasetLoaded, loadDemoDataset, planDemoDataset } from '@raffle/demo';
export type { DemoApiKey, DemoBeacon, DemoKeys } from '@raffle/demo';
