import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerifyDraw, EXIT, type CliIo } from '../src/cli/draw-verdict.js';
import { fetchAndVerifyDraw, fetchPlatformBeaconChain, PLATFORM_BEACON_NAME, QUICKNET, RaffleApiError, RaffleClient, verifyDraw } from '../src/index.js';
import { DEMO_BEACON_CHAIN as demoChain, DEMO_BEACON_ENV, loadDemo, newTestDatabase, startDataPlane, type DataPlane, type DemoKeys } from './support/data-plane-service.js';

let dataPlane: DataPlane;
let demo: DemoKeys;

beforeAll(async () => {
  const testDb = await newTestDatabase();
  demo = await loadDemo(testDb);
  dataPlane = await startDataPlane(testDb, DEMO_BEACON_ENV);
});

afterAll(async () => {
  await dataPlane?.close();
  await dataPlane?.testDb.drop();
});

const finalizedSlug = () => demo.raffles.finalizedDraw!.slug;
const aliceKey = () => demo.keys.find((k) => k.kind === 'personal' && k.status === 'active' && k.owner.handle === demo.users.alice.handle)!.apiKey;

describe('fetchAndVerifyDraw through the public route', () => {
  it('is VALID for the demo\'s finalized raffle, fetched by slug with no key', async () => {
    const seen: RequestInit[] = [];
    const result = await fetchAndVerifyDraw(finalizedSlug(), {
      baseUrl: dataPlane.baseUrl,
      trustPlatformBeacon: true,
      fetch: ((input: string, init: RequestInit) => {
        seen.push(init);
        return globalThis.fetch(input, init);
      }) as typeof fetch,
    });
    expect(result.url).toBe(`${dataPlane.baseUrl}/public/v1/raffles/${finalizedSlug()}/draw`);
    expect(result.verification).toMatchObject({ valid: true, problems: [], failures: [], recomputedWinners: result.proof.winners.map((w) => w.entryId) });
    expect(result.verification.beacon).toMatchObject({ chainHash: demoChain.chainHash, trusted: 'custom', name: PLATFORM_BEACON_NAME });
    expect(result.proof.winners.length).toBeGreaterThan(0);
    expect(new Headers(seen[0]!.headers).has('authorization')).toBe(false);
  });

  it('is INVALID for a proof tampered with on the way (one weight changed)', async () => {
    const tampering = (async (input: string, init: RequestInit) => {
      const response = await globalThis.fetch(input, init);
      // Only the proof is tampered with; the raffle's commitment record arrives as served.
      if (!String(input).endsWith('/draw')) return response;
      const proof = (await response.json()) as { entries: { weight: string }[] };
      proof.entries[0]!.weight = String(Number(proof.entries[0]!.weight) + 5);
      return new Response(JSON.stringify(proof), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const result = await fetchAndVerifyDraw(finalizedSlug(), { baseUrl: dataPlane.baseUrl, fetch: tampering });
    expect(result.verification.valid).toBe(false);
    expect(result.verification.problems).toContain('the entries do not match entriesDigest');
  });

  it('takes a full public URL, or a keyed /api/v1 URL with a key, and gives the same proof', async () => {
    const byUrl = await fetchAndVerifyDraw(`${dataPlane.baseUrl}/public/v1/raffles/${finalizedSlug()}/draw`);
    const keyed = await fetchAndVerifyDraw(`${dataPlane.baseUrl}/api/v1/raffles/${finalizedSlug()}`, { apiKey: aliceKey(), trustPlatformBeacon: true });
    expect(keyed.url).toBe(`${dataPlane.baseUrl}/api/v1/raffles/${finalizedSlug()}/draw`);
    expect(keyed.proof).toEqual(byUrl.proof);
    expect(keyed.verification.valid).toBe(true);
    await expect(fetchAndVerifyDraw(`${dataPlane.baseUrl}/api/v1/raffles/${finalizedSlug()}/draw`)).rejects.toThrow(/apiKey/);
  });

  it('matches the keyed proof the client reads', async () => {
    const client = new RaffleClient({ apiKey: aliceKey(), baseUrl: dataPlane.baseUrl });
    const proof = await client.raffles.drawProof(finalizedSlug());
    expect(verifyDraw(proof, { trustedChains: [QUICKNET, demoChain] }).valid).toBe(true);
    // The demo's draws mix in rounds of the platform's own beacon: with quicknet alone they are not trusted.
    expect(verifyDraw(proof).failures.map((f) => f.reason)).toContain('untrusted_chain');
    expect((await fetchAndVerifyDraw(finalizedSlug(), { baseUrl: dataPlane.baseUrl })).proof).toEqual(proof);
  });

  it('throws RaffleApiError 404 for an unknown slug and for a raffle not drawn yet', async () => {
    const missing = (await fetchAndVerifyDraw('no-such-raffle', { baseUrl: dataPlane.baseUrl }).catch((e: unknown) => e)) as RaffleApiError;
    expect(missing).toBeInstanceOf(RaffleApiError);
    expect(missing).toMatchObject({ status: 404, code: 'RAFFLE_NOT_FOUND' });
    const open = demo.raffles.openForEntry!.slug;
    await expect(fetchAndVerifyDraw(open, { baseUrl: dataPlane.baseUrl })).rejects.toMatchObject({ status: 404, code: 'DRAW_NOT_AVAILABLE' });
  });
});

describe('raffle-verify-draw against the data plane', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    const cli: CliIo = { fetch: globalThis.fetch, out: (t) => out.push(t), err: (t) => err.push(t) };
    return { cli, out, err };
  };

  it('exits 0 for a slug with RAFFLE_BASE_URL and no key', async () => {
    const run = io();
    expect(await runVerifyDraw([finalizedSlug(), '--trust-platform-beacon'], { RAFFLE_BASE_URL: dataPlane.baseUrl }, run.cli)).toBe(EXIT.valid);
    expect(run.out.join('\n')).toMatch(/^VALID/m);
    // Without the flag, the platform's own beacon is not trusted: only quicknet is.
    const untrusting = io();
    expect(await runVerifyDraw([finalizedSlug()], { RAFFLE_BASE_URL: dataPlane.baseUrl }, untrusting.cli)).toBe(EXIT.invalid);
    expect(untrusting.out.join('\n')).toContain('[untrusted_chain]');
  });

  it('exits 0 for a keyed URL with RAFFLE_API_KEY, and 2 for a raffle not drawn yet', async () => {
    const keyed = io();
    expect(await runVerifyDraw([`${dataPlane.baseUrl}/api/v1/raffles/${finalizedSlug()}/draw`, '--trust-platform-beacon'], { RAFFLE_API_KEY: aliceKey() }, keyed.cli)).toBe(EXIT.valid);
    const notDrawn = io();
    expect(await runVerifyDraw([demo.raffles.openForEntry!.slug, '--base-url', dataPlane.baseUrl], {}, notDrawn.cli)).toBe(EXIT.usage);
    expect(notDrawn.err.join('\n')).toContain('404 DRAW_NOT_AVAILABLE');
  });
});

describe('fetchPlatformBeaconChain', () => {
  it("returns the chain the data plane pins (here the demo's beacon), named as the platform's own", async () => {
    const chain = await fetchPlatformBeaconChain({ baseUrl: dataPlane.baseUrl });
    expect(chain).toEqual({ ...demoChain, name: PLATFORM_BEACON_NAME });
    expect(chain.chainHash).not.toBe(QUICKNET.chainHash);
  });

  it("returns the SDK's own pinned quicknet when the platform pins quicknet, whatever key its answer carries", async () => {
    const lying = (async () =>
      new Response(JSON.stringify({ ...QUICKNET, publicKey: 'ab'.repeat(96), quicknet: true }), { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
    expect(await fetchPlatformBeaconChain({ baseUrl: dataPlane.baseUrl, fetch: lying })).toBe(QUICKNET);
  });
});
