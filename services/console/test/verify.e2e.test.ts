import { generateSecretKey, publicKeyOf, QUICKNET, signRound, type BeaconChain, type DrawProof } from '@raffle/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICKNET_ROUNDS } from '../../../packages/sdk/test/support/quicknet-rounds.js';
import { beaconBlock, honestDrandProof, honestProof, localChain, localDrandProof } from '../../../packages/sdk/test/support/draw-proofs.js';
import { startConsolePlatform } from './support/console-platform.js';
import { checkPage, clearPageProblems } from './support/page-checks.js';

type Platform = Awaited<ReturnType<typeof startConsolePlatform>>;

let platform: Platform;
let slug: string;
let served: DrawProof;

beforeAll(async () => {
  platform = await startConsolePlatform();
  slug = platform.demo.raffles.finalizedDraw!.slug;
  const response = await fetch(`${platform.dataPlaneUrl}/public/v1/raffles/${slug}/draw`);
  expect(response.status).toBe(200);
  served = (await response.json()) as DrawProof;
}, 240_000);

afterAll(async () => {
  await platform?.stop();
});

/** The commitment record a raffle drawn as `proof` would have published: its algorithm and, for a beacon draw, its round. */
const recordOf = (proof: DrawProof) => ({
  slug,
  drawCommitment: proof.drawCommitment,
  publishedAt: '2025-06-01T00:00:00.000Z',
  ...(proof.beacon ? { drawAlgorithm: proof.algorithm, beaconRound: proof.beacon.round, beaconChainHash: proof.beacon.chainHash } : {}),
});

/**
 * A signed-out visitor: a fresh page that never went through sign-in. `serve` answers the proof
 * route instead of the platform (with the commitment record such a draw would have published, or
 * `record` when given), and `platformChain` the route that names the platform's beacon.
 */
async function openVerify(path: string, tamper?: (proof: DrawProof) => void, serve?: DrawProof, platformChain?: BeaconChain, record?: object): Promise<Page> {
  const page = await platform.newPage();
  if (serve) await page.route('**/public/v1/raffles/*/draw', (route) => route.fulfill({ json: serve }));
  if (serve || record) await page.route('**/public/v1/raffles/*/commitment', (route) => route.fulfill({ json: record ?? recordOf(serve!) }));
  if (platformChain) await page.route('**/public/v1/beacon', (route) => route.fulfill({ json: { ...platformChain, quicknet: false } }));
  if (tamper) {
    await page.route('**/public/v1/raffles/*/draw', async (route) => {
      const response = await route.fetch();
      const proof = (await response.json()) as DrawProof;
      tamper(proof);
      await route.fulfill({ response, json: proof });
    });
  }
  await page.goto(`${platform.consoleUrl}${path}`);
  await page.getByRole('heading', { level: 1, name: 'Verify a draw' }).waitFor();
  return page;
}

/** The downgrade of issue 34: the same seed and entries, no beacon, winners ranked from the seed alone. */
const seedOnlyOf = (proof: DrawProof): DrawProof => honestProof(proof.seed, proof.entries, proof.spots);

const verdictOf = (page: Page) => page.getByTestId('verdict').textContent({ timeout: 20_000 });

describe('the public verification page', () => {
  it('verifies a finalized public draw signed out and shows what it checked', async () => {
    const page = await openVerify(`/verify/${slug}`);
    expect(await verdictOf(page)).toMatch(/^VALID/);
    expect(await page.getByTestId('proof-commitment').textContent()).toBe(served.drawCommitment);
    expect(await page.getByTestId('proof-seed').textContent()).toBe(served.seed);
    expect(await page.getByTestId('proof-digest').textContent()).toBe(served.entriesDigest);
    expect(await page.getByTestId('proof-spots').textContent()).toBe(String(served.spots));
    const rows = page.getByTestId('proof-winners').locator('tbody tr');
    expect(await rows.count()).toBe(served.winners.length);
    const first = [...served.winners].sort((a, b) => a.position - b.position)[0]!;
    expect(await rows.first().textContent()).toContain(first.entryId);
    // No session was ever created: the page did not send the visitor to sign in.
    expect(new URL(page.url()).pathname).toBe(`/verify/${slug}`);
    await checkPage(page, 'verify-valid');
    await page.close();
  }, 120_000);

  it('says INVALID, with the reason, when a winner in the proof was changed', async () => {
    const page = await openVerify(`/verify/${slug}`, (proof) => {
      const winners = new Set(proof.winners.map((w) => w.entryId));
      const loser = proof.entries.find((e) => !winners.has(e.id))!;
      proof.winners[0] = { ...proof.winners[0]!, entryId: loser.id };
    });
    const verdict = await verdictOf(page);
    expect(verdict).toMatch(/^INVALID/);
    expect(verdict).toMatch(/position 1: the proof says/);
    await checkPage(page, 'verify-invalid');
    await page.close();
  }, 120_000);

  it('says INVALID when the revealed seed does not match the commitment', async () => {
    const page = await openVerify(`/verify/${slug}`, (proof) => {
      proof.seed = proof.seed.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    });
    const verdict = await verdictOf(page);
    expect(verdict).toMatch(/^INVALID/);
    expect(verdict).toContain('sha256(seed) does not match drawCommitment');
    await page.close();
  }, 120_000);

  it('says INVALID, in words, for a proof that leaves a winner out or gives a loser an infinite weight', async () => {
    const short = await openVerify(`/verify/${slug}`, (proof) => {
      proof.winners.pop();
    });
    const shortVerdict = await verdictOf(short);
    expect(shortVerdict).toMatch(/^INVALID/);
    expect(shortVerdict).toContain(`the proof lists ${served.winners.length - 1} `);
    expect(shortVerdict).toContain(`${served.spots} spots among ${served.entries.length} entries make ${served.winners.length}`);
    await short.close();

    const infinite = await openVerify(`/verify/${slug}`, (proof) => {
      const winners = new Set(proof.winners.map((w) => w.entryId));
      proof.entries.find((e) => !winners.has(e.id))!.weight = 'Infinity';
    });
    const infiniteVerdict = await verdictOf(infinite);
    expect(infiniteVerdict).toMatch(/^INVALID/);
    expect(infiniteVerdict).toMatch(/weight "Infinity" of entry "ent_\w+" is not a plain positive decimal/);
    await infinite.close();
  }, 120_000);

  it('lists the winners disqualified and rerolled after the draw, with times, and checks the reroll against the draw order', async () => {
    const page = await openVerify(`/verify/${slug}`);
    expect(await verdictOf(page)).toMatch(/^VALID/);
    const changes = page.getByTestId('proof-winner-changes').locator('tbody tr');
    expect(await changes.count()).toBe(served.disqualifiedWinners!.length + served.rerolledWinners!.length);
    expect(await changes.first().textContent()).toContain(served.disqualifiedWinners![0]!.entryId);
    expect(await page.locator('[data-testid="draw-checks"] li[data-check="winner changes"]').textContent()).toMatch(/^Passed winner changes: 1 disqualified after the draw, 1 position rerolled, each to an entry below the draw's winners/);
    await page.close();
  }, 120_000);

  it("refuses the demo's beacon draw relabelled es-hmac-sha256-v1 and re-ranked from the seed alone: its record binds the beacon draw", async () => {
    const downgraded = seedOnlyOf(served);
    const page = await openVerify(`/verify/${slug}`, (proof) => Object.assign(proof, downgraded, { beacon: undefined, closedAt: undefined }));
    const verdict = await verdictOf(page);
    expect(verdict).toMatch(/^INVALID/);
    expect(verdict).toContain("the raffle's record binds its commitment to es-hmac-sha256-drand-v1, but the proof says es-hmac-sha256-v1");
    expect(await page.locator('[data-testid="draw-checks"] li[data-check="public record"]').textContent()).toMatch(/^Failed public record: .*the proof says es-hmac-sha256-v1/);
    await checkPage(page, 'verify-downgraded');
    await page.close();
  }, 120_000);

  it('shows a seed-only draw whose record binds nothing (closed before beacon rounds) as VALID BUT PREDICTABLE, never a plain VALID', async () => {
    const legacy = seedOnlyOf(served);
    const page = await openVerify(`/verify/${slug}`, undefined, legacy, undefined, { slug, drawCommitment: legacy.drawCommitment, publishedAt: '2024-01-01T00:00:00.000Z' });
    const verdict = await verdictOf(page);
    expect(verdict).toMatch(/^VALID BUT PREDICTABLE: .*whoever held the seed \(the platform's operator\) could rank every entry while entries were open/);
    await checkPage(page, 'verify-seed-only');
    await page.close();
  }, 120_000);

  it('explains an unknown slug instead of failing', async () => {
    const page = await openVerify('/verify/no-such-raffle-anywhere');
    await page.getByText('No drawn public raffle with this slug.').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('verdict').count()).toBe(0);
    // The browser logs the 404 as a console error: expected for an unknown slug.
    clearPageProblems(page);
    await checkPage(page, 'verify-not-found');
    await page.close();
  }, 120_000);
});

/**
 * Proofs of es-hmac-sha256-drand-v1 over the demo raffle's own entries and seed, served in place of
 * the platform's answer (the platform's draw is switching to the beacon in parallel): one on a
 * local beacon of our own, as the platform's embedded beacon signs, one on a real quicknet round,
 * and forgeries of each.
 */
describe('the public verification page on a draw with a beacon round', () => {
  const local = localChain(1_750_000_000, 1);
  // Quicknet round 1000 is due 2023-08-23 15:59:24 UTC; a close at 15:59:19 (round 998) draws with it.
  const { round, signature } = QUICKNET_ROUNDS.round1000;
  const localProof = () => localDrandProof(local, served.seed, served.entries, served.spots, '2025-06-15T19:50:41Z');
  const quicknetProof = () => honestDrandProof(served.seed, served.entries, served.spots, '2023-08-23T15:59:19Z', beaconBlock(QUICKNET, round, signature));
  const checkOf = (page: Page, check: string) => page.locator(`[data-testid="draw-checks"] li[data-check="${check}"]`).textContent();

  it("verifies a local beacon's draw, names the round, its time and the chain, and says it is not the League of Entropy", async () => {
    const proof = localProof();
    const page = await openVerify(`/verify/${slug}`, undefined, proof, local.chain);
    expect(await verdictOf(page)).toMatch(/^VALID: the winners follow from the committed seed, the published entries and beacon round \d+, published after entries closed\. The beacon is not the League of Entropy/);
    expect(await page.getByTestId('beacon-round').textContent()).toBe(String(proof.beacon!.round));
    const due = new Date((local.chain.genesisTime + (proof.beacon!.round - 1) * local.chain.period) * 1000).toISOString().replace('T', ' ').replace('.000Z', ' UTC');
    expect(await page.getByTestId('beacon-round-time').textContent()).toBe(due);
    expect(await page.getByTestId('beacon-closed-at').textContent()).toBe('2025-06-15 19:50:41 UTC');
    expect(await page.getByTestId('beacon-chain').textContent()).toBe(`a local beacon run by this platform (chain ${local.chain.chainHash.slice(0, 16)}…), not the League of Entropy`);
    expect(await page.getByTestId('beacon-notice').textContent()).toMatch(/^Not the League of Entropy\. .*trusted here only because this platform says so/);
    for (const check of ['beacon chain', 'beacon round', 'beacon signature', 'beacon randomness', 'commitment', 'entries', 'winners']) {
      expect(await checkOf(page, check)).toMatch(/^Passed /);
    }
    expect(await checkOf(page, 'beacon signature')).toContain(`the chain's own public key signed round ${proof.beacon!.round}`);
    await checkPage(page, 'verify-beacon-local');
    await page.close();
  }, 120_000);

  it('lists the blocks a token-gated draw re-read its requirements at, and says balances need an archive node', async () => {
    const block = { chain: 'anvil', chainId: 31337, number: '1234', hash: `0x${'ab'.repeat(32)}`, timestamp: '2025-06-15T19:50:42.000Z' };
    const page = await openVerify(`/verify/${slug}`, undefined, { ...localProof(), eligibilityBlocks: [block] }, local.chain);
    expect(await verdictOf(page)).toMatch(/^VALID/);
    const listed = await page.getByTestId('eligibility-blocks').textContent();
    expect(listed).toContain('anvil (chain id 31337): block 1234');
    expect(listed).toContain(block.hash);
    expect(await checkOf(page, 'eligibility blocks')).toMatch(/^Passed .*archive node/);
    await checkPage(page, 'verify-eligibility-blocks');
    await page.close();
  }, 120_000);

  it("refuses a draw signed by a beacon that is neither quicknet nor the one this platform pins (GET /public/v1/beacon): a proof's own chain is never believed", async () => {
    const page = await openVerify(`/verify/${slug}`, undefined, localProof());
    expect(await verdictOf(page)).toMatch(/^INVALID/);
    expect(await checkOf(page, 'beacon chain')).toMatch(/^Failed .*is not one this verifier trusts/);
    expect(await page.getByTestId('beacon-notice').count()).toBe(0);
    await checkPage(page, 'verify-beacon-untrusted');
    await page.close();
  }, 120_000);

  it("verifies a draw on a real quicknet round and names drand's League of Entropy, with no caveat", async () => {
    const page = await openVerify(`/verify/${slug}`, undefined, quicknetProof());
    expect(await verdictOf(page)).toMatch(/^VALID: .*beacon round 1000, published after entries closed\.$/);
    expect(await page.getByTestId('beacon-chain').textContent()).toBe("drand's quicknet (the League of Entropy's public beacon)");
    expect(await page.getByTestId('beacon-round-time').textContent()).toBe('2023-08-23 15:59:24 UTC');
    expect(await page.getByTestId('beacon-notice').count()).toBe(0);
    expect(await checkOf(page, 'beacon round')).toContain(
      "the operator says entries closed 2023-08-23 15:59:19 UTC, during round 998; if so, nobody could know this round's value while they were open. closedAt is the operator's claim: the raffle's record has named round 1000 since the close",
    );
    await page.close();
  }, 120_000);

  it("refuses a forged chain: quicknet's hash with the forger's own key and signature", async () => {
    const forger = generateSecretKey();
    const forged = honestDrandProof(served.seed, served.entries, served.spots, '2023-08-23T15:59:19Z', {
      ...beaconBlock(QUICKNET, round, signRound(forger, round)),
      publicKey: publicKeyOf(forger),
    });
    const page = await openVerify(`/verify/${slug}`, undefined, forged);
    const verdict = await verdictOf(page);
    expect(verdict).toMatch(/^INVALID/);
    expect(verdict).toContain(`the proof's publicKey for chain ${QUICKNET.chainHash} is not the trusted chain's`);
    expect(verdict).toContain("the signature is not the trusted chain's signature of round 1000");
    expect(await page.getByTestId('beacon-chain').textContent()).toMatch(/not trusted here \(it names drand's quicknet but carries another key\)$/);
    expect(await checkOf(page, 'beacon chain')).toMatch(/^Failed beacon chain: claims to be drand's quicknet/);
    expect(await checkOf(page, 'beacon signature')).toMatch(/^Failed /);
    expect(await page.getByTestId('beacon-notice').count()).toBe(0);
    await checkPage(page, 'verify-beacon-forged');
    await page.close();
  }, 120_000);

  it("refuses a local beacon's draw whose round was re-signed with another key, or moved away from the close", async () => {
    const proof = localProof();
    const resigned = { ...proof, beacon: { ...proof.beacon!, signature: signRound(generateSecretKey(), proof.beacon!.round) } };
    const page = await openVerify(`/verify/${slug}`, undefined, resigned, local.chain);
    expect(await verdictOf(page)).toMatch(/^INVALID/);
    expect(await checkOf(page, 'beacon signature')).toMatch(/^Failed .*did not sign round/);
    await page.close();

    const moved = await openVerify(`/verify/${slug}`, undefined, { ...proof, closedAt: '2025-06-15T19:50:30Z' }, local.chain);
    expect(await verdictOf(moved)).toMatch(/^INVALID/);
    expect(await checkOf(moved, 'beacon round')).toMatch(/^Failed .*but entries closed 2025-06-15 19:50:30 UTC, which fixes round/);
    await moved.close();
  }, 120_000);
});
