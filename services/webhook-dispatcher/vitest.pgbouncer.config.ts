import { pooledServiceTestConfig } from '../../tooling/vitest/service-test-config.js';

// The outbox relay (LISTEN on the direct URL, and polling without one) and the whole pipeline to an endpoint.
export default pooledServiceTestConfig('webhook-dispatcher', ['test/relay.test.ts', 'test/relay-polling.test.ts', 'test/pipeline.test.ts']);
