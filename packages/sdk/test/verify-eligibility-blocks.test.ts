import { describe, expect, it } from 'vitest';
import { describeDrawChecks, ELIGIBILITY_NOTE, verifyDraw, type DrawProof, type VerifyDrawOptions } from '../src/index.js';
import { judgeDrawProof, parseVerifyDrawArgs } from '../src/cli/draw-verdict.js';
import { isRefusedBeforeActing, isRetryableAnswer } from '../src/http/retry-policy.js';
import { drawEntries, localChain, localDrandProof, seedHex } from './support/draw-proofs.js';

const entries = drawEntries(12, () => '1');
const local = localChain();
const trustLocal: VerifyDrawOptions = { trustedChains: [{ ...local.chain, name: 'test beacon' }] };
const CLOSED_AT = '2025-06-15T19:50:41Z';
const BLOCK = { chain: 'anvil', chainId: 31337, number: '1234', hash: `0x${'ab'.repeat(32)}`, timestamp: '2025-06-15T19:50:42.000Z' };

/** A valid drand proof whose raffle read one chain, at the block just after its close. */
const proofWithBlocks = (blocks: unknown = [BLOCK]): DrawProof => ({ ...localDrandProof(local, seedHex('eligibility'), entries, 3, CLOSED_AT), eligibilityBlocks: blocks as DrawProof['eligibilityBlocks'] });
const reasonsOf = (proof: DrawProof) => [...new Set(verifyDraw(proof, trustLocal).failures.map((f) => f.reason))];

describe("verifyDraw of a proof's eligibilityBlocks", () => {
  it('reports the blocks, and says that balances were not checked (that needs an archive node)', () => {
    const result = verifyDraw(proofWithBlocks(), trustLocal);
    expect(result).toMatchObject({ valid: true, failures: [] });
    expect(result.eligibility).toEqual({ blocks: [BLOCK], onChain: 'not_checked', note: ELIGIBILITY_NOTE });
    expect(result.eligibility!.note).toMatch(/archive node/);
  });

  it('reports nothing for a proof without them (proofs of raffles that read no chain verify as before)', () => {
    const proof = localDrandProof(local, seedHex('eligibility'), entries, 3, CLOSED_AT);
    const result = verifyDraw(proof, trustLocal);
    expect(result.valid).toBe(true);
    expect(result).not.toHaveProperty('eligibility');
    expect(describeDrawChecks(proof, result, trustLocal.trustedChains).map((c) => c.check)).not.toContain('eligibility blocks');
  });

  it('refuses a block timestamped before the close: it cannot be the first block at or after it', () => {
    expect(reasonsOf(proofWithBlocks([{ ...BLOCK, timestamp: '2025-06-15T19:50:40.000Z' }]))).toEqual(['eligibility_block_before_close']);
  });

  it('refuses blocks without closedAt, which fixes them', () => {
    const { closedAt: _closedAt, ...withoutClose } = proofWithBlocks();
    expect(reasonsOf(withoutClose as DrawProof)).toContain('closed_at_missing');
  });

  it.each([
    ['a number with a leading zero', { ...BLOCK, number: '01234' }],
    ['a number in hex', { ...BLOCK, number: '0x4d2' }],
    ['a number as a JSON number', { ...BLOCK, number: 1234 }],
    ['an uppercase hash', { ...BLOCK, hash: BLOCK.hash.toUpperCase().replace('0X', '0x') }],
    ['a short hash', { ...BLOCK, hash: '0xabcd' }],
    ['a timestamp in another spelling', { ...BLOCK, timestamp: '2025-06-15T19:50:42Z' }],
    ['an impossible date', { ...BLOCK, timestamp: '2025-02-30T19:50:42.000Z' }],
    ['a chain id of 0', { ...BLOCK, chainId: 0 }],
    ['a field of its own', { ...BLOCK, balance: '1' }],
  ])('refuses %s as malformed_eligibility_blocks', (_label, block) => {
    expect(reasonsOf(proofWithBlocks([block]))).toEqual(['malformed_eligibility_blocks']);
  });

  it('refuses a chain named twice or out of order, so the list has one spelling', () => {
    const base = { ...BLOCK, chain: 'base', chainId: 8453 };
    expect(verifyDraw(proofWithBlocks([BLOCK, base]), trustLocal).valid).toBe(true);
    expect(reasonsOf(proofWithBlocks([base, BLOCK]))).toEqual(['malformed_eligibility_blocks']);
    expect(reasonsOf(proofWithBlocks([BLOCK, BLOCK]))).toEqual(['malformed_eligibility_blocks']);
    expect(reasonsOf(proofWithBlocks({ anvil: BLOCK }))).toEqual(['malformed_eligibility_blocks']);
  });

  it('the CLI prints each block with its number and hash, and that the hash is left to a node', () => {
    const { valid, report } = judgeDrawProof(proofWithBlocks(), 'test', trustLocal);
    expect(valid).toBe(true);
    const line = report.split('\n').find((l) => l.includes('eligibility blocks'))!;
    expect(line).toContain('ok');
    expect(line).toContain('anvil (chain 31337) block 1234');
    expect(line).toMatch(/archive node/);
    const tampered = judgeDrawProof(proofWithBlocks([{ ...BLOCK, timestamp: '2025-06-15T19:50:00.000Z' }]), 'test', trustLocal);
    expect(tampered.valid).toBe(false);
    expect(tampered.report).toContain('[eligibility_block_before_close]');
  });
});

describe('a draw waiting for its close block', () => {
  it('is retried by the SDK after Retry-After, as a draw waiting for its beacon round is: nothing ran', () => {
    expect(isRetryableAnswer(409, 'DRAW_CHAIN_PENDING')).toBe(true);
    expect(isRefusedBeforeActing(409, 'DRAW_CHAIN_PENDING')).toBe(true);
    // An unreachable chain is a 503: retried only where a repeat cannot act twice (GETs, keyed writes).
    expect(isRefusedBeforeActing(503, 'CHAIN_UNAVAILABLE')).toBe(false);
  });
});

describe('raffle-verify-draw --chain-rpc', () => {
  it('takes a node per chain, and refuses anything but <chain>=<http(s) url>', () => {
    expect(parseVerifyDrawArgs(['some-raffle', '--chain-rpc', 'anvil=http://127.0.0.1:8545', '--chain-rpc', 'base=https://base.example/rpc'], {})).toMatchObject({
      chainRpcUrls: { anvil: 'http://127.0.0.1:8545', base: 'https://base.example/rpc' },
    });
    expect(parseVerifyDrawArgs(['some-raffle'], {})).not.toHaveProperty('chainRpcUrls');
    for (const bad of ['http://127.0.0.1:8545', '=http://x', 'anvil=ws://x']) {
      expect(parseVerifyDrawArgs(['some-raffle', '--chain-rpc', bad], {})).toEqual({ error: expect.stringMatching(/--chain-rpc takes <chain>=<http\(s\) url>/) });
    }
  });
});
