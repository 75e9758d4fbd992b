/**
 * PLACEHOLDER of the "chain" helper's evaluator (issue 25), so the entry work typechecks before it
 * lands; the merge takes theirs. Same signature: per subject, verdicts aligned with `requirements`.
 */
import type { Address, ChainReader, HoldingQuery } from '@raffle/chain';
import type { schema } from '@raffle/db';

export type ChainSubject = { wallets: readonly { chain: string; address: string }[] };
export type ChainVerdict = { passed: boolean; evidence: Record<string, unknown>; detail: string };

export async function evaluateChainRequirements(
  reader: ChainReader,
  requirements: readonly schema.RaffleRequirement[],
  subjects: readonly ChainSubject[],
  blockOf: (chain: string) => bigint | 'latest',
): Promise<ChainVerdict[][]> {
  const perRequirement = await Promise.all(
    requirements.map(async (r) => {
      const chain = String(r.params.chain);
      const min = BigInt(String(r.params.min));
      const contract = r.params.contract as Address;
      const queryOf = (wallet: Address): HoldingQuery =>
        r.type === 'native_balance'
          ? { kind: 'native', wallet }
          : r.params.standard === 'erc1155'
            ? { kind: 'erc1155', contract, tokenId: BigInt(String(r.params.tokenId)), wallet }
            : { kind: r.params.standard as 'erc20' | 'erc721', contract, wallet };
      const wallets = subjects.map((s) => s.wallets.filter((w) => w.chain === chain).map((w) => w.address as Address));
      const block = blockOf(chain);
      const balances = await reader.readHoldings(chain, wallets.flat().map(queryOf), block);
      const name = r.type === 'token_balance' ? ((await reader.tokenName(chain, contract)) ?? 'tokens') : 'wei';
      let at = 0;
      return wallets.map((ws): ChainVerdict => {
        const mine = balances.slice(at, (at += ws.length));
        const total = mine.reduce((a, b) => a + b, 0n);
        return {
          passed: total >= min,
          evidence: { chain, block: String(block), balances: ws.map((w, i) => ({ wallet: w, balance: String(mine[i]) })) },
          detail: `holds ${total} ${name}, needs ${min}`,
        };
      });
    }),
  );
  return subjects.map((_, s) => requirements.map((_, i) => perRequirement[i]![s]!));
}
