export { setupDatabaseAndBeacon as default } from '@raffle/service-kit/testing';
