export { createTestDatabase, type TestDatabase } from '@raffle/service-kit/testing';
