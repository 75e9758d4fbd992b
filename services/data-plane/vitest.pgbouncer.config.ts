import { pooledServiceTestConfig } from '../../tooling/vitest/service-test-config.js';

// Entering, and entering again with the same Idempotency-Key: the data plane's heaviest writes.
export default pooledServiceTestConfig('data-plane', ['test/entry-actions.test.ts', 'test/idempotency.test.ts']);
