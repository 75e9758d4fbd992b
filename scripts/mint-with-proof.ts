import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AllowlistProof } from '@raffle/contracts';
import { BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, http, parseAbi, type Address, type Hex, type LocalAccount } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';

/**
 * Mints on the local chain `start` runs with a winner's allowlist proof, as a mint page would:
 * reads the proof the data plane served (GET /api/v1/raffles/{slug}/allowlist/proof) on stdin,
 * signs as the wallet it names (one of anvil's public test accounts: alice is account 1), and
 * calls the demo's AllowlistMint (its address is in .demo-keys.json). Then shows what the contract
 * refuses: the same winner again (AlreadyMinted), and bob, who did not win, with alice's proof or
 * none (NotOnAllowlist). Run again, the winner has minted already and only the refusals show.
 */

/** anvil's public test mnemonic: these keys guard nothing but the local chain. */
const ANVIL_TEST_MNEMONIC = 'test test test test test test test test test test test junk';
const PERSONAS = ['the deployer', 'alice', 'bob', 'carol'];
const testAccount = (index: number) => mnemonicToAccount(ANVIL_TEST_MNEMONIC, { addressIndex: index });
const nameOf = (account: LocalAccount) => `${PERSONAS[testAccountIndex(account.address)] ?? 'someone'} (${account.address})`;
function testAccountIndex(address: string): number {
  return Array.from({ length: 10 }, (_, i) => testAccount(i).address.toLowerCase()).indexOf(address.toLowerCase());
}

/** The part of AllowlistMint (packages/chain/contracts/AllowlistMint.sol) a mint page calls. */
const abi = parseAbi([
  'function mint(uint256 quantity, bytes32[] proof)',
  'function hasMinted(address wallet) view returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function allowlistRoot() view returns (bytes32)',
  'function allowlistVersion() view returns (uint256)',
  'error NotOnAllowlist(address wallet, uint256 quantity)',
  'error AlreadyMinted(address wallet)',
]);

type DemoFile = { localChain: { rpcUrl: string; allowlistMint: { address: Address } | null } | null };

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// DEMO_KEYS names another copy of the file, as in the README's examples.
const demo = JSON.parse(readFileSync(process.env.DEMO_KEYS ?? path.join(repoRoot, '.demo-keys.json'), 'utf8')) as DemoFile;
const contract = demo.localChain?.allowlistMint?.address;
if (!demo.localChain || !contract) throw new Error('.demo-keys.json names no AllowlistMint: `start` deploys one on its local chain (not when CHAIN_RPC_URLS is set)');
const served = JSON.parse(readFileSync(0, 'utf8')) as AllowlistProof;
const index = testAccountIndex(served.address);
if (index < 0) throw new Error(`the proof is for ${served.address}, which is none of anvil's test accounts: this script cannot sign for it`);

const transport = http(demo.localChain.rpcUrl);
const client = createPublicClient({ chain: foundry, transport, pollingInterval: 200 });
const winner = testAccount(index);
const quantity = BigInt(served.quantity);
const proof = served.proof as Hex[];

/** The contract's custom error for a mint from `account` (an eth_call, nothing sent), or undefined if it would mint. */
async function refusal(account: LocalAccount, args: readonly [bigint, readonly Hex[]]): Promise<string | undefined> {
  try {
    await client.simulateContract({ address: contract!, abi, functionName: 'mint', args, account });
    return undefined;
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined;
    if (!(reverted instanceof ContractFunctionRevertedError) || !reverted.data) throw error;
    return `${reverted.data.errorName}(${(reverted.data.args ?? []).join(', ')})`;
  }
}

const [root, version] = await Promise.all([
  client.readContract({ address: contract, abi, functionName: 'allowlistRoot' }),
  client.readContract({ address: contract, abi, functionName: 'allowlistVersion' }),
]);
console.log(`AllowlistMint ${contract} holds root ${root} (its root version ${version}); the proof is for allowlist version ${served.version}, root ${served.root}`);

if (await client.readContract({ address: contract, abi, functionName: 'hasMinted', args: [winner.address] })) {
  console.log(`${nameOf(winner)} minted already (an earlier run)`);
} else {
  const wallet = createWalletClient({ account: winner, chain: foundry, transport });
  const hash = await wallet.writeContract({ address: contract, abi, functionName: 'mint', args: [quantity, proof] });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`the mint reverted: ${hash}`);
  console.log(`${nameOf(winner)} minted ${quantity} with the served proof in block ${receipt.blockNumber} (${hash})`);
}
console.log(`${nameOf(winner)} holds ${await client.readContract({ address: contract, abi, functionName: 'balanceOf', args: [winner.address] })} Kite Genesis`);

// Each attempt below must be refused; one the contract would let through ends the script with exit code 1.
const nonWinner = testAccount(2);
const attempts: [string, LocalAccount, readonly [bigint, readonly Hex[]]][] = [
  [`${nameOf(winner)} minting again`, winner, [quantity, proof]],
  [`${nameOf(nonWinner)}, who did not win, with ${PERSONAS[index]}'s proof`, nonWinner, [quantity, proof]],
  [`${nameOf(nonWinner)} with no proof`, nonWinner, [1n, []]],
];
for (const [what, account, args] of attempts) {
  const refused = await refusal(account, args);
  console.log(refused ? `${what}: refused, ${refused}` : `${what}: the contract would mint. It should not`);
  if (!refused) process.exitCode = 1;
}
