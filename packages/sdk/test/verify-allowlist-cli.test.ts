import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWLIST_EXIT, parseVerifyAllowlistArgs, runVerifyAllowlist } from '../src/cli/allowlist-verdict.js';
import type { CliIo } from '../src/cli/draw-verdict.js';
import {
  createLifecycleWorld,
  disqualify,
  drawnAllowlistRaffle,
  finalizedWins,
  newTestDatabase,
  publishAllowlists,
  reroll,
  startDataPlane,
  type DataPlane,
  type LifecycleWorld,
} from './support/data-plane-service.js';

/**
 * raffle-verify-allowlist against a real data plane (behind the contract proxy): raffles through
 * the real lifecycle and the real builder, checked from the keyless public routes only.
 */

let dataPlane: DataPlane;
let world: LifecycleWorld;

beforeAll(async () => {
  const testDb = await newTestDatabase();
  world = await createLifecycleWorld(testDb.database);
  dataPlane = await startDataPlane(testDb);
});

afterAll(async () => {
  await dataPlane?.close();
  await dataPlane?.testDb.drop();
});

/** Runs the command with `fetch` (the real one unless given), capturing what it prints. */
async function run(args: string[], fetchImpl: typeof fetch = globalThis.fetch) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { fetch: fetchImpl, out: (t) => out.push(t), err: (t) => err.push(t) };
  const code = await runVerifyAllowlist([...args, '--base-url', dataPlane.baseUrl], {}, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A finalized public allowlist raffle with its version published. */
async function published(body: Parameters<typeof drawnAllowlistRaffle>[1]['body'] = {}, entrants = 7) {
  const drawn = await drawnAllowlistRaffle(world, { spots: 4, entrants, body: { visibility: 'public', ...body } });
  await world.finalize(drawn.raffle.id);
  await publishAllowlists(world);
  return drawn;
}

describe('raffle-verify-allowlist', () => {
  it('holds every check for a drawn raffle\'s public allowlist, and again for both versions after a reroll', async () => {
    const { raffle } = await published({ settings: { allowlistPublic: true, allowlistQuantity: 2 } });
    const first = await run([raffle.slug]);
    expect(first.code, first.out + first.err).toBe(ALLOWLIST_EXIT.valid);
    expect(first.out).toMatch(/^Allowlist of .+, version 1 of 1 \(root 0x[0-9a-f]{64}/m);
    expect(first.out).toMatch(/proofs\s+ok\s+all 4 leaves verify/);
    expect(first.out).toMatch(/root\s+ok\s+rebuilt from the leaves/);
    expect(first.out).toMatch(/leaf count\s+ok/);
    expect(first.out).toMatch(/quantities\s+ok\s+each a multiple of 2 per winner: 4 winners listed/);
    expect(first.out).toMatch(/winners\s+ok\s+4 listed \+ 0 without a wallet = 4; the draw proof has 4 holding a position/);
    expect(first.out).toMatch(/^VALID/m);

    const [win] = await finalizedWins(world, raffle.id);
    await disqualify(world, raffle.id, win!.winId);
    expect(await publishAllowlists(world)).toBe(1);
    // Disqualified, not yet rerolled: version 2 lists three, as the proof holds three.
    const afterDisqualify = await run([raffle.slug]);
    expect(afterDisqualify.code, afterDisqualify.out).toBe(ALLOWLIST_EXIT.valid);
    expect(afterDisqualify.out).toMatch(/winners\s+ok\s+3 listed \+ 0 without a wallet = 3; the draw proof has 3/);
    await reroll(world, raffle.id, win!.winId);
    expect(await publishAllowlists(world)).toBe(1);
    for (const version of ['1', '2', '3']) {
      const checked = await run([raffle.slug, '--version', version]);
      expect(checked.code, `version ${version}: ${checked.out}${checked.err}`).toBe(ALLOWLIST_EXIT.valid);
      expect(checked.out).toContain(`version ${version} of 3`);
    }
  });

  it('fails a leaf list that does not make the published root (a quantity changed in transit)', async () => {
    const { raffle } = await published({ settings: { allowlistPublic: true } });
    const tampering: typeof fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (!String(input).includes('/allowlist/leaves')) return response;
      const page = (await response.json()) as { data: Array<{ quantity: string }> };
      page.data[0]!.quantity = '5';
      return new Response(JSON.stringify(page), { status: response.status, headers: response.headers });
    };
    const result = await run([raffle.slug], tampering);
    expect(result.code).toBe(ALLOWLIST_EXIT.invalid);
    expect(result.out).toMatch(/proofs\s+FAIL\s+1 of 4 do not verify/);
    expect(result.out).toMatch(/root\s+FAIL\s+the leaves make 0x[0-9a-f]{64}, not the published/);
    expect(result.out).toMatch(/winners\s+FAIL\s+8 listed/);
    expect(result.out).toMatch(/^INVALID/m);
  });

  it('skips the winner count for a raffle with no draw proof (a collection raffle)', async () => {
    // First come, first served up to its spots: one entrant fewer than the spots, so all may enter.
    const { raffle } = await published({ mechanic: 'collection', settings: { allowlistPublic: true } }, 3);
    const result = await run([raffle.slug]);
    expect(result.code, result.out + result.err).toBe(ALLOWLIST_EXIT.valid);
    expect(result.out).toMatch(/winners\s+--\s+no draw proof/);
  });

  it('stops with exit 2 when the leaves are not public, nothing is published yet, or there is no such raffle or version', async () => {
    const hidden = await published();
    const notPublic = await run([hidden.raffle.slug]);
    expect(notPublic.code).toBe(ALLOWLIST_EXIT.usage);
    expect(notPublic.err).toMatch(/leaves of this allowlist are not public/);

    const { raffle: drawn } = await drawnAllowlistRaffle(world, { spots: 1, entrants: 2, body: { settings: { allowlistPublic: true } } });
    const unpublished = await run([drawn.slug]);
    expect(unpublished.code).toBe(ALLOWLIST_EXIT.usage);
    expect(unpublished.err).toMatch(/no published allowlist version yet \(status awaiting_finalize\)/);

    const missing = await run(['no-such-raffle']);
    expect(missing.code).toBe(ALLOWLIST_EXIT.usage);
    expect(missing.err).toMatch(/404 RAFFLE_NOT_FOUND/);
    const noVersion = await run([hidden.raffle.slug, '--version', '9']);
    expect(noVersion.err).toMatch(/has no version 9 \(versions: 1\)/);
  });
});

describe('its arguments', () => {
  it('takes one slug, an optional base URL (else RAFFLE_BASE_URL) and version', () => {
    expect(parseVerifyAllowlistArgs(['drop'], {})).toEqual({ slug: 'drop', baseUrl: 'http://localhost:3000' });
    expect(parseVerifyAllowlistArgs(['drop', '--version', '2'], { RAFFLE_BASE_URL: 'https://api.example' })).toEqual({ slug: 'drop', baseUrl: 'https://api.example', version: 2 });
    expect(parseVerifyAllowlistArgs(['--help'], {})).toEqual({ help: true });
    for (const argv of [[], ['a', 'b'], ['a/b'], ['drop', '--version', '0'], ['drop', '--version', 'x'], ['drop', '--base-url', 'ftp://x'], ['drop', '--nope']]) {
      expect(parseVerifyAllowlistArgs(argv, {}), argv.join(' ')).toHaveProperty('error');
    }
  });

  it('prints its help, saying what it checks and what it cannot', async () => {
    const out: string[] = [];
    expect(await runVerifyAllowlist(['--help'], {}, { fetch: globalThis.fetch, out: (t) => out.push(t), err: () => {} })).toBe(0);
    expect(out.join()).toMatch(/rebuilding the StandardMerkleTree/);
    expect(out.join()).toMatch(/draw proof names entries, not wallets/);
  });
});
