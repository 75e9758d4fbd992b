import { afterEach, describe, expect, it } from 'vitest';
import { BeaconRoundPending, BeaconUnavailable, createBeaconClient, QUICKNET, timeOfRound, type RelayFailure } from '../src/index.js';
import { generateSecretKey, signRound } from '@raffle/sdk';
import { servingRounds, startFakeRelay, goneRelayUrl, type RelayBehaviour } from './support/fake-relay.js';
import { ALL_QUICKNET_ROUNDS, QUICKNET_ROUNDS } from '../../sdk/test/support/quicknet-rounds.js';

const { round1000, round42 } = QUICKNET_ROUNDS;
const relays: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

async function relay(behaviour: RelayBehaviour) {
  const started = await startFakeRelay(behaviour);
  relays.push(started);
  return started;
}

const goodRelay = () => relay(servingRounds(QUICKNET.chainHash, ALL_QUICKNET_ROUNDS));
const answering = (round: object): RelayBehaviour => () => ({ status: 200, body: JSON.stringify(round) });

describe('createBeaconClient on quicknet', () => {
  it.each(ALL_QUICKNET_ROUNDS)('fetches and verifies published round $round', async ({ round, signature, randomness }) => {
    const good = await goodRelay();
    const client = createBeaconClient({ chain: QUICKNET, relays: [good.url] });
    await expect(client.fetchRound(round)).resolves.toEqual({ chainHash: QUICKNET.chainHash, round, signature, randomness });
    expect(good.paths).toEqual([`/${QUICKNET.chainHash}/public/${round}`]);
  });

  it('accepts an answer without randomness (the v2 shape) and derives it', async () => {
    const good = await relay(answering({ round: 1000, signature: round1000.signature }));
    const client = createBeaconClient({ chain: QUICKNET, relays: [good.url] });
    await expect(client.fetchRound(1000)).resolves.toMatchObject({ randomness: round1000.randomness });
  });

  const localSignatureOf1000 = signRound(generateSecretKey(), 1000);
  const refusals: [string, () => Promise<{ url: string }>, RegExp][] = [
    ['garbage', () => relay(() => ({ status: 200, body: '<html>gateway</html>' })), /not JSON/],
    ['JSON that is not a round', () => relay(answering({ hello: 'world' })), /not a beacon round/],
    ['a 500', () => relay(() => ({ status: 500, body: '{}' })), /HTTP 500/],
    ['no answer within the timeout', () => relay(() => 'hang'), /no answer within 300 ms/],
    ['a refused connection', async () => ({ url: await goneRelayUrl() }), /ECONNREFUSED/],
    ['a tampered signature', () => relay(answering({ ...round1000, signature: round1000.signature.replace(/^b4/, 'b5') })), /signature does not verify/],
    ["another round's real signature claimed as round 1000", () => relay(answering({ ...round42, round: 1000 })), /signature does not verify/],
    ['another round than the one asked for', () => relay(answering(round42)), /answered round 42 for round 1000/],
    ["another chain's signature of round 1000 under quicknet's hash", () => relay(answering({ round: 1000, signature: localSignatureOf1000 })), /signature does not verify/],
    ['randomness that is not sha256(signature)', () => relay(answering({ ...round1000, randomness: round42.randomness })), /randomness is not sha256/],
  ];

  it.each(refusals)('falls over to the next relay on %s', async (_, startBad, reason) => {
    const bad = await startBad();
    const good = await goodRelay();
    const failures: RelayFailure[] = [];
    const client = createBeaconClient({ chain: QUICKNET, relays: [bad.url, good.url], timeoutMs: 300, onRelayFailure: (f) => failures.push(f) });
    await expect(client.fetchRound(1000)).resolves.toMatchObject({ round: 1000, signature: round1000.signature });
    expect(good.paths).toHaveLength(1);
    expect(failures).toEqual([{ relay: bad.url, reason: expect.stringMatching(reason) }]);
  });

  it('names every relay and its reason when none gives a verified round', async () => {
    const garbage = await relay(() => ({ status: 200, body: 'nope' }));
    const tampered = await relay(answering({ ...round42, round: 1000 }));
    const refused = await goneRelayUrl();
    const client = createBeaconClient({ chain: QUICKNET, relays: [garbage.url, tampered.url, refused] });
    const error = await client.fetchRound(1000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BeaconUnavailable);
    expect((error as BeaconUnavailable).failures.map((f) => f.relay)).toEqual([garbage.url, tampered.url, refused]);
    expect((error as BeaconUnavailable).failures[1]?.reason).toMatch(/signature does not verify/);
  });

  it('fetches the latest round from the first relay that has a verified one', async () => {
    const down = await goneRelayUrl();
    const good = await goodRelay();
    const client = createBeaconClient({ chain: QUICKNET, relays: [down, good.url] });
    await expect(client.fetchLatest()).resolves.toMatchObject({ round: 12040883 });
  });
});

describe('a round that is not published yet', () => {
  it('is pending by the clock alone, with the seconds until it is due, and no relay is asked', async () => {
    const good = await goodRelay();
    const now = timeOfRound(QUICKNET, 2000) - 10.5;
    const client = createBeaconClient({ chain: QUICKNET, relays: [good.url], now: () => now });
    const error = await client.fetchRound(2000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BeaconRoundPending);
    expect(error).toMatchObject({ round: 2000, retryAfterSeconds: 11 });
    expect(good.paths).toEqual([]);
  });

  it('is pending when it is due but every relay still answers 404, for one period more', async () => {
    const good = await goodRelay();
    const client = createBeaconClient({ chain: QUICKNET, relays: [good.url, good.url], now: () => timeOfRound(QUICKNET, 2000) + 0.4 });
    await expect(client.fetchRound(2000)).rejects.toMatchObject({ name: 'BeaconRoundPending', retryAfterSeconds: QUICKNET.period });
    expect(good.paths).toHaveLength(2);
  });

  it('is unavailable, not pending, when relays still answer 404 long after it was due', async () => {
    const good = await goodRelay();
    const client = createBeaconClient({ chain: QUICKNET, relays: [good.url], publicationGraceSeconds: 60 });
    await expect(client.fetchRound(2000)).rejects.toBeInstanceOf(BeaconUnavailable);
  });
});
