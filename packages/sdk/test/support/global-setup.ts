// One migrated template database per run; the management tests clone it (createTestDatabase).
export { setupTemplateDatabase as default } from '@raffle/service-kit/testing';
