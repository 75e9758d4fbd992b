import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { BaseError, ContractFunctionRevertedError, parseEther, parseEventLogs, type Address, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, deployAllowlistMint, setNativeBalance, startAnvil, testAccounts, type LocalChain } from '../src/local/index.js';
import { localPublicClient, localWalletClient } from '../src/local/chain-clients.js';
import { freshWallet } from './support/fresh-wallet.js';

const abi = artifacts.AllowlistMint.abi;
type Leaf = [Address, bigint];

let chain: LocalChain;
let contract: Address;
let tree: StandardMerkleTree<Leaf>;
/** Winners who send transactions: anvil's funded test accounts 1-6 and fresh accounts given ETH. */
let minters: { account: LocalAccount; quantity: bigint }[];
/** Winners that only ever appear in the tree (their proofs are checked with the view call). */
let listed: Leaf[];
/** A winner that mints nothing before the reroll replaces them. */
let replaced: { account: LocalAccount; quantity: bigint };
/** A winner kept by the reroll who mints only after it, with a proof of the new tree. */
let kept: { account: LocalAccount; quantity: bigint };
let nonWinner: LocalAccount;

const quantityOf = (index: number): bigint => BigInt((index % 3) + 1);

async function fundedFreshAccount(): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await setNativeBalance(chain, account.address, parseEther('1'));
  return account;
}

const proofOf = (from: StandardMerkleTree<Leaf>, leaf: Leaf): Hex[] => from.getProof(leaf) as Hex[];

async function mint(account: LocalAccount, quantity: bigint, proof: Hex[]): Promise<void> {
  const hash = await localWalletClient(chain, account).writeContract({ address: contract, abi, functionName: 'mint', args: [quantity, proof] });
  const receipt = await localPublicClient(chain).waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`mint by ${account.address} reverted`);
}

/** The custom error a mint by `account` would revert with (an eth_call from the account, so msg.sender is theirs). */
async function refusal(account: LocalAccount, functionName: 'mint' | 'setAllowlistRoot', args: readonly unknown[]): Promise<string | undefined> {
  try {
    await localPublicClient(chain).simulateContract({ address: contract, abi, functionName, args, account });
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : undefined;
    if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName;
    throw error;
  }
  return undefined;
}

const balanceOf = (wallet: Address): Promise<bigint> =>
  localPublicClient(chain).readContract({ address: contract, abi, functionName: 'balanceOf', args: [wallet] }) as Promise<bigint>;

const isAllowed = (root: StandardMerkleTree<Leaf>, [wallet, quantity]: Leaf, proof: Hex[] = proofOf(root, [wallet, quantity])): Promise<boolean> =>
  localPublicClient(chain).readContract({ address: contract, abi, functionName: 'isAllowed', args: [wallet, quantity, proof] }) as Promise<boolean>;

beforeAll(async () => {
  chain = await startAnvil();
  const funded = await Promise.all(Array.from({ length: 24 }, () => fundedFreshAccount()));
  minters = [...testAccounts(7).slice(1), ...funded].map((account, index) => ({ account, quantity: quantityOf(index) }));
  replaced = { account: await fundedFreshAccount(), quantity: 2n };
  kept = { account: testAccounts(8)[7]!, quantity: 3n };
  nonWinner = await fundedFreshAccount();
  listed = Array.from({ length: 270 }, (_, index): Leaf => [freshWallet(), quantityOf(index)]);
  const leaves: Leaf[] = [...minters.map(({ account, quantity }): Leaf => [account.address, quantity]), [replaced.account.address, replaced.quantity], [kept.account.address, kept.quantity], ...listed];
  tree = StandardMerkleTree.of(leaves, ['address', 'uint256']);
  contract = await deployAllowlistMint(chain, { name: 'Nebula Allowlist', symbol: 'NEBA', root: tree.root as Hex });
}, 60_000);

afterAll(async () => {
  await chain?.stop();
});

describe('AllowlistMint against a StandardMerkleTree of ["address","uint256"]', () => {
  it('holds the root it was deployed with as version 1', async () => {
    const client = localPublicClient(chain);
    expect(await client.readContract({ address: contract, abi, functionName: 'allowlistRoot' })).toBe(tree.root);
    expect(await client.readContract({ address: contract, abi, functionName: 'allowlistVersion' })).toBe(1n);
  });

  it("accepts every one of the ~300 winners' proofs on-chain (the contract's leaf is the library's)", async () => {
    const answers = await Promise.all([...tree.entries()].map(([, leaf]) => isAllowed(tree, leaf)));
    expect(answers).toHaveLength(tree.length);
    expect(answers.every(Boolean)).toBe(true);
  });

  it('mints each winner their quantity with their proof', async () => {
    await Promise.all(minters.map(({ account, quantity }) => mint(account, quantity, proofOf(tree, [account.address, quantity]))));
    const balances = await Promise.all(minters.map(({ account }) => balanceOf(account.address)));
    expect(balances).toEqual(minters.map(({ quantity }) => quantity));
    const total = minters.reduce((sum, { quantity }) => sum + quantity, 0n);
    expect(await localPublicClient(chain).readContract({ address: contract, abi, functionName: 'totalMinted' })).toBe(total);
  });

  it("refuses a non-winner, a wrong quantity and another winner's proof as NotOnAllowlist", async () => {
    const winner = minters[0]!;
    const other: Leaf = listed[0]!;
    expect(await refusal(nonWinner, 'mint', [1n, []])).toBe('NotOnAllowlist');
    expect(await refusal(nonWinner, 'mint', [other[1], proofOf(tree, other)])).toBe('NotOnAllowlist');
    expect(await refusal(replaced.account, 'mint', [replaced.quantity + 1n, proofOf(tree, [replaced.account.address, replaced.quantity])])).toBe('NotOnAllowlist');
    expect(await refusal(replaced.account, 'mint', [replaced.quantity, proofOf(tree, [winner.account.address, winner.quantity])])).toBe('NotOnAllowlist');
    expect(await isAllowed(tree, [replaced.account.address, replaced.quantity + 1n], proofOf(tree, [replaced.account.address, replaced.quantity]))).toBe(false);
  });

  it('refuses a second mint as AlreadyMinted, even with a valid proof', async () => {
    const winner = minters[1]!;
    expect(await refusal(winner.account, 'mint', [winner.quantity, proofOf(tree, [winner.account.address, winner.quantity])])).toBe('AlreadyMinted');
    expect(await balanceOf(winner.account.address)).toBe(winner.quantity);
  });

  it("after a reroll publishes a new root, mints for the new winner and refuses the replaced winner's old proof", async () => {
    const newcomer = { account: await fundedFreshAccount(), quantity: 2n };
    const rerolled = StandardMerkleTree.of(
      [...tree.entries()].map(([, leaf]): Leaf => (leaf[0] === replaced.account.address ? [newcomer.account.address, newcomer.quantity] : leaf)),
      ['address', 'uint256'],
    );
    expect(rerolled.length).toBe(tree.length);

    expect(await refusal(minters[0]!.account, 'setAllowlistRoot', [rerolled.root])).toBe('OwnableUnauthorizedAccount');
    const owner = testAccounts(1)[0]!;
    const hash = await localWalletClient(chain, owner).writeContract({ address: contract, abi, functionName: 'setAllowlistRoot', args: [rerolled.root as Hex] });
    const receipt = await localPublicClient(chain).waitForTransactionReceipt({ hash });
    const [event] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'AllowlistRootSet' });
    expect(event?.args).toEqual({ version: 2n, root: rerolled.root });

    const oldProof = proofOf(tree, [replaced.account.address, replaced.quantity]);
    expect(await refusal(replaced.account, 'mint', [replaced.quantity, oldProof])).toBe('NotOnAllowlist');
    expect(await isAllowed(rerolled, [replaced.account.address, replaced.quantity], oldProof)).toBe(false);

    await mint(newcomer.account, newcomer.quantity, proofOf(rerolled, [newcomer.account.address, newcomer.quantity]));
    expect(await balanceOf(newcomer.account.address)).toBe(newcomer.quantity);
    // A winner the reroll kept mints with a proof of the new tree; one who already minted still cannot.
    await mint(kept.account, kept.quantity, proofOf(rerolled, [kept.account.address, kept.quantity]));
    expect(await balanceOf(kept.account.address)).toBe(kept.quantity);
    const earlier = minters[2]!;
    expect(await refusal(earlier.account, 'mint', [earlier.quantity, proofOf(rerolled, [earlier.account.address, earlier.quantity])])).toBe('AlreadyMinted');
  });
});
