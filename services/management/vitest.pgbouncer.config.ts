import { pooledServiceTestConfig } from '../../tooling/vitest/service-test-config.js';

// The raffle lifecycle through HTTP, and management with a data plane on one database.
export default pooledServiceTestConfig('management', ['test/dashboard-raffles.test.ts', 'test/data-plane.test.ts']);
