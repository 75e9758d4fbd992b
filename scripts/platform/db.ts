export { createDatabase, runMigrations } from '@raffle/db';
export { DEMO_BEACON_GENESIS, DEMO_CHAIN_ACCOUNTS, DEMO_CONTRACTS, DEMO_NEBULA_PASS_HOLDERS, formatDemoKeys, NEBULA_PASS_NAME, isDemoDatasetLoaded, loadDemoDataset, planDemoDataset } from '@raffle/demo';
export type { DemoApiKey, DemoBeacon, DemoKeys } from '@raffle/demo';
