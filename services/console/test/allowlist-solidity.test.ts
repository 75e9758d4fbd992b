import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAddress } from 'viem/accounts';
import { startAnvil, type LocalChain } from '@raffle/chain/local';
import { soliditySnippet } from '../src/pages/raffles/allowlist/solidity-snippet.js';
import { deployAllowlistCheck, StandardMerkleTree } from './support/solidity-check.js';

/**
 * The Solidity check the console hands a team, compiled with solc and run on anvil against a tree
 * OpenZeppelin's library builds independently: what the console says a contract should do is what
 * a contract does.
 */
let chain: LocalChain;
beforeAll(async () => {
  chain = await startAnvil();
}, 60_000);
afterAll(async () => {
  await chain?.stop();
});

const wallet = (i: number) => privateKeyToAddress(`0x${(i + 1).toString(16).padStart(64, '0')}`);

describe('the Solidity allowlist check', () => {
  it('admits each leaf with its proof, and refuses another quantity, another wallet and a proof of another leaf', async () => {
    const leaves: [string, string][] = [0, 1, 2, 3, 4].map((i) => [wallet(i), '2']);
    const tree = StandardMerkleTree.of(leaves, ['address', 'uint256']);
    const source = soliditySnippet({ slug: 'kite-genesis', quantityPerWinner: 2 }, { version: 1, root: tree.root, count: leaves.length });
    expect(source).toContain(`bytes32 public allowlistRoot = ${tree.root};`);

    const isAllowed = await deployAllowlistCheck(chain.rpcUrl, source);
    for (const leaf of leaves) expect(await isAllowed(leaf[0], 2n, tree.getProof(leaf))).toBe(true);
    const [first, second] = leaves;
    expect(await isAllowed(first![0], 1n, tree.getProof(first!))).toBe(false);
    expect(await isAllowed(wallet(9), 2n, tree.getProof(first!))).toBe(false);
    expect(await isAllowed(first![0], 2n, tree.getProof(second!))).toBe(false);
  });
});
