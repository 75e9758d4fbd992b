import { buildAllowlistTree, proofFromDump } from '@raffle/domain';
import { isAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import type { AllowlistChildResult } from '../src/allowlist-child.js';
import { selectedWinRows, winnerWallet } from '../src/allowlist-dataset.js';
import { proofScenarios, type ProofLoadResult } from '../src/allowlist-proofs.js';
import { buildMedians, renderAllowlistMarkdown, type BuildResults } from '../src/allowlist-report.js';
import type { WrkResult } from '../src/wrk.js';

describe('the allowlist benchmark dataset', () => {
  it('gives every winner a wallet of its own, a lowercase address', () => {
    const wallets = Array.from({ length: 20_000 }, (_, i) => winnerWallet(i));
    expect(new Set(wallets).size).toBe(wallets.length);
    for (const wallet of wallets.slice(0, 100)) {
      expect(isAddress(wallet, { strict: true })).toBe(true);
      expect(wallet).toBe(wallet.toLowerCase());
    }
  });

  it('stores the draw as selected wins at positions 1..n, each with its entry, user and wallet, rendered', () => {
    const raffle = { id: 'raf_1', slug: 'bench-allowlist-x-gtd', title: 'x', mechanic: 'raffle', allocationType: 'allowlist_gtd', chain: 'ethereum', workspaceId: 'wks_1' };
    const entries = [0, 1, 2].map((i) => ({ id: `ent_${i}`, userId: `usr_${i}`, walletSnapshot: winnerWallet(i) }));
    const wins = [...selectedWinRows(raffle, entries, new Date('2026-01-01T00:00:00Z'))];
    expect(wins.map((w) => [w.position, w.entryId, w.userId, w.walletSnapshot, w.status])).toEqual(entries.map((e, i) => [i + 1, e.id, e.userId, e.walletSnapshot, 'selected']));
    expect(new Set(wins.map((w) => w.id)).size).toBe(3);
    expect(JSON.parse(wins[0]!.winJson)).toMatchObject({ status: 'selected', walletSnapshot: winnerWallet(0), raffle: { allocationType: 'allowlist_gtd' } });
  });
});

describe("the proof scenarios' probe", () => {
  const leaves = [0, 1, 2, 3, 4].map((i) => ({ address: winnerWallet(i), quantity: 1 }));
  const tree = buildAllowlistTree(leaves);
  const [bare, proof, page] = proofScenarios({ raffle: { id: 'raf_1', slug: 'gtd' }, workspaceId: 'wks_1', workspaceKey: 'svc_w_x', root: tree.root, leaves: 5 });

  it('targets the data plane routes of the raffle, rotating winners only for the personal proof', () => {
    expect(bare!.server).toBe('bare');
    expect([proof!.path, proof!.rotatingKeys]).toEqual(['/api/v1/raffles/gtd/allowlist/proof', true]);
    expect([page!.path, page!.headers]).toEqual(['/api/v1/workspaces/wks_1/raffles/raf_1/allowlist/leaves?limit=5', { authorization: 'Bearer svc_w_x' }]);
  });

  it('accepts a proof that folds to the published root, and nothing else', () => {
    const own = { ...leaves[2]!, ...proofFromDump(tree.dump, leaves[2]!.address)!, root: tree.root, version: 1 };
    expect(proof!.check(200, own)).toBeNull();
    expect(proof!.check(200, { ...own, quantity: '2' })).toMatch(/does not verify/);
    expect(proof!.check(200, { ...own, root: `0x${'1'.repeat(64)}` })).toMatch(/root/);
    expect(proof!.check(404, { code: 'NOT_ON_ALLOWLIST' })).toMatch(/expected 200, got 404/);
    const data = leaves.map((l) => ({ address: l.address, ...proofFromDump(tree.dump, l.address)! }));
    expect(page!.check(200, { data, root: tree.root, pagination: { hasMore: false } })).toBeNull();
    expect(page!.check(200, { data: data.slice(1), root: tree.root, pagination: { hasMore: false } })).toMatch(/expected 5 leaves/);
  });
});

describe('the allowlist report', () => {
  const step = (phase: AllowlistChildResult['phase'], seconds: number, extra: Partial<AllowlistChildResult> = {}): AllowlistChildResult => ({
    phase,
    seconds,
    maxRssMb: 300,
    baselineRssMb: 200,
    baselineHeapMb: 50,
    sampled: { rssMb: 290, heapUsedMb: 120, externalMb: 10, samples: 10 },
    cpuSeconds: { node: seconds, postgres: 0.5 },
    ...extra,
  });
  const pieces = (hash: number) => step('pieces', 0, { pieces: { readSeconds: 1, hashSeconds: hash, writeSeconds: 2, winners: 100_000, hashCpuSeconds: hash / 2 }, root: '0xabc', leaves: 100_000 });
  const results: BuildResults = {
    finalize: { allowlist: [step('finalize', 110, { queueSeconds: 0.002 })], airdrop: [step('finalize', 100)] },
    publish: [step('publish', 5), step('publish', 4), step('publish', 6)],
    pieces: [pieces(1), pieces(3), pieces(2)],
  };
  const wrk = (requestsPerSecond: number): WrkResult => ({
    requests: requestsPerSecond * 10,
    seconds: 10,
    requestsPerSecond,
    bytesPerRequest: 900,
    errors: { connect: 0, read: 0, write: 0, status: 0, timeout: 0 },
    latencyMs: { mean: 5, p50: 4, p90: 8, p99: 12, p999: 20, max: 30 },
  });
  const load = (id: ProofLoadResult['id'], requestsPerSecond: number): ProofLoadResult => ({ id, label: id, wrk: wrk(requestsPerSecond), cpu: { server: 99, postgres: 30, wrk: 20, other: 1 }, probe: '200' });

  it('states medians, the finalize ratio to the airdrop and every read as a share of bare Fastify', () => {
    const medians = buildMedians(results);
    expect(medians).toMatchObject({ finalizeRatio: 1.1, queueMs: 2, publishSeconds: 5, publishCpuSeconds: 5, hashSeconds: 2, hashCpuSeconds: 1 });
    const markdown = renderAllowlistMarkdown({
      startedAt: 'now',
      environment: {},
      winners: 100_000,
      seedSeconds: 30,
      build: { ...results, medians, root: '0xabc', leaves: 100_000 },
      proofs: [load('bare', 20_000), load('allowlist-proof', 2_000), load('allowlist-leaves', 500)],
      warnings: [],
    });
    expect(markdown).toContain('1.10× finalizing the same raffle as an airdrop');
    expect(markdown).toContain('| allowlist-proof | 2,000 | 10.0% |');
    expect(markdown).toContain('| allowlist-leaves | 500 | 2.5% |');
    // 99% and 30% of a core over 500 req/s: 1.98 and 0.6 ms of CPU per page.
    expect(markdown).toContain('| 1.980 / 0.600 |');
  });
});
