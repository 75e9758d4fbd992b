import { afterEach, describe, expect, it } from 'vitest';
import { checkRelays, QUICKNET, startLocalBeacon } from '../src/index.js';
import { startFakeRelay } from './support/fake-relay.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('checkRelays', () => {
  it("says which relays serve the pinned chain's info and why the others do not", async () => {
    const beacon = await startLocalBeacon({ period: 1, genesisTime: 1_700_000_000 });
    const other = await startLocalBeacon({ period: 1, genesisTime: 1_700_000_000 });
    servers.push(beacon, other);
    const otherInfo = (await (await fetch(`${other.url}/info`)).json()) as Record<string, unknown>;
    const impostor = await startFakeRelay(() => ({ status: 200, body: JSON.stringify({ ...otherInfo, hash: beacon.chain.chainHash }) }));
    servers.push(impostor);

    await expect(checkRelays(beacon.chain, [beacon.url, impostor.url, `${other.url}/`])).resolves.toEqual([
      { relay: beacon.url, servesPinnedChain: true },
      { relay: impostor.url, servesPinnedChain: false, reason: 'info differs from the pinned chain in public_key' },
      { relay: `${other.url}/`, servesPinnedChain: false, reason: 'HTTP 404' },
    ]);
    await expect(checkRelays(QUICKNET, [beacon.url])).resolves.toEqual([{ relay: beacon.url, servesPinnedChain: false, reason: 'HTTP 404' }]);
  });
});
