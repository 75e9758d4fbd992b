export { isDemoDatasetLoaded, loadDemoDataset } from './demo-dataset.js';
export type { DemoApiKey, DemoKeys, DemoKeyStatus, DemoRaffleRef } from './demo-keys.js';
export { formatDemoKeys } from './format-demo-keys.js';
export { planDemoDataset, type DemoPlan, type PlannedRaffle } from './plan/demo-plan.js';
export { DEFAULT_DEMO_BEACON, DEMO_BEACON_GENESIS, type DemoBeacon } from './plan/demo-beacon.js';
export { DEMO_CHAIN_ACCOUNTS, DEMO_CHAIN_NAME, DEMO_CONTRACTS, DEMO_NEBULA_PASS_HOLDERS, NEBULA_PASS_NAME } from './plan/demo-chain.js';
