import type { DrawProof } from '../client/api-types.js';

/**
 * The proof's `eligibilityBlocks` (decision 0028): per chain the raffle's requirements read, the
 * block the draw re-evaluated them at, the first whose timestamp is at or after `closedAt`. Nothing
 * in the proof signs them: the chain does. Their formats are exact (decision 0021's rule: one
 * spelling per value, chains sorted and each once), each must be at or after the close, and anyone
 * with a node of the chain (any node: headers, not state) can confirm the hash and that no earlier
 * block was already past the close (checkEligibilityBlocksOnChain). Checking the balances at that
 * block needs an archive node and the entrants' wallets, which the proof does not carry.
 */
export type DrawEligibilityBlock = NonNullable<DrawProof['eligibilityBlocks']>[number];

export const CHAIN_NAME_FORMAT = /^[a-z0-9-]{1,32}$/;
export const BLOCK_NUMBER_FORMAT = /^(?:0|[1-9][0-9]{0,77})$/;
export const BLOCK_HASH_FORMAT = /^0x[0-9a-f]{64}$/;
const TIMESTAMP_FORMAT = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/;

const BLOCK_FIELDS = ['chain', 'chainId', 'number', 'hash', 'timestamp'] as const;

/** What is wrong with one block's fields, in words; empty when every field has its exact format. */
function blockFieldProblems(value: unknown, at: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at} is not an object`];
  const b = value as Record<string, unknown>;
  const problems = Object.keys(b)
    .filter((k) => !(BLOCK_FIELDS as readonly string[]).includes(k))
    .map((k) => `${at}.${k} is not a field of an eligibility block`);
  if (typeof b.chain !== 'string' || !CHAIN_NAME_FORMAT.test(b.chain)) problems.push(`${at}.chain is not a chain name (a-z, 0-9 and -)`);
  if (!Number.isSafeInteger(b.chainId) || (b.chainId as number) < 1) problems.push(`${at}.chainId is not a positive whole number`);
  if (typeof b.number !== 'string' || !BLOCK_NUMBER_FORMAT.test(b.number)) problems.push(`${at}.number is not a decimal block number without leading zeros`);
  if (typeof b.hash !== 'string' || !BLOCK_HASH_FORMAT.test(b.hash)) problems.push(`${at}.hash is not 0x and 32 bytes of lowercase hex`);
  if (typeof b.timestamp !== 'string' || !TIMESTAMP_FORMAT.test(b.timestamp) || new Date(b.timestamp).toISOString() !== b.timestamp) {
    problems.push(`${at}.timestamp is not a UTC date-time as toISOString writes it`);
  }
  return problems;
}

/** Problems with the list's shape: an array of well-formed blocks, chains in ascending order, each once. */
export function eligibilityBlocksShapeProblems(value: unknown): string[] {
  if (!Array.isArray(value)) return ['eligibilityBlocks is not an array'];
  const problems = value.flatMap((b, i) => blockFieldProblems(b, `eligibilityBlocks[${i}]`));
  if (problems.length > 0) return problems;
  const chains = (value as DrawEligibilityBlock[]).map((b) => b.chain);
  if (chains.some((c, i) => i > 0 && !(chains[i - 1]! < c))) problems.push('eligibilityBlocks must name each chain once, in ascending order of chain name');
  return problems;
}

/** The blocks whose timestamp is before the close: none of them can be the first block at or after it. */
export function blocksBeforeClose(blocks: readonly DrawEligibilityBlock[], closedAtMs: number): DrawEligibilityBlock[] {
  return blocks.filter((b) => Date.parse(b.timestamp) < closedAtMs);
}

/** What verifyDraw says about a proof's eligibility blocks. */
export type DrawEligibility = {
  blocks: DrawEligibilityBlock[];
  /** verifyDraw checks formats and the close only; checkEligibilityBlocksOnChain asks a node for the rest. */
  onChain: 'not_checked';
  /** Said plainly, for people: what the blocks prove and what they do not. */
  note: string;
};

export const ELIGIBILITY_NOTE =
  'The draw re-read the on-chain requirements at these blocks. Their hashes and that each is the first block at or after the close can be confirmed with any node of the chain; ' +
  "who held what at them needs an archive node and the entrants' wallets, which the proof does not carry, so the eligible set is taken on the platform's word.";

export type ChainRpcCheckOptions = {
  /** JSON-RPC URL per chain name (as the proof names it); chains without one are not checked. */
  rpcUrls: Readonly<Record<string, string>>;
  fetch?: typeof fetch;
  timeoutMs?: number;
};

export type EligibilityOnChainCheck = {
  /** Chains whose block was confirmed: same chain id, hash and timestamp, and the block before it was before the close. */
  confirmed: string[];
  /** Chains with no RPC URL given. */
  unchecked: string[];
  failures: { reason: 'eligibility_block_mismatch' | 'eligibility_block_not_first'; chain: string; message: string }[];
};

type RpcBlock = { hash: string; timestamp: string } | null;

async function rpc<T>(url: string, method: string, params: unknown[], options: ChainRpcCheckOptions): Promise<T> {
  const response = await (options.fetch ?? fetch)(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  const body = (await response.json()) as { result?: T; error?: { message?: string } };
  if (body.error || !('result' in body)) throw new Error(`${method} failed: ${body.error?.message ?? `HTTP ${response.status}`}`);
  return body.result as T;
}

const blockAt = (url: string, n: bigint, options: ChainRpcCheckOptions) => rpc<RpcBlock>(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false], options);

/**
 * Asks a node of each chain (any node: block headers, not state) whether the proof's block is the
 * chain's: the same chain id, hash and timestamp, and the block before it timestamped before the
 * close, so it is the first at or after it. A network error is thrown, not reported as a failure.
 */
export async function checkEligibilityBlocksOnChain(proof: DrawProof, options: ChainRpcCheckOptions): Promise<EligibilityOnChainCheck> {
  const result: EligibilityOnChainCheck = { confirmed: [], unchecked: [], failures: [] };
  const blocks = proof.eligibilityBlocks ?? [];
  if (eligibilityBlocksShapeProblems(blocks).length > 0) throw new Error('the proof has malformed eligibilityBlocks: verify it with verifyDraw first');
  const closedAtMs = typeof proof.closedAt === 'string' ? Date.parse(proof.closedAt) : Number.NaN;
  for (const b of blocks) {
    const url = options.rpcUrls[b.chain];
    if (!url) {
      result.unchecked.push(b.chain);
      continue;
    }
    const fail = (reason: EligibilityOnChainCheck['failures'][number]['reason'], message: string) => result.failures.push({ reason, chain: b.chain, message });
    const chainId = Number(BigInt(await rpc<string>(url, 'eth_chainId', [], options)));
    const number = BigInt(b.number);
    const block = await blockAt(url, number, options);
    if (chainId !== b.chainId) fail('eligibility_block_mismatch', `${b.chain}: the node is chain ${chainId}, the proof says ${b.chainId}`);
    else if (!block) fail('eligibility_block_mismatch', `${b.chain}: the node has no block ${b.number}`);
    else if (block.hash.toLowerCase() !== b.hash) fail('eligibility_block_mismatch', `${b.chain}: block ${b.number} is ${block.hash}, not ${b.hash}`);
    else if (Number(BigInt(block.timestamp)) * 1000 !== Date.parse(b.timestamp)) fail('eligibility_block_mismatch', `${b.chain}: block ${b.number} is timestamped ${new Date(Number(BigInt(block.timestamp)) * 1000).toISOString()}, not ${b.timestamp}`);
    else {
      const parent = number === 0n ? null : await blockAt(url, number - 1n, options);
      if (parent && Number(BigInt(parent.timestamp)) * 1000 >= closedAtMs) {
        fail('eligibility_block_not_first', `${b.chain}: block ${number - 1n} is already at or after the close, so block ${b.number} is not the first`);
      } else result.confirmed.push(b.chain);
    }
  }
  return result;
}
