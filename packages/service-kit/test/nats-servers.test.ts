import { describe, expect, it } from 'vitest';
import { natsServers } from '../src/nats-servers.js';

describe('NATS_URL as a server list', () => {
  it('splits a comma-separated list and trims it; one URL stays one', () => {
    expect(natsServers('nats://a:4222, nats://b:4222 ,nats://c:4222')).toEqual(['nats://a:4222', 'nats://b:4222', 'nats://c:4222']);
    expect(natsServers('nats://127.0.0.1:4222')).toEqual(['nats://127.0.0.1:4222']);
    expect(() => natsServers(' , ')).toThrow(/no server/);
  });
});
