import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createPublicClient, createWalletClient, http, type Abi, type Address, type Hex } from 'viem';
import { foundry } from 'viem/chains';
import { testAccounts } from '@raffle/chain/local';

/**
 * The console's Solidity allowlist check, compiled and run on a local chain. solc and
 * OpenZeppelin's sources are packages/chain's (it compiles its own contracts with them): borrowed
 * from there rather than installed a second time for one test helper.
 */
const chainRequire = createRequire(new URL('../../../../packages/chain/package.json', import.meta.url));
const solc = chainRequire('solc') as { compile(input: string, callbacks: { import(path: string): { contents: string } | { error: string } }): string };

function findImport(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(chainRequire.resolve(path), 'utf8') };
  } catch {
    return { error: `not found: ${path}` };
  }
}

/** Compiles a single-contract source (its imports from @openzeppelin/contracts); fails on any compiler error. */
export function compileContract(source: string, contractName: string): { abi: Abi; bytecode: Hex } {
  const input = {
    language: 'Solidity',
    sources: { 'Snippet.sol': { content: source } },
    settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const compiled = output.contracts?.['Snippet.sol']?.[contractName];
  if (!compiled) throw new Error(`the source has no contract ${contractName}`);
  return { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
}

/** The snippet deployed by anvil's test account 0, and its isAllowed as a view call. */
export async function deployAllowlistCheck(rpcUrl: string, source: string): Promise<(wallet: string, quantity: bigint, proof: string[]) => Promise<boolean>> {
  const { abi, bytecode } = compileContract(source, 'RaffleAllowlist');
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 100 });
  const wallet = createWalletClient({ account: testAccounts(1)[0]!, chain: foundry, transport, pollingInterval: 100 });
  const receipt = await publicClient.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi, bytecode }) });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('deploying the Solidity check failed');
  const address: Address = receipt.contractAddress;
  return async (walletAddress, quantity, proof) =>
    (await publicClient.readContract({ address, abi, functionName: 'isAllowed', args: [walletAddress, quantity, proof] })) as boolean;
}

/** OpenZeppelin's StandardMerkleTree (packages/chain's copy), to build an allowlist independently of the platform. */
export const StandardMerkleTree = (
  chainRequire('@openzeppelin/merkle-tree') as {
    StandardMerkleTree: { of(values: [string, string][], encoding: string[]): { root: string; getProof(value: [string, string]): string[] } };
  }
).StandardMerkleTree;
