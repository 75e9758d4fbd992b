import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BeaconRoundPending,
  chainHashOf,
  createBeaconClient,
  LOCAL_BEACON_ID,
  QUICKNET,
  startLocalBeacon,
  timeOfRound,
  type LocalBeacon,
} from '../src/index.js';

const beacons: LocalBeacon[] = [];
afterEach(async () => {
  await Promise.all(beacons.splice(0).map((beacon) => beacon.close()));
});

/** A clock both the beacon and the client read, so rounds come out on cue without waiting. */
function testClock(start: number) {
  const clock = { t: start, now: () => clock.t };
  return clock;
}

async function localBeacon(options: Parameters<typeof startLocalBeacon>[0]) {
  const beacon = await startLocalBeacon(options);
  beacons.push(beacon);
  return beacon;
}

async function getJson(url: string) {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('startLocalBeacon', () => {
  it("serves drand's chain info, with a chain hash derived as drand derives it", async () => {
    const beacon = await localBeacon({ period: 1, genesisTime: 1_700_000_000 });
    const { status, body } = await getJson(`${beacon.url}/${beacon.chain.chainHash}/info`);
    expect(status).toBe(200);
    expect(body).toEqual({
      public_key: beacon.chain.publicKey,
      period: 1,
      genesis_time: 1_700_000_000,
      hash: beacon.chain.chainHash,
      groupHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      schemeID: 'bls-unchained-g1-rfc9380',
      metadata: { beaconID: LOCAL_BEACON_ID },
    });
    const { chainHash, ...hashed } = beacon.chain;
    expect(chainHashOf({ ...hashed, groupHash: body.groupHash as string, beaconId: LOCAL_BEACON_ID })).toBe(chainHash);
    expect(chainHash).not.toBe(QUICKNET.chainHash);
    // Relays serve their default chain without the hash prefix too.
    expect((await getJson(`${beacon.url}/info`)).body).toEqual(body);
    expect((await getJson(`${beacon.url}/chains`)).body).toEqual([chainHash]);
  });

  it('publishes a round once its time has come, one per period, and answers 404 before', async () => {
    const clock = testClock(1_700_000_000 + 4.5);
    const beacon = await localBeacon({ period: 1, genesisTime: 1_700_000_000, now: clock.now });
    const prefix = `${beacon.url}/${beacon.chain.chainHash}/public`;
    expect((await getJson(`${prefix}/latest`)).body).toMatchObject({ round: 5 });
    expect((await getJson(`${beacon.url}/public/latest`)).body).toMatchObject({ round: 5 });
    expect((await getJson(`${prefix}/6`)).status).toBe(404);
    clock.t += 1;
    expect((await getJson(`${prefix}/6`)).body).toMatchObject({ round: 6 });
    expect((await getJson(`${beacon.url}/public/6`)).body).toEqual((await getJson(`${prefix}/6`)).body);
    expect((await getJson(`${prefix}/0`)).status).toBe(404);
    expect((await getJson(`${beacon.url}/elsewhere`)).status).toBe(404);
  });

  it('answers 404 for latest before genesis', async () => {
    const beacon = await localBeacon({ period: 1, genesisTime: 1_700_000_000, now: () => 1_699_999_999 });
    expect((await getJson(`${beacon.url}/public/latest`)).status).toBe(404);
  });

  it("gives rounds the beacon client verifies against the beacon's own chain, exactly as quicknet's", async () => {
    const clock = testClock(1_700_000_000 + 9.2);
    const beacon = await localBeacon({ period: 1, genesisTime: 1_700_000_000, now: clock.now });
    const client = createBeaconClient({ chain: beacon.chain, relays: [beacon.url], now: clock.now });
    const round = await client.fetchRound(7);
    expect(round).toMatchObject({ chainHash: beacon.chain.chainHash, round: 7 });
    await expect(client.fetchLatest()).resolves.toMatchObject({ round: 10 });
    const pending = await client.fetchRound(12).catch((e: unknown) => e);
    expect(pending).toBeInstanceOf(BeaconRoundPending);
    expect(pending).toMatchObject({ retryAfterSeconds: Math.ceil(timeOfRound(beacon.chain, 12) - clock.t) });
  });

  it("is refused by a client pinned to quicknet, and its rounds by a client pinned to another local beacon", async () => {
    const clock = testClock(1_700_000_000 + 9.2);
    const beacon = await localBeacon({ period: 1, genesisTime: 1_700_000_000, now: clock.now });
    const other = await localBeacon({ period: 1, genesisTime: 1_700_000_000, now: clock.now });
    // Under another hash the relay has no such chain: 404, so the round counts as not published.
    await expect(createBeaconClient({ chain: QUICKNET, relays: [beacon.url] }).fetchRound(3)).rejects.toMatchObject({ name: 'BeaconUnavailable' });
    // Same URL layout, another key: the signature must not pass.
    const failures: string[] = [];
    const pinnedToOther = createBeaconClient({
      chain: { ...other.chain, chainHash: beacon.chain.chainHash },
      relays: [beacon.url],
      now: clock.now,
      onRelayFailure: (f) => failures.push(f.reason),
    });
    await expect(pinnedToOther.fetchRound(3)).rejects.toMatchObject({ name: 'BeaconUnavailable' });
    expect(failures).toEqual([expect.stringMatching(/signature does not verify/)]);
  });

  it('keeps its key and genesis in the key file, so a restart is the same chain', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-beacon-'));
    try {
      const keyFile = join(dir, 'nested', 'beacon-key.json');
      const first = await localBeacon({ period: 1, genesisTime: 1_700_000_000, keyFile });
      await first.close();
      beacons.splice(beacons.indexOf(first), 1);
      const second = await localBeacon({ period: 1, genesisTime: 1_800_000_000, keyFile });
      expect(second.chain).toEqual(first.chain);
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      const fresh = await localBeacon({ period: 1, genesisTime: 1_700_000_000 });
      expect(fresh.chain.publicKey).not.toBe(first.chain.publicKey);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
