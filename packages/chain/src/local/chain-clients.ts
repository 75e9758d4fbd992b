import { createPublicClient, createWalletClient, http, type LocalAccount, type PublicClient, type WalletClient, type Chain, type Transport, type Hex } from 'viem';
import { foundry } from 'viem/chains';

type LocalTarget = { rpcUrl: string };

export function localPublicClient(chain: LocalTarget): PublicClient {
  return createPublicClient({ chain: foundry, transport: http(chain.rpcUrl), pollingInterval: 100 });
}

export function localWalletClient(chain: LocalTarget, account: LocalAccount): WalletClient<Transport, Chain, LocalAccount> {
  return createWalletClient({ account, chain: foundry, transport: http(chain.rpcUrl), pollingInterval: 100 });
}

/**
 * Sends transactions from one account with nonces counted here (so they go out together and
 * land in the same block or the next), then waits until every one is mined and succeeded.
 * The nonce is asked of the chain each time: a restarted local chain starts again at 0.
 */
export async function sendAll(chain: LocalTarget, account: LocalAccount, sends: ((nonce: number) => Promise<Hex>)[]): Promise<void> {
  if (sends.length === 0) return;
  const publicClient = localPublicClient(chain);
  const first = await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const hashes: Hex[] = [];
  for (const [index, send] of sends.entries()) hashes.push(await send(first + index));
  const receipts = await Promise.all(hashes.map((hash) => publicClient.waitForTransactionReceipt({ hash })));
  const failed = receipts.find((receipt) => receipt.status !== 'success');
  if (failed) throw new Error(`transaction ${failed.transactionHash} reverted`);
}
