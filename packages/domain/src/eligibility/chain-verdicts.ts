import type { Address, ChainReader, HoldingQuery } from '@raffle/chain';
import type { EligibilityBlockRecord, EntrantWallet, schema } from '@raffle/db';

/** One entrant as the chain sees them: their verified wallets (any chain; each requirement takes its own). */
export type ChainSubject = { userId: string; wallets: readonly EntrantWallet[] };

/** One on-chain requirement's verdict for one entrant; `evidence` stays private, `detail` is what the entrant is told. */
export type ChainVerdict = { passed: boolean; evidence: Record<string, unknown>; detail: string };

/**
 * Every on-chain requirement for every subject at the pinned blocks: `result[s][r]` is subject s's
 * verdict on `requirements[r]`. One holdings read per requirement for the whole batch (the reader
 * batches it into multicall and caches it per block), holdings summed over the subject's wallets
 * on the requirement's chain.
 *
 * Stands in for @raffle/domain's evaluateChainRequirements (helper "chain") until it lands; the
 * draw only depends on this shape.
 */
export async function chainVerdictsAt(
  reader: ChainReader,
  requirements: readonly schema.RaffleRequirement[],
  subjects: readonly ChainSubject[],
  blocks: readonly EligibilityBlockRecord[],
): Promise<ChainVerdict[][]> {
  const perRequirement = await Promise.all(requirements.map((r) => verdictsOf(reader, r, subjects, blocks)));
  return subjects.map((_, s) => perRequirement.map((verdicts) => verdicts[s]!));
}

function queryOf(r: schema.RaffleRequirement, wallet: Address): HoldingQuery {
  const p = r.params;
  if (r.type === 'native_balance') return { kind: 'native', wallet };
  const contract = String(p.contract) as Address;
  if (p.standard === 'erc1155') return { kind: 'erc1155', contract, tokenId: BigInt(String(p.tokenId)), wallet };
  return { kind: p.standard === 'erc721' ? 'erc721' : 'erc20', contract, wallet };
}

async function assetNameOf(reader: ChainReader, r: schema.RaffleRequirement): Promise<string> {
  if (r.type === 'native_balance') return 'native';
  const name = r.params.standard === 'erc1155' ? undefined : await reader.tokenName(String(r.params.chain), String(r.params.contract) as Address).catch(() => undefined);
  return name ?? (r.params.standard === 'erc1155' ? `of token ${String(r.params.tokenId)}` : 'tokens');
}

async function verdictsOf(
  reader: ChainReader,
  r: schema.RaffleRequirement,
  subjects: readonly ChainSubject[],
  blocks: readonly EligibilityBlockRecord[],
): Promise<ChainVerdict[]> {
  const chain = String(r.params.chain);
  const block = blocks.find((b) => b.chain === chain);
  if (!block) throw new Error(`no eligibility block pinned for chain ${chain}`);
  const walletsOf = subjects.map((s) => s.wallets.filter((w) => w.chain === chain).map((w) => w.address as Address));
  const queries = walletsOf.flatMap((wallets) => wallets.map((w) => queryOf(r, w)));
  const balances = queries.length === 0 ? [] : await reader.readHoldings(chain, queries, BigInt(block.number));
  const name = await assetNameOf(reader, r);
  const min = BigInt(String(r.params.min));
  let next = 0;
  return walletsOf.map((wallets) => {
    let total = 0n;
    for (let i = 0; i < wallets.length; i++) total += balances[next++]!;
    return {
      passed: total >= min,
      evidence: { chain, block: { number: block.number, hash: block.hash }, balance: total.toString(), min: min.toString(), wallets: wallets.length },
      detail: `holds ${total} ${name}, needs ${min}`,
    };
  });
}
