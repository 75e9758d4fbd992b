// One migrated template database (each file clones it) and one local beacon the apps pin, per run.
export { setupDatabaseAndBeacon as default } from '@raffle/service-kit/testing';
