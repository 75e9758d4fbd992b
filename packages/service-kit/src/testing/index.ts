export { createTestDatabase, dropTemplateDatabase, prepareTemplateDatabase, startRunPgBouncer, type TestDatabase } from './database.js';
export { startPrivatePgBouncer, type PrivatePgBouncer, type PrivatePgBouncerOptions } from './private-pgbouncer.js';
export { default as setupTemplateDatabase } from './global-setup.js';
export { localBeaconChain, localBeaconEnv, localBeaconRounds, setupDatabaseAndBeacon, setupLocalBeacon, TEST_BEACON_PERIOD_SECONDS } from './local-beacon.js';
export { beaconDrawProblems } from './beacon-draw-proof.js';
export { localChainEnv, localChainInfo, localChainReader, setupLocalChain } from './local-chain.js';
export { csvCellReadBack, csvObjects, parseStrictCsv, type ParsedCsv } from './strict-csv.js';
export { BULK_FORMULA_WALLET, BULK_STATUS_REASON, insertBulkEntries } from './bulk-entries.js';
