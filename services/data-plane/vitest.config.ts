import { serviceTestConfig } from '../../tooling/vitest/service-test-config.js';

export default serviceTestConfig('data-plane');
