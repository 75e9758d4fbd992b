import type { DrawProof } from '@raffle/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** A signed-out visitor: a fresh page that never went through sign-in. */
async function openVerify(path: string, tamper?: (proof: DrawProof) => void): Promise<Page> {
  const page = await platform.newPage();
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
