import { describe, expect, it } from 'vitest';
import { EXIT, judgeDrawProof, runVerifyDraw, type CliIo } from '../src/cli/draw-verdict.js';
import {
  beaconRoundForClose,
  DRAND_DRAW_ALGORITHM,
  describeDrawChecks,
  drawVerdictLabel,
  fetchAndVerifyDraw,
  signRound,
  verifyDraw,
  type DrawCommitment,
  type DrawProof,
  type VerifyDrawOptions,
} from '../src/index.js';
import { beaconBlock, drawEntries, honestDrandProof, honestProof, localChain, localDrandProof, seedHex } from './support/draw-proofs.js';

/**
 * Issue 34: a beacon draw's proof relabelled es-hmac-sha256-v1 (beacon removed, winners re-ranked
 * from the seed alone) verified as a plain VALID, and a round moved with its closedAt passed. The
 * raffle's record (algorithm bound at publish, round fixed at close) is what the proof is now held against.
 */

const entries = drawEntries(200, (i) => (i % 7 === 0 ? '3' : '1'));
const local = localChain();
const trust: VerifyDrawOptions = { trustedChains: [{ ...local.chain, name: 'test beacon' }] };
const CLOSED_AT = '2025-06-15T19:50:41.000Z';
const seed = seedHex('commitment');
const beaconProof = localDrandProof(local, seed, entries, 25, CLOSED_AT);
/** The attack: same seed and entries, no beacon, winners re-ranked from the seed alone. */
const downgraded: DrawProof = honestProof(seed, entries, 25);

const record: DrawCommitment = {
  slug: 'x',
  drawCommitment: beaconProof.drawCommitment,
  drawAlgorithm: DRAND_DRAW_ALGORITHM,
  publishedAt: '2025-06-01T00:00:00.000Z',
  closedAt: CLOSED_AT,
  beaconRound: beaconProof.beacon!.round,
  beaconChainHash: local.chain.chainHash,
};
const reasons = (proof: DrawProof, options: VerifyDrawOptions) => [...new Set(verifyDraw(proof, { ...trust, ...options }).failures.map((f) => f.reason))];

describe('a beacon draw relabelled as a seed-only one', () => {
  it('really is another draw: most of its 25 winners differ from the beacon draw\'s', () => {
    const honest = new Set(beaconProof.winners.map((w) => w.entryId));
    expect(downgraded.winners.filter((w) => !honest.has(w.entryId)).length).toBeGreaterThan(15);
  });

  it('is refused as algorithm_not_committed against the raffle\'s record, bound at publish or by its round', () => {
    expect(reasons(downgraded, { commitment: record })).toEqual(['algorithm_not_committed']);
    // A raffle published before the algorithm was bound: its round (fixed at the close) binds the beacon draw.
    expect(reasons(downgraded, { commitment: { drawCommitment: record.drawCommitment, beaconRound: record.beaconRound } })).toEqual(['algorithm_not_committed']);
    expect(verifyDraw(beaconProof, { ...trust, commitment: record })).toMatchObject({ valid: true, failures: [], checkedAgainst: { drawAlgorithm: DRAND_DRAW_ALGORITHM } });
    expect(verifyDraw(beaconProof, { ...trust, commitment: record }).predictableBy).toBeUndefined();
  });

  it('without a record is never a plain VALID: predictable by whoever held the seed', () => {
    const result = verifyDraw(downgraded, trust);
    expect(result).toMatchObject({ valid: true, predictableBy: 'seed_holder' });
    expect(drawVerdictLabel(result)).toBe('VALID BUT PREDICTABLE');
    const verdict = judgeDrawProof(downgraded, undefined, trust);
    expect(verdict).toMatchObject({ valid: true, predictable: true });
    expect(verdict.report).toMatch(/^VALID BUT PREDICTABLE: .*whoever held the seed .* could rank every entry while entries were open/m);
    expect(verdict.report).toMatch(/algorithm\s+ok\s+es-hmac-sha256-v1 \(the seed alone: whoever held the seed could rank every entry before the draw\)/);
  });

  it('of a raffle closed before beacon rounds (no algorithm, no round in its record) verifies, still marked predictable', () => {
    const legacy = verifyDraw(downgraded, { ...trust, commitment: { drawCommitment: record.drawCommitment } });
    expect(legacy).toMatchObject({ valid: true, predictableBy: 'seed_holder', checkedAgainst: { drawCommitment: record.drawCommitment } });
  });

  it('makes raffle-verify-draw exit 1 with the record served, and 3 (not 0) for a seed-only draw whose record binds nothing', async () => {
    const run = async (commitment: unknown, status = 200) => {
      const out: string[] = [];
      const cli: CliIo = {
        fetch: (async (url: string) =>
          url.endsWith('/commitment')
            ? new Response(JSON.stringify(commitment), { status, headers: { 'content-type': 'application/json' } })
            : new Response(JSON.stringify(downgraded), { headers: { 'content-type': 'application/json' } })) as typeof fetch,
        out: (t) => out.push(t),
        err: (t) => out.push(t),
      };
      return { code: await runVerifyDraw(['x', '--base-url', 'https://h.test'], {}, cli), out: out.join('\n') };
    };
    const bound = await run(record);
    expect(bound.code).toBe(EXIT.invalid);
    expect(bound.out).toMatch(/public record\s+FAIL\s+the raffle published algorithm es-hmac-sha256-drand-v1 \(bound at publish\).*; the proof says es-hmac-sha256-v1/);
    expect(bound.out).toContain('[algorithm_not_committed]');
    const legacy = await run({ slug: 'x', drawCommitment: record.drawCommitment, publishedAt: record.publishedAt });
    expect(legacy.code).toBe(EXIT.predictable);
    const none = await run({ statusCode: 404, code: 'RAFFLE_NOT_FOUND', message: 'no raffle' }, 404);
    expect(none.code).toBe(EXIT.predictable);
    expect(none.out).toMatch(/without the raffle's record this may also be a beacon draw relabelled/);
  });

  it('fetchAndVerifyDraw fetches the record from the public route and holds the proof against it', async () => {
    const calls: string[] = [];
    const fetchBoth = (async (url: string) => {
      calls.push(url);
      return new Response(JSON.stringify(url.endsWith('/commitment') ? record : downgraded), { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const fetched = await fetchAndVerifyDraw('x', { baseUrl: 'https://h.test', fetch: fetchBoth, trustedChains: trust.trustedChains });
    expect(calls).toEqual(['https://h.test/public/v1/raffles/x/draw', 'https://h.test/public/v1/raffles/x/commitment']);
    expect(fetched.commitment).toEqual(record);
    expect(fetched.verification.failures.map((f) => f.reason)).toEqual(['algorithm_not_committed']);
  });
});

describe('a later real round with closedAt moved to fix it', () => {
  // 15.5 s later on a 3 s chain: another round, signed by the chain, consistent with the moved close.
  const movedAt = new Date(Date.parse(CLOSED_AT) + 15_500).toISOString();
  const movedRound = beaconRoundForClose(local.chain, new Date(movedAt));
  const moved = honestDrandProof(seed, entries, 25, movedAt, beaconBlock(local.chain, movedRound, signRound(local.secretKey, movedRound)));

  it('passes on the proof alone, and the words say closedAt is the operator\'s claim, not that nobody could know', () => {
    expect(movedRound).toBeGreaterThan(record.beaconRound!);
    const result = verifyDraw(moved, trust);
    expect(result.valid).toBe(true);
    const round = describeDrawChecks(moved, result, trust.trustedChains).find((c) => c.check === 'beacon round')!;
    expect(round.text).toMatch(/the operator says entries closed .*; if so, nobody could know .* closedAt is the operator's claim: nothing outside the proof holds it here/);
  });

  it('is refused as beacon_round_not_published against the round the record named at the close', () => {
    expect(reasons(moved, { commitment: record })).toEqual(['beacon_round_not_published']);
    expect(reasons(moved, { commitment: { beaconRound: record.beaconRound } })).toEqual(['beacon_round_not_published']);
    const result = verifyDraw(moved, { ...trust, commitment: record });
    const round = describeDrawChecks(moved, result, trust.trustedChains).find((c) => c.check === 'beacon round')!;
    expect(round).toMatchObject({ ok: false });
    expect(round.text).toMatch(new RegExp(`the raffle's record has named round ${record.beaconRound} since it closed: the proof's closedAt .* was moved with its round`));
    // The honest proof's round is the record's: the words name what holds the close.
    const honest = verifyDraw(beaconProof, { ...trust, commitment: record });
    expect(describeDrawChecks(beaconProof, honest, trust.trustedChains).find((c) => c.check === 'beacon round')!.text).toContain(
      `closedAt is the operator's claim: the raffle's record has named round ${record.beaconRound} since the close`,
    );
  });

  it('raffle-verify-draw --beacon-round holds the proof against the round the caller saw at the close', async () => {
    const out: string[] = [];
    const cli: CliIo = {
      fetch: (async (url: string) =>
        url.endsWith('/commitment')
          ? new Response('{"statusCode":404,"code":"RAFFLE_NOT_FOUND","message":"no"}', { status: 404, headers: { 'content-type': 'application/json' } })
          : new Response(JSON.stringify(moved), { headers: { 'content-type': 'application/json' } })) as typeof fetch,
      out: (t) => out.push(t),
      err: (t) => out.push(t),
    };
    const inline = `${local.chain.chainHash}:${local.chain.publicKey}:${local.chain.period}:${local.chain.genesisTime}`;
    expect(await runVerifyDraw(['x', '--base-url', 'https://h.test', '--trust-chain', inline], {}, cli)).toBe(EXIT.valid);
    expect(await runVerifyDraw(['x', '--base-url', 'https://h.test', '--trust-chain', inline, '--beacon-round', String(record.beaconRound)], {}, cli)).toBe(EXIT.invalid);
    expect(out.join('\n')).toContain('[beacon_round_not_published]');
  });
});
