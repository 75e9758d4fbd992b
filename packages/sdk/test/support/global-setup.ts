// One migrated template database per run (the management tests clone it), and the local beacon
// the services under test pin, as their own test runs do.
export { setupDatabaseAndBeacon as default } from '@raffle/service-kit/testing';
