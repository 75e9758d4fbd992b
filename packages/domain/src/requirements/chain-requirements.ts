import type { Address, ChainReader, HoldingQuery } from '@raffle/chain';
import { isChainRequirement, type schema } from '@raffle/db';
import { formatEther } from 'viem';

type RaffleRequirement = schema.RaffleRequirement;

/** One on-chain requirement's outcome for one entrant. */
export type ChainVerdict = {
  passed: boolean;
  /** Private (kept with the verdict, never shown): per-wallet balances, the chain and the block read. */
  evidence: {
    chain: string;
    block: string;
    wallets: { address: string; balance: string }[];
    total: string;
    min: string;
  };
  /** Public, about the entrant only: "holds 0 Nebula Pass, needs 1". Never names a wallet. */
  detail: string;
};

export type ChainSubject = { userId: string; wallets: { chain: string; address: string }[] };

type Asset = { chain: string; query: (wallet: Address) => HoldingQuery; min: bigint };

/** What a chain requirement asks of each wallet; params were checked when the raffle took them. */
function assetOf(requirement: RaffleRequirement): Asset {
  const params = requirement.params;
  const chain = String(params.chain);
  const min = BigInt(String(params.min));
  if (requirement.type === 'native_balance') return { chain, min, query: (wallet) => ({ kind: 'native', wallet }) };
  const contract = String(params.contract) as Address;
  const standard = String(params.standard);
  if (standard === 'erc1155') {
    const tokenId = BigInt(String(params.tokenId));
    return { chain, min, query: (wallet) => ({ kind: 'erc1155', contract, tokenId, wallet }) };
  }
  const kind = standard === 'erc721' ? 'erc721' : 'erc20';
  return { chain, min, query: (wallet) => ({ kind, contract, wallet }) };
}

const NATIVE_SYMBOLS: Record<string, string> = { polygon: 'POL', bsc: 'BNB', avalanche: 'AVAX', gnosis: 'xDAI' };

async function describe(reader: ChainReader, requirement: RaffleRequirement, total: bigint, min: bigint, hasWallet: boolean): Promise<string> {
  const params = requirement.params;
  const chain = String(params.chain);
  let text: string;
  if (requirement.type === 'native_balance') {
    const symbol = NATIVE_SYMBOLS[chain] ?? 'ETH';
    text = `holds ${formatEther(total)} ${symbol}, needs ${formatEther(min)} ${symbol}`;
  } else if (params.standard === 'erc1155') {
    text = `holds ${total} of token id ${String(params.tokenId)}, needs ${min}`;
  } else {
    const name = (await reader.tokenName(chain, String(params.contract) as Address)) ?? requirement.label;
    // ERC-20 amounts stay in base units, as the requirement's `min` is written.
    text = params.standard === 'erc20' ? `holds ${total} base units of ${name}, needs ${min}` : `holds ${total} ${name}, needs ${min}`;
  }
  return hasWallet ? text : `${text} (no verified wallet on ${chain})`;
}

/**
 * Evaluates the on-chain requirements for many entrants at once: the verdicts, per user, aligned
 * with `requirements` (null where a requirement is not an on-chain one). Balances are summed over
 * the user's wallets on the requirement's chain, read at `blockOf(chain)`. Every read of one
 * (chain, block) goes through ONE readHoldings call, so 20,000 entrants become a few bounded
 * calls; `fresh` reads past the reader's short cache of `latest`.
 * Throws ChainUnavailable when a chain does not answer (the caller keeps the entry pending).
 */
export async function evaluateChainRequirements(
  reader: ChainReader,
  requirements: readonly RaffleRequirement[],
  subjects: readonly ChainSubject[],
  blockOf: (chain: string) => bigint | 'latest',
  options: { fresh?: boolean } = {},
): Promise<Map<string, (ChainVerdict | null)[]>> {
  const assets = requirements.map((requirement) => (isChainRequirement(requirement) ? assetOf(requirement) : null));

  // Every (chain, block)'s queries, each asked once however many requirements and users share it.
  const reads = new Map<string, { chain: string; block: bigint | 'latest'; index: Map<string, number>; queries: HoldingQuery[] }>();
  const blocks = new Map<string, bigint | 'latest'>();
  const blockOfChain = (chain: string) => {
    if (!blocks.has(chain)) blocks.set(chain, blockOf(chain));
    return blocks.get(chain)!;
  };
  const walletsOn = (subject: ChainSubject, chain: string): Address[] => [
    ...new Set(subject.wallets.filter((wallet) => wallet.chain === chain).map((wallet) => wallet.address.toLowerCase() as Address)),
  ];
  const queryKey = (query: HoldingQuery) => JSON.stringify(query, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  for (const asset of assets) {
    if (!asset) continue;
    const block = blockOfChain(asset.chain);
    const readKey = `${asset.chain}|${block}`;
    let read = reads.get(readKey);
    if (!read) {
      read = { chain: asset.chain, block, index: new Map(), queries: [] };
      reads.set(readKey, read);
    }
    for (const subject of subjects) {
      for (const wallet of walletsOn(subject, asset.chain)) {
        const query = asset.query(wallet);
        const key = queryKey(query);
        if (!read.index.has(key)) {
          read.index.set(key, read.queries.length);
          read.queries.push(query);
        }
      }
    }
  }
  const balances = new Map<string, bigint[]>();
  await Promise.all(
    [...reads.entries()].map(async ([readKey, read]) => {
      balances.set(readKey, read.queries.length === 0 ? [] : await reader.readHoldings(read.chain, read.queries, read.block, options));
    }),
  );

  const verdicts = new Map<string, (ChainVerdict | null)[]>();
  for (const subject of subjects) {
    const row = await Promise.all(
      requirements.map(async (requirement, position) => {
        const asset = assets[position];
        if (!asset) return null;
        const block = blockOfChain(asset.chain);
        const readKey = `${asset.chain}|${block}`;
        const read = reads.get(readKey)!;
        const values = balances.get(readKey)!;
        const wallets = walletsOn(subject, asset.chain).map((address) => ({
          address,
          balance: values[read.index.get(queryKey(asset.query(address)))!] ?? 0n,
        }));
        const total = wallets.reduce((sum, wallet) => sum + wallet.balance, 0n);
        const verdict: ChainVerdict = {
          passed: total >= asset.min,
          evidence: {
            chain: asset.chain,
            block: String(block),
            wallets: wallets.map((wallet) => ({ address: wallet.address, balance: wallet.balance.toString() })),
            total: total.toString(),
            min: asset.min.toString(),
          },
          detail: await describe(reader, requirement, total, asset.min, wallets.length > 0),
        };
        return verdict;
      }),
    );
    verdicts.set(subject.userId, row);
  }
  return verdicts;
}
