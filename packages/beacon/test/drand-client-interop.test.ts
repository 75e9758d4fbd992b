import { fetchBeacon, HttpCachingChain, HttpChainClient } from 'drand-client';
import { afterEach, describe, expect, it } from 'vitest';
import { QUICKNET, QUICKNET_BEACON_ID, QUICKNET_GROUP_HASH, startLocalBeacon, type BeaconChain, type LocalBeacon } from '../src/index.js';
import { servingRounds, startFakeRelay } from './support/fake-relay.js';
import { ALL_QUICKNET_ROUNDS } from '../../sdk/test/support/quicknet-rounds.js';

/**
 * drand's own JS client (which verifies every beacon it fetches) as a second, independent
 * implementation: if it accepts the local beacon's info and rounds, the local beacon speaks drand's
 * API and scheme, not merely what our client expects.
 */
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function localBeacon(): Promise<LocalBeacon> {
  const beacon = await startLocalBeacon({ period: 1, genesisTime: Math.floor(Date.now() / 1000) - 30 });
  servers.push(beacon);
  return beacon;
}

function drandClient(baseUrl: string, pinned: BeaconChain) {
  const options = {
    disableBeaconVerification: false,
    noCache: true,
    chainVerificationParams: { chainHash: pinned.chainHash, publicKey: pinned.publicKey },
  };
  return new HttpChainClient(new HttpCachingChain(baseUrl, options), options);
}

async function text(url: string) {
  return (await fetch(url)).text();
}

describe('drand-client against the local beacon', () => {
  it('fetches and verifies its rounds with the chain hash and key pinned', async () => {
    const beacon = await localBeacon();
    const round = await fetchBeacon(drandClient(`${beacon.url}/${beacon.chain.chainHash}`, beacon.chain), 12);
    expect(round.round).toBe(12);
  });

  it("refuses a round signed by another key behind the beacon's own info", async () => {
    const beacon = await localBeacon();
    const impostor = await localBeacon();
    const info = await text(`${beacon.url}/info`);
    const forged = await text(`${impostor.url}/public/12`);
    const relay = await startFakeRelay((path) => ({ status: 200, body: path === '/info' ? info : forged }));
    servers.push(relay);
    await expect(fetchBeacon(drandClient(relay.url, beacon.chain), 12)).rejects.toThrow(/beacon retrieved was not valid/);
  });

  it('refuses it when pinned to quicknet', async () => {
    const beacon = await localBeacon();
    await expect(fetchBeacon(drandClient(beacon.url, QUICKNET), 12)).rejects.toThrow(/chain info retrieved/);
  });
});

describe('drand-client against the quicknet fixtures', () => {
  it.each(ALL_QUICKNET_ROUNDS)('verifies round $round as our client does', async ({ round }) => {
    const info = JSON.stringify({
      public_key: QUICKNET.publicKey,
      period: QUICKNET.period,
      genesis_time: QUICKNET.genesisTime,
      hash: QUICKNET.chainHash,
      groupHash: QUICKNET_GROUP_HASH,
      schemeID: QUICKNET.scheme,
      metadata: { beaconID: QUICKNET_BEACON_ID },
    });
    const rounds = servingRounds(QUICKNET.chainHash, ALL_QUICKNET_ROUNDS);
    const relay = await startFakeRelay((path) => (path.endsWith('/info') ? { status: 200, body: info } : rounds(path)));
    servers.push(relay);
    await expect(fetchBeacon(drandClient(`${relay.url}/${QUICKNET.chainHash}`, QUICKNET), round)).resolves.toMatchObject({ round });
  });
});
