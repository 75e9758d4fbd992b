import { artifacts, testAccounts, type LocalChain } from '@raffle/chain/local';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  encodeFunctionData,
  http,
  parseEther,
  parseEventLogs,
  type Address,
  type Hex,
  type LocalAccount,
  type PublicClient,
} from 'viem';
import { foundry } from 'viem/chains';

const abi = artifacts.AllowlistMint.abi;
/** Far above a mint of a few tokens with a proof of a few hundred leaves: no estimate round trip per transaction. */
const MINT_GAS = 500_000n;

export type Mint = { account: LocalAccount; quantity: bigint; proof: readonly string[] };

/**
 * An AllowlistMint on a local anvil that mines each transaction as it arrives (blockTime 0), read
 * and written through one JSON-RPC client that batches whatever is asked at the same moment: a few
 * hundred wallets funded, minting and read back in a handful of HTTP requests.
 */
export function allowlistMintChain(chain: LocalChain, contract: Address) {
  const client: PublicClient = createPublicClient({ chain: foundry, transport: http(chain.rpcUrl, { batch: { batchSize: 200 } }), pollingInterval: 50 });
  const anvil = createTestClient({ chain: foundry, mode: 'anvil', transport: http(chain.rpcUrl, { batch: { batchSize: 200 } }) });
  const read = <T>(functionName: string, args: readonly unknown[] = []) => client.readContract({ address: contract, abi, functionName, args }) as Promise<T>;

  /** Signs each transaction here with the account's next nonce, sends them all at once, and returns their receipts. */
  async function sendAll(txs: { account: LocalAccount; data: Hex }[]) {
    const [fees, nonces] = await Promise.all([client.estimateFeesPerGas(), Promise.all(txs.map(({ account }) => client.getTransactionCount({ address: account.address, blockTag: 'pending' })))]);
    const signed = await Promise.all(
      txs.map(({ account, data }, i) =>
        account.signTransaction({ chainId: foundry.id, type: 'eip1559', nonce: nonces[i]!, gas: MINT_GAS, ...fees, to: contract, data }),
      ),
    );
    const hashes = await Promise.all(signed.map((serializedTransaction) => client.sendRawTransaction({ serializedTransaction })));
    return Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })));
  }

  return {
    /** Gives each wallet 1 ETH for gas (anvil_setBalance: no transaction). */
    fund: (wallets: readonly Address[]) => Promise.all(wallets.map((address) => anvil.setBalance({ address, value: parseEther('1') }))),

    /** Every mint sent concurrently; throws unless each one succeeded. */
    async mintAll(mints: readonly Mint[]): Promise<void> {
      const receipts = await sendAll(mints.map(({ account, quantity, proof }) => ({ account, data: encodeFunctionData({ abi, functionName: 'mint', args: [quantity, proof] }) })));
      const reverted = receipts.filter((r) => r.status !== 'success').map((r) => r.from);
      if (reverted.length > 0) throw new Error(`${reverted.length} mints reverted, by ${reverted.slice(0, 3).join(', ')}…`);
    },

    /** The custom error a mint by `account` would revert with (an eth_call from the account, so msg.sender is theirs); undefined if it would mint. */
    async refusal(account: LocalAccount, quantity: bigint, proof: readonly string[]): Promise<string | undefined> {
      try {
        await client.simulateContract({ address: contract, abi, functionName: 'mint', args: [quantity, proof], account });
        return undefined;
      } catch (error) {
        const reverted = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : undefined;
        if (reverted instanceof ContractFunctionRevertedError) return reverted.data?.errorName;
        throw error;
      }
    },

    /** The owner (test account 0) publishes the next root version; returns the version the contract's event names. */
    async setRoot(root: string): Promise<bigint> {
      const owner = testAccounts(1)[0]!;
      const [receipt] = await sendAll([{ account: owner, data: encodeFunctionData({ abi, functionName: 'setAllowlistRoot', args: [root] }) }]);
      const [event] = parseEventLogs({ abi, logs: receipt!.logs, eventName: 'AllowlistRootSet' }) as unknown as { args: { version: bigint; root: Hex } }[];
      if (receipt!.status !== 'success' || event?.args.root !== root) throw new Error(`setAllowlistRoot(${root}) did not take`);
      return event.args.version;
    },

    root: () => read<Hex>('allowlistRoot'),
    totalMinted: () => read<bigint>('totalMinted'),
    balanceOf: (wallet: Address) => read<bigint>('balanceOf', [wallet]),
    isAllowed: (wallet: Address, quantity: bigint, proof: readonly string[]) => read<boolean>('isAllowed', [wallet, quantity, proof]),
  };
}
